//! The `.t` file of tsh, the standard Scrabble tournament software (John Chew's; its manual at
//! tsh.poslfit.com/doc): one line per player in player-number order,
//! `Last, First  rating  opp opp opp; score score score`, optionally followed by more
//! `;`-separated fields (`; p12 1 2`, `; board 3 1`, `; off 1`, …) that this reader ignores.
//!
//! Conventions, as tsh's data-entry manual describes them: a bye is a game against player 0
//! with the bye's spread as the score (+[`BYE_SPREAD`](crate::BYE_SPREAD)); a forfeit is entered the same way with
//! a negative score. So a forfeit between two paired players is written as two games against
//! player 0, −[`FORFEIT_SPREAD`](crate::FORFEIT_SPREAD) for the player who forfeits and +[`FORFEIT_SPREAD`](crate::FORFEIT_SPREAD) for the
//! opponent (a double forfeit: −[`FORFEIT_SPREAD`](crate::FORFEIT_SPREAD) each); a round in which a player had no
//! pairing (they had withdrawn) is written as player 0 with score 0. Only the leading rounds
//! whose games all have outcomes are written.
//!
//! Names are written as given except that characters which would break the line are dropped:
//! digits (a token that reads as a number ends the name), `;` and `#`; whitespace runs become
//! one space, and an empty result becomes `Unnamed`.

use std::fmt::Write as _;

use crate::record::{Entrant, PlayerNo, RoundGame};

/// One player line of a tsh `.t` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TshPlayer {
    /// The name (tsh writes "Last, First"; ours are display names).
    pub name: String,
    /// The rating.
    pub rating: i32,
    /// Each round's opponent; 0 is a bye, a forfeit or no game.
    pub opponents: Vec<PlayerNo>,
    /// Each round's own score (the spread for games against player 0); tsh allows fewer scores
    /// than opponents while a round is being played.
    pub scores: Vec<i32>,
}

/// Why a `.t` file could not be read; each variant holds the 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TshError {
    /// The line starts with its rating.
    #[error("line {line}: no name before the rating")]
    MissingName {
        /// The line.
        line: usize,
    },
    /// No token of the line reads as a rating.
    #[error("line {line}: no rating after the name")]
    MissingRating {
        /// The line.
        line: usize,
    },
    /// An opponent is not a player number.
    #[error("line {line}: opponent `{token}` is not a player number")]
    BadOpponent {
        /// The line.
        line: usize,
        /// The token read.
        token: String,
    },
    /// An opponent's number is past the last player.
    #[error("line {line}: opponent {opponent} is not a player of this file")]
    UnknownOpponent {
        /// The line.
        line: usize,
        /// The number read.
        opponent: PlayerNo,
    },
    /// A score is not a number.
    #[error("line {line}: score `{token}` is not a number")]
    BadScore {
        /// The line.
        line: usize,
        /// The token read.
        token: String,
    },
    /// More scores than opponents.
    #[error("line {line}: {scores} scores for {opponents} opponents")]
    TooManyScores {
        /// The line.
        line: usize,
        /// Opponents on the line.
        opponents: usize,
        /// Scores on the line.
        scores: usize,
    },
}

/// The players' lines of a tournament, as [`tsh_export`] writes them: entrants in number order
/// (tsh expects them numbered 1..=n), each with the rounds every game of which has an outcome.
pub fn tsh_players(entrants: &[Entrant], games: &[RoundGame]) -> Vec<TshPlayer> {
    let mut complete = 0;
    while games.iter().any(|g| g.round == complete + 1) && games.iter().all(|g| g.round != complete + 1 || g.outcome.is_some()) {
        complete += 1;
    }
    let mut entrants: Vec<&Entrant> = entrants.iter().collect();
    entrants.sort_by_key(|e| e.no);
    entrants
        .into_iter()
        .map(|entrant| {
            let (opponents, scores) = (1..=complete)
                .map(|round| {
                    let side = games.iter().filter(|g| g.round == round).flat_map(RoundGame::sides).find(|s| s.player == entrant.no);
                    side.map_or((0, 0), |s| (s.opponent.unwrap_or(0), s.score))
                })
                .unzip();
            TshPlayer { name: tsh_name(&entrant.name), rating: entrant.rating, opponents, scores }
        })
        .collect()
}

/// The `.t` file of the tournament so far: [`tsh_players`], one line each.
pub fn tsh_export(entrants: &[Entrant], games: &[RoundGame]) -> String {
    let mut text = String::new();
    for player in tsh_players(entrants, games) {
        let _ = write!(text, "{} {}", player.name, player.rating);
        for opponent in &player.opponents {
            let _ = write!(text, " {opponent}");
        }
        text.push(';');
        for score in &player.scores {
            let _ = write!(text, " {score}");
        }
        text.push('\n');
    }
    text
}

/// Reads a `.t` file: `Last, First  rating  opp opp opp; score score score`, with trailing
/// `;`-separated fields ignored, blank lines and `#` comment lines skipped.
///
/// # Errors
///
/// A [`TshError`] naming the first bad line (1-based) and what was wrong with it.
pub fn tsh_parse(text: &str) -> Result<Vec<TshPlayer>, TshError> {
    let mut players = Vec::new();
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let mut fields = raw.split(';');
        let head: Vec<&str> = fields.next().unwrap_or_default().split_whitespace().collect();
        let at = head.iter().position(|t| t.parse::<i32>().is_ok()).ok_or(TshError::MissingRating { line })?;
        if at == 0 {
            return Err(TshError::MissingName { line });
        }
        let opponents = head[at + 1..]
            .iter()
            .map(|t| t.parse::<PlayerNo>().map_err(|_| TshError::BadOpponent { line, token: (*t).to_owned() }))
            .collect::<Result<Vec<_>, _>>()?;
        let scores = fields
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .map(|t| t.parse::<i32>().map_err(|_| TshError::BadScore { line, token: t.to_owned() }))
            .collect::<Result<Vec<_>, _>>()?;
        if scores.len() > opponents.len() {
            return Err(TshError::TooManyScores { line, opponents: opponents.len(), scores: scores.len() });
        }
        let rating = head[at].parse().unwrap_or_default();
        players.push(TshPlayer { name: head[..at].join(" "), rating, opponents, scores });
        lines.push(line);
    }
    for (player, &line) in players.iter().zip(&lines) {
        if let Some(&opponent) = player.opponents.iter().find(|&&o| o as usize > lines.len()) {
            return Err(TshError::UnknownOpponent { line, opponent });
        }
    }
    Ok(players)
}

/// The name as a `.t` line can hold it (see the module's header).
fn tsh_name(name: &str) -> String {
    let kept: String = name.chars().filter(|c| !c.is_numeric() && *c != ';' && *c != '#').collect();
    let words: Vec<&str> = kept.split_whitespace().collect();
    if words.is_empty() { "Unnamed".to_owned() } else { words.join(" ") }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;

    use super::*;
    use crate::pairing::{PairingSystem, pair_round};
    use crate::record::TournamentOutcome;

    /// A `.t` file in the manual's shape: comments, padding, a bye, a forfeit, tsh's extra fields.
    const SAMPLE: &str = "# Division A\n\
        Chew, John         1895  4 2 0; 423 380 50 ; p12 1 2 0\n\
        Castellano, Vince  1760  3 1 4; 377 412 -50 ; board 1 1 0\n\
        \n\
        Lipkin, Seth       1700  2 4 0; 360 402 50\n\
        Holden, Stewart       0  1 3 2; 401 395\n";

    #[test]
    fn a_sample_from_the_manual_is_read() {
        let players = tsh_parse(SAMPLE).unwrap();
        assert_eq!(players.len(), 4);
        assert_eq!(players[0], TshPlayer { name: "Chew, John".into(), rating: 1895, opponents: vec![4, 2, 0], scores: vec![423, 380, 50] });
        assert_eq!(players[1].scores, [377, 412, -50]);
        assert_eq!((players[3].rating, players[3].opponents.len(), players[3].scores.len()), (0, 3, 2));
    }

    #[test]
    fn bad_lines_are_reported_with_their_numbers() {
        let cases = [
            ("A 1500 2; 300\n1500 1; 200\n", TshError::MissingName { line: 2 }),
            ("A, B 1500 2; 1\n# c\n", TshError::UnknownOpponent { line: 1, opponent: 2 }),
            ("\nNo Rating at all\n", TshError::MissingRating { line: 2 }),
            ("A 1500 x; 1\n", TshError::BadOpponent { line: 1, token: "x".into() }),
            ("A 1500 1; 1 y\n", TshError::BadScore { line: 1, token: "y".into() }),
            ("A 1500 1; 1 2\n", TshError::TooManyScores { line: 1, opponents: 1, scores: 2 }),
        ];
        for (text, error) in cases {
            assert_eq!(tsh_parse(text), Err(error.clone()), "{text:?}");
            assert!(error.to_string().starts_with("line "));
        }
    }

    fn outcome(roll: u8, first: PlayerNo, second: PlayerNo, a: i32, b: i32) -> TournamentOutcome {
        match roll % 8 {
            0 => TournamentOutcome::Forfeit { loser: first },
            1 => TournamentOutcome::Forfeit { loser: second },
            2 => TournamentOutcome::DoubleForfeit,
            _ => TournamentOutcome::Played { first_score: a, second_score: b },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, rng_seed: RngSeed::Fixed(5), ..ProptestConfig::default() })]

        #[test]
        fn an_export_reads_back_as_its_players(
            names in proptest::collection::vec("[A-Za-z0-9 ,;#'.-]{0,12}", 2..9),
            rounds in 0..6u32,
            rolls in proptest::collection::vec((any::<u8>(), 0..600i32, 0..600i32), 1..40),
            withdraw in 0..12u32,
            unfinished in any::<bool>(),
        ) {
            let mut entrants: Vec<Entrant> = names.iter().enumerate()
                .map(|(i, name)| Entrant { no: i as u32 + 1, name: name.clone(), rating: (i as i32 * 211) % 900 - 100, withdrawn: false })
                .collect();
            let mut games = Vec::new();
            for round in 1..=rounds {
                if round == 3 && (withdraw as usize) < entrants.len() {
                    entrants[withdraw as usize].withdrawn = true;
                }
                let Ok(pairs) = pair_round(PairingSystem::Swiss, &entrants, &games, round, false) else { break };
                for (i, pairing) in pairs.into_iter().enumerate() {
                    let (roll, a, b) = rolls[(i + round as usize) % rolls.len()];
                    let outcome = pairing.second.map_or(TournamentOutcome::Bye, |s| outcome(roll, pairing.first, s, a, b));
                    let open = unfinished && round == rounds && i == 0;
                    games.push(RoundGame { round, pairing, outcome: (!open).then_some(outcome) });
                }
            }
            let players = tsh_players(&entrants, &games);
            prop_assert_eq!(tsh_parse(&tsh_export(&entrants, &games)), Ok(players.clone()));
            let written = rounds - u32::from(unfinished && rounds > 0 && games.iter().any(|g| g.outcome.is_none()));
            prop_assert!(players.iter().all(|p| p.opponents.len() as u32 <= written && p.scores.len() == p.opponents.len()));
            for (player, entrant) in players.iter().zip(&entrants) {
                let spread: i32 = (0..player.opponents.len()).map(|r| match player.opponents[r] {
                    0 => player.scores[r],
                    o => player.scores[r] - players[o as usize - 1].scores[r],
                }).sum();
                let complete: Vec<_> = games.iter().filter(|g| g.round <= player.opponents.len() as u32).copied().collect();
                let line = crate::standings::standings(&entrants, &complete).into_iter().find(|s| s.player == entrant.no).unwrap();
                prop_assert_eq!(spread, line.spread, "the file's spread is the standings'");
            }
        }
    }

    #[test]
    fn byes_forfeits_and_absences_follow_tsh() {
        let entrants: Vec<_> = ["Ann 2nd", "Bo; #x", "  ", "Di"]
            .iter()
            .enumerate()
            .map(|(i, n)| Entrant { no: i as u32 + 1, name: (*n).into(), rating: 1500, withdrawn: false })
            .collect();
        let game =
            |round, first, second, outcome| RoundGame { round, pairing: crate::record::Pairing { first, second }, outcome: Some(outcome) };
        let games = [
            game(1, 1, Some(2), TournamentOutcome::Forfeit { loser: 2 }),
            game(1, 3, None, TournamentOutcome::Bye),
            game(2, 1, Some(3), TournamentOutcome::Played { first_score: 400, second_score: 390 }),
            game(2, 2, Some(4), TournamentOutcome::DoubleForfeit),
        ];
        let text = tsh_export(&entrants, &games);
        assert_eq!(text, "Ann nd 1500 0 3; 50 400\nBo x 1500 0 0; -50 -50\nUnnamed 1500 0 1; 50 390\nDi 1500 0 0; 0 -50\n");
    }
}
