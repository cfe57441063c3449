//! Whole-leave values from the full racks seen in self-play: the rack census recipe, as wolges'
//! and macondo's leave tables are made, and the English table's (`wordgame data leaves`).
//!
//! 1. Self-play between two static-equity players that also exchange (the better of the best
//!    play's equity and the best exchange's kept-leave value). Each turn taken with a full rack
//!    and tiles in the bag records that rack and the best value it had.
//! 2. A leave's value is the mean best value of the full racks that hold it, each sample
//!    weighted by how likely its other tiles are as a draw to that leave against how likely the
//!    whole rack is from a full bag (the racks came up as draws from the bag, not as draws to the
//!    leave): `Π C(n − l, r − l) / C(n, r)` over the tile kinds the leave holds (`n` tiles of the
//!    kind in the set, `r` in the rack, `l` in the leave).
//! 3. Less the empty leave's value (the mean of all samples), so that keeping nothing is 0, and
//!    shrunk toward the heuristic by `shrink` pseudo-samples: thin leaves keep mostly the
//!    heuristic's value. Leaves with fewer than `min_support` samples are left out (the engine
//!    values them by the heuristic).
//!
//! Every leave one rack holds is valued from the same sample, so one game informs every leave
//! its racks held, not only the leaves kept.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};

use engine::leave::key_of;
use engine::lexicon::builtin_graph;
use engine::{Game, LeaveTable, MoveGenerator, Rack, RackTile, Rules, TileMove, TileVariant, Timestamp};

use crate::ladder::progress;
use crate::selfplay::{StaticStrategy, best_play, to_move};

/// One full rack's samples: how often it came up and the sum of its best values (thousandths).
#[derive(Debug, Clone, Copy)]
struct RackStats {
    rack: Rack,
    samples: u32,
    sum: i64,
}

/// The full racks seen, by key.
#[derive(Debug, Default)]
pub struct Census {
    racks: HashMap<u64, RackStats>,
}

impl Census {
    /// Adds one sample: `rack` had a best value of `value` thousandths.
    pub fn add(&mut self, rack: &Rack, value: i32) {
        let e = self.racks.entry(key_of(rack)).or_insert(RackStats { rack: *rack, samples: 0, sum: 0 });
        e.samples += 1;
        e.sum += i64::from(value);
    }

    /// Samples taken.
    pub fn samples(&self) -> u64 {
        self.racks.values().map(|s| u64::from(s.samples)).sum()
    }

    /// Distinct racks seen.
    pub fn racks(&self) -> usize {
        self.racks.len()
    }

    fn merge(&mut self, other: Census) {
        for (k, s) in other.racks {
            let e = self.racks.entry(k).or_insert(RackStats { samples: 0, sum: 0, ..s });
            e.samples += s.samples;
            e.sum += s.sum;
        }
    }
}

/// The static player's move and the best value the rack had (thousandths): the better of the
/// best play by equity and, with a rack's worth of tiles in the bag, the best exchange by kept
/// leave. `None` for the value when it has neither. The lab's ladder (`--versus parts`) plays it
/// as hard's static ranking; the hard level itself weighs its best three exchanges, and none near
/// the game's scoreless end.
pub fn static_move(game: &Game, generator: &MoveGenerator<'_>, table: &LeaveTable) -> (TileMove, Option<i32>) {
    let rules = game.rules();
    let rack = game.rack(game.to_move());
    let play = best_play(generator, game, StaticStrategy::Equity(table));
    let exchange = table.best_exchanges(rules, rack, game.bag().len(), 1).into_iter().next();
    match (play, exchange) {
        (Some(p), Some((out, e))) if e > p.equity => (TileMove::exchange(rules, &out), Some(e)),
        (Some(p), _) => (TileMove::play(rules, &p.placements()), Some(p.equity)),
        (None, Some((out, e))) => (TileMove::exchange(rules, &out), Some(e)),
        (None, None) => (to_move(game, None), None),
    }
}

/// The census of `games` self-play games (seeds from `seed`) between two static players of
/// `playing`, split over `threads` threads; the same on any thread count.
pub fn collect(variant: TileVariant, playing: &LeaveTable, games: u64, seed: u64, threads: u64, label: &str) -> Census {
    let done = AtomicU64::new(0);
    let parts: Vec<Census> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let rules = variant.rules();
                    let generator = MoveGenerator::new(rules, builtin_graph(variant));
                    let mut census = Census::default();
                    for g in (t..games).step_by(threads.max(1) as usize) {
                        play(variant, &generator, playing, seed + g, &mut census);
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if t == 0 {
                            progress(label, n, games);
                        }
                    }
                    census
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a census thread panicked")).collect()
    });
    eprintln!();
    let mut census = Census::default();
    parts.into_iter().for_each(|p| census.merge(p));
    census
}

/// Plays one game, adding each turn taken with a full rack and tiles in the bag.
fn play(variant: TileVariant, generator: &MoveGenerator<'_>, table: &LeaveTable, seed: u64, census: &mut Census) {
    let rules = variant.rules();
    let mut game = Game::new(variant, 2, seed).expect("two seats");
    while !game.is_over() {
        let seat = game.to_move();
        let (mv, value) = static_move(&game, generator, table);
        let rack = game.rack(seat);
        if let Some(v) = value.filter(|_| rack.len() == rules.rack_size && !game.bag().is_empty()) {
            census.add(rack, v);
        }
        game.play(builtin_graph(variant), seat, &mv, Timestamp(0)).expect("generated moves are legal");
    }
}

/// Tile kinds of `rules`' set: the blank first, then each letter; with how many the set holds.
pub(crate) fn kinds(rules: &Rules) -> Vec<(RackTile, u32)> {
    std::iter::once((RackTile::Blank, u32::from(rules.blanks)))
        .chain(rules.alphabet().map(|l| (RackTile::Letter(l), u32::from(rules.letters[l.index()].count))))
        .collect()
}

/// `n` choose `k`.
fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// One leave's weighted sums.
#[derive(Debug, Clone, Copy, Default)]
struct LeaveSums {
    /// Σ weight × value (thousandths).
    value: f64,
    /// Σ weight.
    weight: f64,
    /// Samples behind it.
    support: u64,
    leave: Option<Rack>,
}

/// The fitted table: (key, value in thousandths) sorted by key, for every leave of fewer tiles
/// than a rack with at least `min_support` samples (see the module's steps).
pub fn fit(rules: &Rules, census: &Census, shrink: f64, min_support: u32) -> Vec<(u64, i32)> {
    let kinds = kinds(rules);
    let heuristic = LeaveTable::heuristic(rules);
    let mut sums: HashMap<u64, LeaveSums> = HashMap::new();
    let (mut total, mut count) = (0f64, 0f64);
    // In key order, so that the float sums are the same on every run.
    let racks: BTreeMap<u64, &RackStats> = census.racks.iter().map(|(k, s)| (*k, s)).collect();
    for stats in racks.values() {
        total += stats.sum as f64;
        count += f64::from(stats.samples);
        let held: Vec<(usize, u32)> =
            kinds.iter().enumerate().map(|(i, &(t, _))| (i, stats.rack.count(t) as u32)).filter(|&(_, r)| r > 0).collect();
        // Every sub-multiset of the rack short of the whole: counts per held kind.
        let mut take = vec![0u32; held.len()];
        loop {
            let size: u32 = take.iter().sum();
            if (size as usize) < rules.rack_size {
                let mut weight = 1.0;
                let mut leave = Rack::new();
                for (&(k, r), &l) in held.iter().zip(&take) {
                    if l > 0 {
                        let n = kinds[k].1;
                        weight *= choose(n - l, r - l) / choose(n, r);
                        (0..l).for_each(|_| leave.add(kinds[k].0));
                    }
                }
                let e = sums.entry(key_of(&leave)).or_default();
                e.value += weight * stats.sum as f64;
                e.weight += weight * f64::from(stats.samples);
                e.support += u64::from(stats.samples);
                e.leave = Some(leave);
            }
            // The next combination, like an odometer.
            let mut i = 0;
            while i < held.len() && take[i] == held[i].1 {
                take[i] = 0;
                i += 1;
            }
            if i == held.len() {
                break;
            }
            take[i] += 1;
        }
    }
    let zero = if count > 0.0 { total / count } else { 0.0 };
    let mut table: Vec<(u64, i32)> = sums
        .into_iter()
        .filter(|(_, s)| s.support >= u64::from(min_support) && s.weight > 0.0)
        .map(|(key, s)| {
            let leave = s.leave.expect("set with the sums");
            let n = s.support as f64;
            let own = s.value / s.weight - zero;
            let prior = f64::from(heuristic.heuristic_value(&leave));
            (key, ((n * own + shrink * prior) / (n + shrink)).round() as i32)
        })
        .collect();
    table.sort_unstable_by_key(|e| e.0);
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rack(rules: &Rules, s: &str) -> Rack {
        Rack::from_tiles(s.chars().map(|c| if c == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(c).unwrap()) }))
    }

    fn value(table: &[(u64, i32)], leave: &Rack) -> Option<i32> {
        table.iter().find(|e| e.0 == key_of(leave)).map(|e| e.1)
    }

    #[test]
    fn a_leave_is_worth_what_the_racks_holding_it_are_worth_over_the_mean() {
        let rules = TileVariant::ScrabbleEn.rules();
        let mut census = Census::default();
        // Racks with an S are worth 30 points, the others 10: the mean of the samples is 20.
        for _ in 0..50 {
            census.add(&rack(rules, "ABCDEFS"), 30_000);
            census.add(&rack(rules, "ABCDEFG"), 10_000);
        }
        let table = fit(rules, &census, 0.0, 1);
        assert_eq!(value(&table, &Rack::new()), Some(0), "keeping nothing is the mean");
        assert_eq!(value(&table, &rack(rules, "S")), Some(10_000));
        assert_eq!(value(&table, &rack(rules, "G")), Some(-10_000));
        assert_eq!(value(&table, &rack(rules, "AS")), Some(10_000));
        assert_eq!(value(&table, &rack(rules, "A")), Some(0));
        assert_eq!(value(&table, &rack(rules, "ABCDEFS")), None, "a whole rack is no leave");
        assert_eq!(table.len(), 2 * 127 - 64, "every leave of each rack once");
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "sorted by key");
        // Thin leaves lean to the heuristic; too thin ones are left out.
        let heuristic = LeaveTable::heuristic(rules).heuristic_value(&rack(rules, "S"));
        let shrunk = value(&fit(rules, &census, 50.0, 1), &rack(rules, "S")).unwrap();
        assert_eq!(shrunk, (10_000 + heuristic) / 2);
        assert_eq!(fit(rules, &census, 0.0, 51).len(), 64, "only the leaves both racks hold");
    }

    #[test]
    fn a_duplicate_weighs_as_a_draw_to_the_leave_not_as_a_rack_from_the_bag() {
        let rules = TileVariant::ScrabbleEn.rules();
        let mut census = Census::default();
        // Keeping one E, a second E comes with 11 of the 97 other tiles, so a rack with two Es
        // is as likely as one with one E: C(11,1)/C(12,2) against 1/C(12,1), twice the weight a
        // rack from a full bag would give it.
        census.add(&rack(rules, "EEABCDF"), 0);
        census.add(&rack(rules, "EABCDFG"), 30_000);
        let table = fit(rules, &census, 0.0, 1);
        // Weights 1/6 and 1/12: E is worth (0·2 + 30·1)/3 = 10 points, less the mean of 15.
        assert_eq!(value(&table, &rack(rules, "E")), Some(-5_000));
        assert_eq!(value(&table, &rack(rules, "EE")), Some(-15_000));
    }

    #[test]
    fn the_census_is_the_same_on_any_thread_count() {
        let variant = TileVariant::ScrabbleEn;
        let table = LeaveTable::heuristic(variant.rules());
        let one = collect(variant, &table, 3, 5, 1, "test");
        let two = collect(variant, &table, 3, 5, 2, "test");
        assert!(one.samples() > 20, "{}", one.samples());
        assert_eq!(fit(variant.rules(), &one, 10.0, 1), fit(variant.rules(), &two, 10.0, 1));
    }
}
