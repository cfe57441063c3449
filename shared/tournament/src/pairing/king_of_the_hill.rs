//! King of the Hill: 1 v 2, 3 v 4, … by current standings, rematches allowed (a final round
//! between the leaders is the point).

use super::Field;
use crate::record::Pairing;

/// Pairs the field neighbour by neighbour; with an odd count the bye goes first, as in Swiss,
/// to the lowest-ranked player with the fewest byes.
pub(super) fn pair(field: &Field) -> Vec<Pairing> {
    let mut ranked = field.ranked.clone();
    let bye = (ranked.len() % 2 == 1).then(|| field.bye_candidates(&ranked)[0]);
    ranked.retain(|&p| Some(p) != bye);
    let mut pairs: Vec<Pairing> = ranked.chunks(2).map(|c| Pairing { first: c[0], second: Some(c[1]) }).collect();
    pairs.extend(bye.map(|first| Pairing { first, second: None }));
    pairs
}

#[cfg(test)]
mod tests {
    use crate::pairing::{PairingSystem, pair_round};
    use crate::record::{Pairing, TournamentOutcome};
    use crate::standings::tests::{entrant, game};

    fn played(a: i32, b: i32) -> TournamentOutcome {
        TournamentOutcome::Played { first_score: a, second_score: b }
    }

    #[test]
    fn king_of_the_hill_pairs_neighbours_in_the_standings_even_as_rematches() {
        let entrants: Vec<_> = (1..=5).map(|p| entrant(p, 1500)).collect();
        // After round 1: 2 (+150), 4 (+60, bye +50 ranks below), 5 (bye +50), 3 (−60), 1 (−150).
        let history =
            [game(1, 1, Some(2), played(300, 450)), game(1, 3, Some(4), played(340, 400)), game(1, 5, None, TournamentOutcome::Bye)];
        for system in [PairingSystem::Swiss, PairingSystem::RoundRobin] {
            let pairs = pair_round(system, &entrants, &history, 2, true).unwrap();
            let expected =
                [Pairing { first: 2, second: Some(4) }, Pairing { first: 5, second: Some(3) }, Pairing { first: 1, second: None }];
            assert_eq!(pairs, expected);
        }
        // Round 3: 4 (2 wins), 2 (+290), 3 (+140), 5 (−150, a bye), 1 (−250, a bye): the bye goes
        // to 3, the lowest without one, and the leaders meet again.
        let mut history =
            vec![game(1, 2, Some(1), played(500, 200)), game(1, 4, Some(3), played(400, 340)), game(1, 5, None, TournamentOutcome::Bye)];
        history.extend([
            game(2, 2, Some(4), played(390, 400)),
            game(2, 5, Some(3), played(300, 500)),
            game(2, 1, None, TournamentOutcome::Bye),
        ]);
        let pairs = pair_round(PairingSystem::Swiss, &entrants, &history, 3, true).unwrap();
        assert_eq!(
            pairs,
            [Pairing { first: 4, second: Some(2) }, Pairing { first: 5, second: Some(1) }, Pairing { first: 3, second: None }]
        );
    }
}
