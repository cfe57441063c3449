//! Pairing a round: the systems, the checks every system shares (the round is the next one,
//! earlier games are finished), and the field as the systems see it (active players in
//! standings order, past meetings, byes).

mod king_of_the_hill;
mod round_robin;
mod swiss;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::{Entrant, Pairing, PlayerNo, RoundGame};
use crate::standings::standings;

/// The pairing system of the tournament's rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingSystem {
    /// Everyone meets everyone once per cycle; rounds past the cycle repeat it (double round robin).
    RoundRobin,
    /// Top-down by standings, avoiding rematches.
    Swiss,
}

impl PairingSystem {
    /// The stable id: `"round_robin"` or `"swiss"`.
    pub fn id(self) -> &'static str {
        match self {
            Self::RoundRobin => "round_robin",
            Self::Swiss => "swiss",
        }
    }

    /// The system with this [`id`](Self::id), if any.
    pub fn from_id(id: &str) -> Option<Self> {
        [Self::RoundRobin, Self::Swiss].into_iter().find(|s| s.id() == id)
    }
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// Fewer than two entrants are active.
    #[error("fewer than two players to pair")]
    TooFewPlayers,
    /// Kept for callers that match on it; never returned, because rounds past a round robin's
    /// cycle repeat the cycle (a double round robin) instead.
    #[error("round {round} is past the round robin's {rounds} rounds")]
    PastRoundRobin {
        /// The round asked for.
        round: u32,
        /// The rounds in one cycle.
        rounds: u32,
    },
    /// The round is not 1 + the highest round of the history.
    #[error("round {0} is not the next round")]
    NotNextRound(u32),
    /// A game of the history has no outcome.
    #[error("a game of an earlier round has no outcome")]
    Unfinished,
}

/// Pairs round `round` (1-based; it must equal 1 + the highest round in `history`, and every
/// game in history must have an outcome) among the entrants not withdrawn. With
/// `king_of_the_hill` this round is paired King of the Hill (1 v 2, 3 v 4, … by current
/// standings) whatever the system: the director passes it for the final round.
///
/// Pairings come in rank order, `first` the higher-ranked player (in a round robin, the higher
/// seed, swapped in every other cycle); a bye is last.
///
/// # Errors
///
/// [`PairingError::NotNextRound`] when `round` is not the next round, [`PairingError::Unfinished`]
/// when a game of `history` has no outcome, [`PairingError::TooFewPlayers`] when fewer than two
/// entrants are active.
pub fn pair_round(
    system: PairingSystem,
    entrants: &[Entrant],
    history: &[RoundGame],
    round: u32,
    king_of_the_hill: bool,
) -> Result<Vec<Pairing>, PairingError> {
    if history.iter().map(|g| g.round).max().unwrap_or(0) + 1 != round {
        return Err(PairingError::NotNextRound(round));
    }
    if history.iter().any(|g| g.outcome.is_none()) {
        return Err(PairingError::Unfinished);
    }
    let field = Field::new(entrants, history);
    if field.ranked.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    Ok(match (king_of_the_hill, system) {
        (true, _) => king_of_the_hill::pair(&field),
        (false, PairingSystem::Swiss) => swiss::pair(&field, &field.ranked),
        (false, PairingSystem::RoundRobin) => round_robin::pair(&field, entrants, history, round),
    })
}

/// The field as the pairing systems see it.
pub(crate) struct Field {
    /// The active players, best-ranked first by current standings.
    pub ranked: Vec<PlayerNo>,
    /// How often each pair (lower number first) has met.
    pub met: BTreeMap<(PlayerNo, PlayerNo), u32>,
    /// The byes each player has had.
    pub byes: BTreeMap<PlayerNo, u32>,
}

impl Field {
    fn new(entrants: &[Entrant], history: &[RoundGame]) -> Self {
        let active: Vec<PlayerNo> = entrants.iter().filter(|e| !e.withdrawn).map(|e| e.no).collect();
        let ranked = standings(entrants, history).into_iter().map(|s| s.player).filter(|p| active.contains(p)).collect();
        let (mut met, mut byes) = (BTreeMap::new(), BTreeMap::new());
        for pairing in history.iter().map(|g| g.pairing) {
            match pairing.second {
                Some(second) => *met.entry(key(pairing.first, second)).or_insert(0) += 1,
                None => *byes.entry(pairing.first).or_insert(0) += 1,
            }
        }
        Self { ranked, met, byes }
    }

    /// How often `a` and `b` have met.
    pub fn met(&self, a: PlayerNo, b: PlayerNo) -> u32 {
        self.met.get(&key(a, b)).copied().unwrap_or(0)
    }

    /// The byes `player` has had.
    pub fn byes(&self, player: PlayerNo) -> u32 {
        self.byes.get(&player).copied().unwrap_or(0)
    }

    /// The players of `ranked` (in rank order) who may take this round's bye: those with the
    /// fewest byes, lowest-ranked first, so nobody gets a second bye while someone has none.
    pub fn bye_candidates(&self, ranked: &[PlayerNo]) -> Vec<PlayerNo> {
        let fewest = ranked.iter().map(|&p| self.byes(p)).min().unwrap_or(0);
        ranked.iter().rev().copied().filter(|&p| self.byes(p) == fewest).collect()
    }
}

fn key(a: PlayerNo, b: PlayerNo) -> (PlayerNo, PlayerNo) {
    (a.min(b), a.max(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::TournamentOutcome;
    use crate::standings::tests::{entrant, game};

    #[test]
    fn a_round_is_paired_only_next_after_finished_games_among_two_or_more() {
        let mut entrants: Vec<_> = (1..=3).map(|p| entrant(p, 0)).collect();
        let mut history = vec![game(1, 1, Some(2), TournamentOutcome::Bye), game(1, 3, None, TournamentOutcome::Bye)];
        let pair = |e: &[Entrant], h: &[RoundGame], round| pair_round(PairingSystem::Swiss, e, h, round, false);
        assert_eq!(pair(&entrants, &history, 3), Err(PairingError::NotNextRound(3)));
        assert_eq!(pair(&entrants, &[], 2), Err(PairingError::NotNextRound(2)));
        history[1].outcome = None;
        assert_eq!(pair(&entrants, &history, 2), Err(PairingError::Unfinished));
        entrants[0].withdrawn = true;
        entrants[1].withdrawn = true;
        assert_eq!(pair(&entrants, &[], 1), Err(PairingError::TooFewPlayers));
    }

    #[test]
    fn systems_are_named_by_stable_ids() {
        for system in [PairingSystem::RoundRobin, PairingSystem::Swiss] {
            assert_eq!(PairingSystem::from_id(system.id()), Some(system));
        }
        assert_eq!(PairingSystem::from_id("knockout"), None);
    }
}
