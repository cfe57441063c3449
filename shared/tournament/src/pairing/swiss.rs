//! Swiss pairing: each unpaired player, top-down by standings, meets the highest-ranked player
//! left whom they have not met, backtracking so that no rematch happens whenever the field can
//! be paired without one; otherwise the pairing with the fewest past meetings found wins.

use super::Field;
use crate::record::{Pairing, PlayerNo};

/// The search's budget in nodes, shared by every bye candidate tried. A field of up to 12
/// players is searched exhaustively well within it; a larger field almost always finds a
/// rematch-free pairing on its first descent, and otherwise keeps the best pairing found.
const NODE_BUDGET: u32 = 200_000;

/// Pairs `ranked` (best first). With an odd count the bye goes to a player with the fewest byes,
/// the lowest-ranked such player whose bye leaves a rematch-free field (else the one whose bye
/// leaves the fewest rematches), so byes rotate.
pub(super) fn pair(field: &Field, ranked: &[PlayerNo]) -> Vec<Pairing> {
    let mut search = Search { field, players: Vec::new(), met: Vec::new(), used: Vec::new(), current: Vec::new(), best: None, nodes: 0 };
    if ranked.len().is_multiple_of(2) {
        return search.run(ranked).1;
    }
    let mut best: Option<(u32, Vec<Pairing>, PlayerNo)> = None;
    for bye in field.bye_candidates(ranked) {
        let rest: Vec<PlayerNo> = ranked.iter().copied().filter(|&p| p != bye).collect();
        let (cost, pairs) = search.run(&rest);
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, pairs, bye));
        }
        if cost == 0 {
            break;
        }
    }
    let (_, mut pairs, bye) = best.unwrap_or_default();
    pairs.push(Pairing { first: bye, second: None });
    pairs
}

/// A depth-first branch and bound over perfect matchings; the cost of a matching is the number
/// of past meetings of its pairs.
struct Search<'a> {
    field: &'a Field,
    players: Vec<PlayerNo>,
    /// Past meetings by position in `players`.
    met: Vec<Vec<u32>>,
    used: Vec<bool>,
    current: Vec<(usize, usize)>,
    best: Option<(u32, Vec<(usize, usize)>)>,
    nodes: u32,
}

impl Search<'_> {
    /// The cheapest matching of `ranked` (even in length) found, and its cost.
    fn run(&mut self, ranked: &[PlayerNo]) -> (u32, Vec<Pairing>) {
        self.players = ranked.to_vec();
        self.met = ranked.iter().map(|&a| ranked.iter().map(|&b| self.field.met(a, b)).collect()).collect();
        self.used = vec![false; ranked.len()];
        self.best = None;
        self.descend(0);
        let (cost, pairs) = self.best.take().unwrap_or_default();
        let pairs = pairs.into_iter().map(|(a, b)| Pairing { first: self.players[a], second: Some(self.players[b]) });
        (cost, pairs.collect())
    }

    fn done(&self) -> bool {
        self.best.as_ref().is_some_and(|b| b.0 == 0 || self.nodes >= NODE_BUDGET)
    }

    fn descend(&mut self, cost: u32) {
        self.nodes += 1;
        let Some(top) = self.used.iter().position(|u| !u) else {
            if self.best.as_ref().is_none_or(|b| cost < b.0) {
                self.best = Some((cost, self.current.clone()));
            }
            return;
        };
        self.used[top] = true;
        let mut partners: Vec<(u32, usize)> =
            (top + 1..self.players.len()).filter(|&j| !self.used[j]).map(|j| (self.met[top][j], j)).collect();
        // Unmet partners first, each group in rank order.
        partners.sort();
        for (met, j) in partners {
            if self.done() || self.best.as_ref().is_some_and(|b| cost + met >= b.0) {
                break;
            }
            self.used[j] = true;
            self.current.push((top, j));
            self.descend(cost + met);
            self.current.pop();
            self.used[j] = false;
        }
        self.used[top] = false;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;

    use crate::pairing::{Field, PairingSystem, pair_round};
    use crate::record::{Pairing, PlayerNo, RoundGame, TournamentOutcome};
    use crate::standings::tests::entrant;

    /// Whether `players` can be paired with no two who have met.
    fn rematch_free_exists(players: &[PlayerNo], field: &Field) -> bool {
        let Some((&top, rest)) = players.split_first() else { return true };
        rest.iter().enumerate().any(|(i, &p)| {
            let mut others = rest.to_vec();
            others.remove(i);
            field.met(top, p) == 0 && rematch_free_exists(&others, field)
        })
    }

    /// Plays `rounds` Swiss rounds with the given scores (cycled), player `withdraw.0` withdrawing
    /// before round `withdraw.1`; checks every round and returns the games.
    fn simulate(n: u32, rounds: u32, scores: &[(i32, i32)], withdraw: Option<(u32, u32)>) -> Result<Vec<RoundGame>, TestCaseError> {
        let mut entrants: Vec<_> = (1..=n).map(|p| entrant(p, 1000 + (p as i32 * 37) % 500)).collect();
        let mut history = Vec::new();
        for round in 1..=rounds {
            if let Some((p, _)) = withdraw.filter(|w| w.1 == round) {
                entrants[p as usize - 1].withdrawn = true;
            }
            let field = Field::new(&entrants, &history);
            if field.ranked.len() < 2 {
                break;
            }
            let pairs = pair_round(PairingSystem::Swiss, &entrants, &history, round, false).unwrap();
            let mut seen: Vec<PlayerNo> = pairs.iter().flat_map(|p| [Some(p.first), p.second]).flatten().collect();
            seen.sort();
            let mut active = field.ranked.clone();
            active.sort();
            prop_assert_eq!(&seen, &active, "round {}: every active player exactly once", round);
            let byes: Vec<PlayerNo> = pairs.iter().filter(|p| p.second.is_none()).map(|p| p.first).collect();
            let fewest = active.iter().map(|&p| field.byes(p)).min().unwrap();
            prop_assert!(byes.iter().all(|&b| field.byes(b) == fewest), "round {}: a second bye while someone has none", round);
            if pairs.iter().any(|p| p.second.is_some_and(|s| field.met(p.first, s) > 0)) {
                let candidates = if active.len() % 2 == 1 { field.bye_candidates(&field.ranked) } else { vec![0] };
                for bye in candidates {
                    let rest: Vec<PlayerNo> = field.ranked.iter().copied().filter(|&p| p != bye).collect();
                    prop_assert!(!rematch_free_exists(&rest, &field), "round {}: an avoidable rematch", round);
                }
            }
            for (i, pairing) in pairs.into_iter().enumerate() {
                let (a, b) = scores[(i + round as usize) % scores.len()];
                let outcome = if pairing.second.is_some() {
                    TournamentOutcome::Played { first_score: a, second_score: b }
                } else {
                    TournamentOutcome::Bye
                };
                history.push(RoundGame { round, pairing, outcome: Some(outcome) });
            }
        }
        Ok(history)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, rng_seed: RngSeed::Fixed(11), ..ProptestConfig::default() })]

        #[test]
        fn swiss_avoids_rematches_while_it_can_and_rotates_byes(
            n in 2..=10u32,
            extra in 0..4u32,
            scores in proptest::collection::vec((250..500i32, 250..500i32), 1..20),
            withdraw in proptest::option::of((1..=10u32, 2..8u32)),
        ) {
            simulate(n, n + extra, &scores, withdraw.filter(|w| w.0 <= n))?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, rng_seed: RngSeed::Fixed(12), ..ProptestConfig::default() })]

        #[test]
        fn twelve_players_play_five_swiss_rounds_without_a_rematch(scores in proptest::collection::vec((250..500i32, 250..500i32), 6..30)) {
            let history = simulate(12, 5, &scores, None)?;
            let mut met = BTreeMap::new();
            for p in history.iter().map(|g| g.pairing) {
                if let Pairing { first, second: Some(second) } = p {
                    *met.entry((first.min(second), first.max(second))).or_insert(0) += 1;
                }
            }
            prop_assert_eq!(history.len(), 30);
            prop_assert!(met.values().all(|&m| m == 1));
        }
    }

    #[test]
    fn sixty_four_players_pair_quickly_even_late() {
        let entrants: Vec<_> = (1..=64).map(|p| entrant(p, 2000 - p as i32)).collect();
        let mut history = Vec::new();
        for round in 1..=20 {
            let pairs = pair_round(PairingSystem::Swiss, &entrants, &history, round, false).unwrap();
            assert_eq!(pairs.len(), 32);
            for (i, pairing) in pairs.into_iter().enumerate() {
                let outcome = TournamentOutcome::Played { first_score: 300 + (i as i32 * 7) % 50, second_score: 320 };
                history.push(RoundGame { round, pairing, outcome: Some(outcome) });
            }
        }
    }
}
