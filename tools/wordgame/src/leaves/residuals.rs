//! Whole-leave values fitted as residuals over the heuristic: the Russian alphabets' tables
//! (`wordgame data leaves`, the target [`next_equity`]) and the lab's experiments (other targets).
//!
//! Samples: in games between two static-equity players, each play made with tiles in the bag
//! records the leave kept and a target for it, read from the seat's turns ([`LeaveTarget`]).
//!
//! The fit is of residuals over the heuristic, so that fitted leaves and the leaves the table
//! does not hold (which keep their heuristic value) are on one scale:
//!
//! 1. a feature model of `target − heuristic` by least squares: an intercept, the leave's size,
//!    each tile's count and extra copies, the vowel/consonant difference;
//! 2. each leave's own mean residual over that model, shrunk toward 0 by `shrink`
//!    pseudo-samples (common leaves keep most of theirs, rare ones little);
//! 3. a leave's value = heuristic + model + own residual, less the constant that makes the
//!    fitted values agree with the heuristic on average over the samples (the baseline
//!    alignment: without it a fitted leave and an unfitted one differ by the fit's zero point);
//! 4. the table holds every leave seen and every leave of up to `all_up_to` tiles (unseen ones
//!    valued by the model): the model's corrections per tile are large, and a leave left to the
//!    heuristic would carry the heuristic's error against a fitted one.

use std::collections::BTreeMap;

use engine::leave::key_of;
use engine::{Game, GeneratedPlay, LeaveTable, Rack, RackTile, Rules, TileVariant};

use crate::ladder::progress;
use crate::selfplay::{StaticStrategy, play_game};

/// One turn of a seat in a self-play game, as a target reads it.
#[derive(Debug, Clone, Copy)]
pub struct SeatTurn {
    /// The leave kept, by a play made with tiles in the bag (`None` otherwise: no sample).
    pub leave: Option<Rack>,
    /// The turn's score (0 for a pass or an exchange).
    pub score: i32,
    /// Its equity in points: the score plus the kept leave's value under the table playing, the
    /// score alone with the bag empty.
    pub equity: f64,
    /// The seat's spread (its score less the other's) after the turn.
    pub spread: i32,
}

/// What a leave is fitted to, in points: read from the seat's turns from the one that kept it
/// on (that turn first) and the seat's final spread.
pub type LeaveTarget = Box<dyn Fn(&[SeatTurn], i32) -> f64>;

/// The seat's next equity: its next score plus the value of the leave that play keeps (0 when
/// it has no next turn). The shipped Russian tables' target.
pub fn next_equity(turns: &[SeatTurn], _final_spread: i32) -> f64 {
    turns.get(1).map_or(0.0, |t| t.equity)
}

/// One leave's samples.
#[derive(Debug, Clone)]
pub struct LeaveStats {
    leave: Rack,
    /// Its heuristic value, thousandths.
    heuristic: i32,
    samples: u32,
    /// Sum of the targets, points.
    sum: f64,
}

/// Samples by leave key (ordered, so that sums and the table are the same on every run).
pub type Samples = BTreeMap<u64, LeaveStats>;

/// Adds one sample of `target` points for keeping `leave`.
pub fn add_sample(samples: &mut Samples, heuristic: &LeaveTable, leave: &Rack, target: f64) {
    let e = samples.entry(key_of(leave)).or_insert_with(|| LeaveStats {
        leave: *leave,
        heuristic: heuristic.heuristic_value(leave),
        samples: 0,
        sum: 0.0,
    });
    e.samples += 1;
    e.sum += target;
}

/// Samples of `target` from `games` games (seeds from `seed`) between two players of `playing`.
pub fn collect(variant: TileVariant, playing: &LeaveTable, games: u64, seed: u64, target: &LeaveTarget, label: &str) -> Samples {
    let heuristic = LeaveTable::heuristic(variant.rules());
    let mut samples = Samples::new();
    let robot = StaticStrategy::Equity(playing);
    for g in 0..games {
        let mut turns: [Vec<SeatTurn>; 2] = [Vec::new(), Vec::new()];
        let end = play_game(variant, seed + g, [robot, robot], |game: &Game, play: Option<&GeneratedPlay>| {
            let s = game.to_move().index();
            let rack = *game.rack(game.to_move());
            let bag = !game.bag().is_empty();
            let score = play.map_or(0, |p| p.score);
            turns[s].push(SeatTurn {
                leave: play.filter(|_| bag).map(|p| p.leave(&rack)),
                score,
                equity: play.map_or(0.0, |p| if bag { f64::from(p.equity) / 1000.0 } else { f64::from(p.score) }),
                spread: game.scores()[s] + score - game.scores()[1 - s],
            });
        });
        let finals = end.scores();
        for (s, turns) in turns.iter().enumerate() {
            for (i, turn) in turns.iter().enumerate() {
                if let Some(leave) = &turn.leave {
                    add_sample(&mut samples, &heuristic, leave, target(&turns[i..], finals[s] - finals[1 - s]));
                }
            }
        }
        progress(label, g + 1, games);
    }
    eprintln!();
    samples
}

/// Vowels per alphabet (upper case), for the balance feature.
const VOWELS: &str = "AEIOUАЕЁИОУЫЭЮЯ";

/// The feature model's inputs for `rules`' variant.
struct Features {
    /// Tile kinds: blank, then each letter.
    kinds: usize,
    /// Whether each kind is a vowel.
    vowel: Vec<bool>,
}

impl Features {
    fn new(rules: &Rules) -> Features {
        let vowel = std::iter::once(false).chain(rules.alphabet().map(|l| VOWELS.contains(rules.char_of(l)))).collect::<Vec<_>>();
        Features { kinds: vowel.len(), vowel }
    }

    /// Intercept, sizes 1..=6, per kind its count and extra copies, vowels − consonants −6..=6.
    fn len(&self) -> usize {
        1 + 6 + 2 * self.kinds + 13
    }

    /// The leave's nonzero features as (index, value).
    fn of(&self, leave: &Rack) -> Vec<(usize, f64)> {
        let mut counts = vec![0u32; self.kinds];
        for t in leave.tiles() {
            counts[match t {
                RackTile::Blank => 0,
                RackTile::Letter(l) => 1 + l.index(),
            }] += 1;
        }
        let mut x = vec![(0, 1.0)];
        if (1..=6).contains(&leave.len()) {
            x.push((leave.len(), 1.0));
        }
        let mut balance = 0i32;
        for (k, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
            x.push((7 + k, f64::from(n)));
            if n > 1 {
                x.push((7 + self.kinds + k, f64::from(n - 1)));
            }
            if k > 0 {
                balance += if self.vowel[k] { n as i32 } else { -(n as i32) };
            }
        }
        x.push((7 + 2 * self.kinds + (balance.clamp(-6, 6) + 6) as usize, 1.0));
        x
    }
}

/// The fitted table: (key, value in thousandths) sorted by key, for every leave with at least
/// `min_samples` samples and every leave of at most `all_up_to` tiles the tile set allows (see
/// the module's steps; an unseen leave gets the model alone).
pub fn fit(rules: &Rules, samples: &Samples, shrink: f64, min_samples: u32, all_up_to: usize) -> Vec<(u64, i32)> {
    let features = Features::new(rules);
    let d = features.len();
    // Normal equations of the residual y = target − heuristic (points), one row per leave
    // weighted by its samples.
    let mut xtx = vec![vec![0f64; d]; d];
    let mut xty = vec![0f64; d];
    for s in samples.values() {
        let n = f64::from(s.samples);
        let y = s.sum - n * f64::from(s.heuristic) / 1000.0;
        let x = features.of(&s.leave);
        for &(i, a) in &x {
            xty[i] += a * y;
            for &(j, b) in &x {
                xtx[i][j] += n * a * b;
            }
        }
    }
    // A light ridge: collinear or unseen features get 0, not noise.
    for (i, row) in xtx.iter_mut().enumerate().skip(1) {
        row[i] += 1.0;
    }
    let w = solve(xtx, xty);
    // A leave's correction over the heuristic: the model (without its intercept, the fit's zero
    // point) plus its own residual, shrunk.
    let model = |leave: &Rack| features.of(leave).iter().map(|&(i, a)| a * w[i]).sum::<f64>() - w[0];
    let correction = |s: &LeaveStats| {
        let n = f64::from(s.samples);
        let m = model(&s.leave);
        m + (s.sum - n * f64::from(s.heuristic) / 1000.0 - n * (m + w[0])) / (n + shrink)
    };
    // The baseline: the sample-weighted mean correction is 0.
    let total: f64 = samples.values().map(|s| f64::from(s.samples)).sum();
    let offset = samples.values().map(|s| f64::from(s.samples) * correction(s)).sum::<f64>() / total.max(1.0);
    let value = |h: i32, c: f64| (f64::from(h) + 1000.0 * (c - offset)).round() as i32;
    let mut table: BTreeMap<u64, i32> =
        samples.iter().filter(|(_, s)| s.samples >= min_samples).map(|(&k, s)| (k, value(s.heuristic, correction(s)))).collect();
    let heuristic = LeaveTable::heuristic(rules);
    for leave in all_leaves(rules, all_up_to) {
        let key = key_of(&leave);
        if !samples.contains_key(&key) {
            table.insert(key, value(heuristic.heuristic_value(&leave), model(&leave)));
        }
    }
    table.into_iter().collect()
}

/// Every leave of at most `max` tiles the variant's tile set allows.
fn all_leaves(rules: &Rules, max: usize) -> Vec<Rack> {
    let kinds: Vec<(RackTile, usize)> = super::census::kinds(rules).into_iter().map(|(t, n)| (t, n as usize)).collect();
    // Per kind in turn, each number of its tiles that still fits.
    fn extend(kinds: &[(RackTile, usize)], room: usize, leave: &mut Vec<RackTile>, out: &mut Vec<Rack>) {
        let Some((&(tile, count), rest)) = kinds.split_first() else {
            out.push(Rack::from_tiles(leave.iter().copied()));
            return;
        };
        for n in 0..=count.min(room) {
            leave.extend(std::iter::repeat_n(tile, n));
            extend(rest, room - n, leave, out);
            leave.truncate(leave.len() - n);
        }
    }
    let mut out = Vec::new();
    extend(&kinds, max, &mut Vec::new(), &mut out);
    out
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` square, nonsingular).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).expect("rows left");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (row, r) in below.iter_mut().enumerate() {
            let f = r[col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[col + 1 + row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0f64; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rack(rules: &Rules, s: &str) -> Rack {
        Rack::from_tiles(s.chars().map(|c| if c == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(c).unwrap()) }))
    }

    #[test]
    fn targets_that_are_the_heuristic_plus_a_constant_fit_the_heuristic() {
        // The fit's zero point is not the heuristic's: every target is 17 points above the
        // heuristic value. Aligned, each fitted value is the heuristic one, so fitted and
        // unfitted leaves compare as before.
        let rules = TileVariant::Erudit.rules();
        let heuristic = LeaveTable::heuristic(rules);
        let mut samples = Samples::new();
        let leaves = ["", "А", "АБ", "ОО", "ФЫ", "?", "?ЕИ", "КОТ", "ШЩЭЮ", "АЕИОУЯ"];
        for (i, s) in leaves.iter().enumerate() {
            let leave = rack(rules, s);
            for _ in 0..(5 + 3 * i) {
                add_sample(&mut samples, &heuristic, &leave, 17.0 + f64::from(heuristic.heuristic_value(&leave)) / 1000.0);
            }
        }
        let table = fit(rules, &samples, 30.0, 1, 0);
        assert_eq!(table.len(), leaves.len());
        for s in leaves {
            let leave = rack(rules, s);
            let value = table.iter().find(|(k, _)| *k == key_of(&leave)).unwrap().1;
            assert!((value - heuristic.heuristic_value(&leave)).abs() <= 1, "{s}: {value}");
        }
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "sorted by key");
    }

    #[test]
    fn a_leave_better_than_the_heuristic_says_gains_and_the_mean_stays() {
        let rules = TileVariant::ScrabbleEn.rules();
        let heuristic = LeaveTable::heuristic(rules);
        let mut samples = Samples::new();
        let (good, plain) = (rack(rules, "QU"), rack(rules, "ER"));
        for _ in 0..200 {
            add_sample(&mut samples, &heuristic, &good, 30.0 + f64::from(heuristic.heuristic_value(&good)) / 1000.0);
            add_sample(&mut samples, &heuristic, &plain, 20.0 + f64::from(heuristic.heuristic_value(&plain)) / 1000.0);
        }
        let table = fit(rules, &samples, 30.0, 1, 0);
        let value = |r: &Rack| table.iter().find(|(k, _)| *k == key_of(r)).unwrap().1 - heuristic.heuristic_value(r);
        let (g, p) = (value(&good), value(&plain));
        assert!(g - p > 9_000 && g - p <= 10_000, "{g} {p}");
        assert!((g + p).abs() <= 1, "equal samples: the corrections average 0 ({g} {p})");
        // Fewer samples than asked: not in the table, which holds only the (unseen) empty leave.
        assert_eq!(fit(rules, &samples, 30.0, 201, 0).iter().map(|e| e.0).collect::<Vec<_>>(), vec![key_of(&Rack::default())]);
    }

    #[test]
    fn every_leave_up_to_a_size_once() {
        let rules = TileVariant::Erudit.rules();
        let leaves = all_leaves(rules, 2);
        // The empty leave, 33 kinds alone, and pairs: 33·32/2 of two kinds, plus one of each
        // kind with two tiles or more (Эрудит has one tile of 7 letters).
        assert_eq!(leaves.len(), 1 + 33 + 33 * 32 / 2 + 33 - 7);
        let keys: std::collections::BTreeSet<u64> = leaves.iter().map(key_of).collect();
        assert_eq!(keys.len(), leaves.len());
    }

    #[test]
    fn solve_solves() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![5.0, 10.0]);
        assert!((x[0] - 1.0).abs() < 1e-9 && (x[1] - 3.0).abs() < 1e-9, "{x:?}");
    }
}
