//! Round robin by the circle method over the players of round 1 in seed order (rating desc,
//! then number): one player stays put while the others rotate, and an odd field adds a phantom
//! whose partner has the bye, so every pair meets exactly once per cycle and everyone gets one
//! bye per cycle. The schedule is fixed at round 1 so that a withdrawal does not reshuffle it:
//! rounds past the cycle repeat it (a double round robin, `first` and `second` swapped in every
//! other cycle); players whose scheduled opponent has withdrawn, and entrants who joined after
//! round 1, are paired among themselves by the Swiss rules (so they may get byes or rematches,
//! and a withdrawal leaves the schedule incomplete for its opponents).

use std::cmp::Reverse;

use super::{Field, swiss};
use crate::record::{Entrant, Pairing, PlayerNo, RoundGame};

/// Pairs `round` of the round robin whose round 1 is in `history` (or is this round).
pub(super) fn pair(field: &Field, entrants: &[Entrant], history: &[RoundGame], round: u32) -> Vec<Pairing> {
    let seed = |p: &PlayerNo| entrants.iter().find(|e| e.no == *p).map(|e| (Reverse(e.rating), e.no));
    let mut roster: Vec<PlayerNo> =
        history.iter().filter(|g| g.round == 1).flat_map(|g| [Some(g.pairing.first), g.pairing.second]).flatten().collect();
    roster.retain(|p| seed(p).is_some());
    if roster.len() < 2 {
        roster.clone_from(&field.ranked);
    }
    roster.sort_by_key(seed);
    roster.dedup();
    let slots = roster.len() + roster.len() % 2;
    let cycle = slots - 1;
    let (repeat, turn) = ((round as usize - 1) / cycle, (round as usize - 1) % cycle);
    // The player at a position of the circle this turn; past the roster is the phantom.
    let at = |pos: usize| {
        let index = if pos == 0 { 0 } else { 1 + (pos - 1 + turn) % cycle };
        roster.get(index).copied().filter(|p| field.ranked.contains(p))
    };
    let mut pairs = Vec::new();
    let mut free: Vec<PlayerNo> = field.ranked.iter().copied().filter(|p| !roster.contains(p)).collect();
    for pos in 0..slots / 2 {
        match (at(pos), at(slots - 1 - pos)) {
            (Some(a), Some(b)) => {
                let (high, low) = if seed(&a) < seed(&b) { (a, b) } else { (b, a) };
                let (first, second) = if repeat % 2 == 0 { (high, low) } else { (low, high) };
                pairs.push(Pairing { first, second: Some(second) });
            }
            (Some(p), None) | (None, Some(p)) => free.push(p),
            (None, None) => {}
        }
    }
    let rank = |p: PlayerNo| field.ranked.iter().position(|&r| r == p).unwrap_or(usize::MAX);
    free.sort_by_key(|&p| rank(p));
    pairs.extend(swiss::pair(field, &free));
    pairs.sort_by_key(|p| (p.second.is_none(), rank(p.first).min(p.second.map_or(usize::MAX, rank))));
    pairs
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::pairing::{PairingSystem, pair_round};
    use crate::record::{Pairing, PlayerNo, RoundGame, TournamentOutcome};
    use crate::standings::tests::entrant;

    fn play(history: &mut Vec<RoundGame>, round: u32, pairs: &[Pairing]) {
        for (i, &pairing) in pairs.iter().enumerate() {
            let outcome = match pairing.second {
                Some(_) => TournamentOutcome::Played { first_score: 350 + i as i32 * 13 % 90, second_score: 400 - round as i32 },
                None => TournamentOutcome::Bye,
            };
            history.push(RoundGame { round, pairing, outcome: Some(outcome) });
        }
    }

    #[test]
    fn every_pair_meets_once_per_cycle_and_odd_fields_give_everyone_one_bye() {
        for n in 2..=12u32 {
            let entrants: Vec<_> = (1..=n).map(|p| entrant(p, 1200 + (p as i32 * 53) % 400)).collect();
            let cycle = if n % 2 == 0 { n - 1 } else { n };
            let mut history = Vec::new();
            let mut met: BTreeMap<(PlayerNo, PlayerNo), u32> = BTreeMap::new();
            let mut byes: BTreeMap<PlayerNo, u32> = BTreeMap::new();
            for round in 1..=cycle {
                let pairs = pair_round(PairingSystem::RoundRobin, &entrants, &history, round, false).unwrap();
                let mut seen: Vec<_> = pairs.iter().flat_map(|p| [Some(p.first), p.second]).flatten().collect();
                seen.sort();
                assert_eq!(seen, (1..=n).collect::<Vec<_>>(), "n {n} round {round}: everyone once");
                for p in &pairs {
                    match p.second {
                        Some(s) => *met.entry((p.first.min(s), p.first.max(s))).or_default() += 1,
                        None => *byes.entry(p.first).or_default() += 1,
                    }
                }
                play(&mut history, round, &pairs);
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2, "n {n}: every pair met");
            assert!(met.values().all(|&m| m == 1), "n {n}: no pair met twice");
            let expected: BTreeMap<_, _> = if n % 2 == 1 { (1..=n).map(|p| (p, 1)).collect() } else { BTreeMap::new() };
            assert_eq!(byes, expected, "n {n}: one bye each when odd");
            // The next round starts the second cycle: round 1 again, sides swapped.
            let again = pair_round(PairingSystem::RoundRobin, &entrants, &history, cycle + 1, false).unwrap();
            let swap = |p: &Pairing| p.second.map_or(*p, |s| Pairing { first: s, second: Some(p.first) });
            let mut first: Vec<_> = history.iter().filter(|g| g.round == 1).map(|g| swap(&g.pairing)).collect();
            let mut again_sorted = again.clone();
            first.sort_by_key(|p| (p.first, p.second));
            again_sorted.sort_by_key(|p| (p.first, p.second));
            assert_eq!(again_sorted, first, "n {n}: the cycle repeats");
        }
    }

    #[test]
    fn a_withdrawal_keeps_the_schedule_and_frees_the_opponent_without_rematches() {
        let mut entrants: Vec<_> = (1..=6).map(|p| entrant(p, 1000 + p as i32)).collect();
        let mut history = Vec::new();
        for round in 1..=5 {
            if round == 3 {
                entrants[0].withdrawn = true;
            }
            let pairs = pair_round(PairingSystem::RoundRobin, &entrants, &history, round, false).unwrap();
            let players: Vec<_> = pairs.iter().flat_map(|p| [Some(p.first), p.second]).flatten().collect();
            assert_eq!(players.len(), if round < 3 { 6 } else { 5 });
            assert!(round < 3 || !players.contains(&1));
            play(&mut history, round, &pairs);
        }
        let mut met = BTreeMap::new();
        for p in history.iter().filter_map(|g| g.pairing.second.map(|s| (g.pairing.first.min(s), g.pairing.first.max(s)))) {
            *met.entry(p).or_insert(0) += 1;
        }
        assert!(met.values().all(|&m| m == 1));
    }
}
