//! Standings: each player's wins, losses, draws and spread over the finished games, ranked.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::record::{Entrant, PlayerNo, RoundGame};

/// A player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// The rank, 1..=n with no shared ranks (ties broken as [`standings`] says).
    pub rank: u32,
    /// The player.
    pub player: PlayerNo,
    /// Games won (byes and forfeit wins count).
    pub wins: u32,
    /// Games lost (forfeits count).
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Half-points: 2 per win, 1 per draw (the first ordering key).
    pub points: u32,
    /// Cumulative spread.
    pub spread: i32,
    /// Games with an outcome, byes included.
    pub played: u32,
    /// Byes received.
    pub byes: u32,
}

/// Standings after the games with outcomes: ordered by points (desc), spread (desc), rating
/// (desc, the seed), then player number (asc). Withdrawn players stay in the standings; games of
/// players who are not entrants are ignored.
pub fn standings(entrants: &[Entrant], games: &[RoundGame]) -> Vec<Standing> {
    let mut lines: BTreeMap<PlayerNo, Standing> = entrants
        .iter()
        .map(|e| {
            let blank = Standing { rank: 0, player: e.no, wins: 0, losses: 0, draws: 0, points: 0, spread: 0, played: 0, byes: 0 };
            (e.no, blank)
        })
        .collect();
    for game in games {
        let bye = game.pairing.second.is_none();
        for side in game.sides() {
            let Some(line) = lines.get_mut(&side.player) else { continue };
            line.played += 1;
            line.spread += side.spread;
            line.byes += u32::from(bye);
            match side.spread.signum() {
                1 => line.wins += 1,
                -1 => line.losses += 1,
                _ => line.draws += 1,
            }
            line.points = 2 * line.wins + line.draws;
        }
    }
    let rating: BTreeMap<PlayerNo, i32> = entrants.iter().map(|e| (e.no, e.rating)).collect();
    let mut ranked: Vec<Standing> = lines.into_values().collect();
    ranked.sort_by_key(|s| (Reverse(s.points), Reverse(s.spread), Reverse(rating[&s.player]), s.player));
    for (i, line) in ranked.iter_mut().enumerate() {
        line.rank = i as u32 + 1;
    }
    ranked
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::record::{GameWinner, Pairing, TournamentOutcome};
    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;

    pub(crate) fn entrant(no: PlayerNo, rating: i32) -> Entrant {
        Entrant { no, name: format!("P{no}"), rating, withdrawn: false }
    }

    pub(crate) fn game(round: u32, first: PlayerNo, second: Option<PlayerNo>, outcome: TournamentOutcome) -> RoundGame {
        RoundGame { round, pairing: Pairing { first, second }, outcome: Some(outcome) }
    }

    fn played(a: i32, b: i32) -> TournamentOutcome {
        TournamentOutcome::Played { first_score: a, second_score: b }
    }

    #[test]
    fn points_then_spread_then_rating_then_number_order_the_standings() {
        let entrants = [entrant(1, 1500), entrant(2, 1600), entrant(3, 1600), entrant(4, 1500), entrant(5, 0)];
        let games =
            [game(1, 1, Some(2), played(400, 300)), game(1, 3, Some(4), played(350, 350)), game(1, 5, None, TournamentOutcome::Bye)];
        let order: Vec<_> = standings(&entrants, &games).iter().map(|s| (s.rank, s.player, s.points, s.spread)).collect();
        assert_eq!(order, [(1, 1, 2, 100), (2, 5, 2, 50), (3, 3, 1, 0), (4, 4, 1, 0), (5, 2, 0, -100)]);
    }

    #[test]
    fn forfeits_and_double_forfeits_score_fifty_and_unfinished_games_nothing() {
        let entrants = [entrant(1, 0), entrant(2, 0), entrant(3, 0), entrant(4, 0)];
        let mut games =
            vec![game(1, 1, Some(2), TournamentOutcome::Forfeit { loser: 2 }), game(1, 3, Some(4), TournamentOutcome::DoubleForfeit)];
        games.push(RoundGame { round: 2, pairing: Pairing { first: 1, second: Some(3) }, outcome: None });
        let table = standings(&entrants, &games);
        let line = |p: PlayerNo| table.iter().find(|s| s.player == p).unwrap().clone();
        assert_eq!((line(1).wins, line(1).spread, line(1).played), (1, 50, 1));
        assert_eq!((line(2).losses, line(2).spread), (1, -50));
        assert_eq!((line(3).losses, line(3).spread, line(4).losses, line(4).spread), (1, -50, 1, -50));
    }

    /// Games among players 1..=n, any pairing and outcome.
    pub(crate) fn arbitrary_games(n: u32) -> impl Strategy<Value = Vec<RoundGame>> {
        let outcome = prop_oneof![
            (0..600i32, 0..600i32).prop_map(|(a, b)| played(a, b)),
            (1..=n).prop_map(|loser| TournamentOutcome::Forfeit { loser }),
            Just(TournamentOutcome::DoubleForfeit),
            Just(TournamentOutcome::Bye),
        ];
        let one = (1..5u32, 1..=n, proptest::option::of(1..=n), proptest::option::of(outcome));
        proptest::collection::vec(
            one.prop_map(|(round, first, second, outcome)| RoundGame {
                round,
                pairing: Pairing { first, second: second.filter(|&s| s != first) },
                outcome,
            }),
            0..30,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: RngSeed::Fixed(7), ..ProptestConfig::default() })]

        #[test]
        fn standings_equal_a_naive_recomputation(ratings in proptest::collection::vec(0..3i32, 1..8), games in arbitrary_games(8)) {
            // Games may name players 1..=8 who are not entrants: the standings ignore them.
            let entrants: Vec<_> = ratings.iter().enumerate().map(|(i, &r)| entrant(i as u32 + 1, r * 100)).collect();
            let table = standings(&entrants, &games);
            for s in &table {
                let (mut w, mut l, mut d, mut spread, mut byes) = (0, 0, 0, 0, 0);
                for g in games.iter().filter(|g| g.outcome.is_some()) {
                    let (f, sec, o) = (g.pairing.first, g.pairing.second, g.outcome.unwrap());
                    let mine = match (sec, o) {
                        (None, TournamentOutcome::Forfeit { loser }) if f == s.player && loser == f => Some(-50),
                        (None, TournamentOutcome::DoubleForfeit) if f == s.player => Some(-50),
                        (None, _) if f == s.player => Some(50),
                        (Some(_), TournamentOutcome::Played { first_score, second_score }) if f == s.player => Some(first_score - second_score),
                        (Some(x), TournamentOutcome::Played { first_score, second_score }) if x == s.player => Some(second_score - first_score),
                        (Some(_), TournamentOutcome::Forfeit { loser }) if f == s.player => Some(if loser == f { -50 } else { 50 }),
                        (Some(x), TournamentOutcome::Forfeit { loser }) if x == s.player => Some(if loser == f { 50 } else { -50 }),
                        (Some(x), TournamentOutcome::DoubleForfeit) if f == s.player || x == s.player => Some(-50),
                        (Some(x), TournamentOutcome::Bye) if f == s.player || x == s.player => Some(50),
                        _ => None,
                    };
                    let Some(m) = mine else { continue };
                    spread += m;
                    byes += u32::from(sec.is_none());
                    if m > 0 { w += 1 } else if m < 0 { l += 1 } else { d += 1 }
                }
                prop_assert_eq!((s.wins, s.losses, s.draws, s.spread, s.byes), (w, l, d, spread, byes));
                prop_assert_eq!((s.points, s.played), (2 * w + d, w + l + d));
            }
            let keys: Vec<_> = table.iter().map(|s| (Reverse(s.points), Reverse(s.spread), Reverse(entrants[s.player as usize - 1].rating), s.player)).collect();
            prop_assert!(keys.windows(2).all(|k| k[0] < k[1]));
            prop_assert!(table.iter().enumerate().all(|(i, s)| s.rank == i as u32 + 1));
        }

        /// Whatever the scores, the standings and the `.t` export give the win to whom the game
        /// gave it: a player who ran out of time or resigned while ahead or level is never
        /// credited a win or a draw.
        #[test]
        fn a_game_s_result_is_the_game_s_whatever_the_scores(
            first_score in -60..600i32,
            second_score in -60..600i32,
            winner in prop_oneof![Just(GameWinner::First), Just(GameWinner::Second)],
        ) {
            let entrants = [entrant(1, 0), entrant(2, 0)];
            let games = [game(1, 1, Some(2), TournamentOutcome::of_game(1, 2, first_score, second_score, winner))];
            let table = standings(&entrants, &games);
            let line = |p: PlayerNo| table.iter().find(|s| s.player == p).unwrap().clone();
            let (won, lost) = if winner == GameWinner::First { (1, 2) } else { (2, 1) };
            prop_assert_eq!((line(won).wins, line(won).losses, line(lost).wins, line(lost).losses), (1, 0, 0, 1));
            prop_assert!(line(won).spread > 0 && line(lost).spread < 0);
            let export = crate::tsh_parse(&crate::tsh_export(&entrants, &games)).unwrap();
            let margin = |p: &crate::TshPlayer| p.scores[0] - if p.opponents[0] == 0 { 0 } else { export[p.opponents[0] as usize - 1].scores[0] };
            prop_assert!(margin(&export[won as usize - 1]) > 0 && margin(&export[lost as usize - 1]) < 0, "{:?}", export);
        }

        /// Scores that agree with the game are kept as played: the spread is the board's.
        #[test]
        fn scores_that_agree_with_the_game_are_played(a in 0..600i32, b in 0..600i32) {
            let winner = match a.cmp(&b) {
                std::cmp::Ordering::Greater => GameWinner::First,
                std::cmp::Ordering::Less => GameWinner::Second,
                std::cmp::Ordering::Equal => GameWinner::Both,
            };
            prop_assert_eq!(TournamentOutcome::of_game(1, 2, a, b, winner), TournamentOutcome::Played { first_score: a, second_score: b });
        }
    }

    #[test]
    fn a_flag_at_level_scores_is_a_forfeit_and_a_tie_the_game_gives_is_a_draw() {
        assert_eq!(TournamentOutcome::of_game(3, 4, 0, 0, GameWinner::Second), TournamentOutcome::Forfeit { loser: 3 });
        assert_eq!(TournamentOutcome::of_game(3, 4, 26, 24, GameWinner::Second), TournamentOutcome::Forfeit { loser: 3 });
        assert_eq!(
            TournamentOutcome::of_game(3, 4, 26, 24, GameWinner::Both),
            TournamentOutcome::Played { first_score: 26, second_score: 26 }
        );
    }
}
