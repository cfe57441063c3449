//! Leave values: what the tiles kept after a play are worth, in thousandths of a point, so that
//! equity = score × 1000 + leave value.
//!
//! The table is a documented heuristic per variant (see docs/ARCHITECTURE.md, "Equity"): a value
//! per letter, a bonus for blanks, a penalty per duplicate, a vowel/consonant balance term, and
//! for English a Q-without-U penalty. `LeaveTable::with_tile_values` lets a refined per-letter
//! table (from self-play) replace the first term.

use crate::counts::Counts;
use crate::letter::Letter;
use crate::lexicon::tile_code;
use crate::rack::Rack;
use crate::tile::RackTile;
use crate::variant::{Rules, Variant};

/// Per-letter leave values for English, thousandths, in alphabet order A..Z: approximations of
/// the single-tile values that strong programs use (S and blanks good, Q, V, U, W, J bad).
const ENGLISH: [i32; 26] = [
    1_000, -2_000, 500, 500, 1_500, -2_000, -2_500, 1_000, -500, -3_000, -2_500, -500, 500, 0, -1_500, -500, -7_000, 1_000, 8_000, 0,
    -3_000, -5_500, -4_000, 3_500, -1_000, 2_000,
];

/// Vowels per alphabet (upper case).
const ENGLISH_VOWELS: &str = "AEIOU";
const RUSSIAN_VOWELS: &str = "АЕЁИОУЫЭЮЯ";

/// Leave values for one variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaveTable {
    /// Value of keeping one tile of each letter, by letter index.
    pub per_letter: Vec<i32>,
    /// Value of keeping a blank.
    pub blank: i32,
    /// Penalty for each extra copy of a letter kept.
    pub duplicate: i32,
    /// Penalty per unit of vowel/consonant imbalance beyond one.
    pub imbalance: i32,
    /// Letters that count as vowels, by letter index.
    vowels: u64,
    /// English: penalty for a Q kept without a U.
    q_without_u: Option<(Letter, Letter, i32)>,
}

impl LeaveTable {
    /// The heuristic table for `rules`' variant.
    pub fn heuristic(rules: &Rules) -> LeaveTable {
        let english = rules.variant == Variant::ScrabbleEn;
        let per_letter = rules.alphabet().map(|l| if english { ENGLISH[l.index()] } else { 1_500 - 700 * (rules.value(l) - 1) }).collect();
        let vowel_chars = if english { ENGLISH_VOWELS } else { RUSSIAN_VOWELS };
        let vowels = rules.alphabet().filter(|&l| vowel_chars.contains(rules.char_of(l))).fold(0u64, |m, l| m | (1 << l.index()));
        let q_without_u = match (english, rules.letter('Q'), rules.letter('U')) {
            (true, Some(q), Some(u)) => Some((q, u, -4_000)),
            _ => None,
        };
        LeaveTable { per_letter, blank: if english { 25_000 } else { 20_000 }, duplicate: -2_500, imbalance: -1_500, vowels, q_without_u }
    }

    /// The same table with other per-letter values (e.g. refined from self-play).
    pub fn with_tile_values(mut self, per_letter: Vec<i32>, blank: i32) -> LeaveTable {
        self.per_letter = per_letter;
        self.blank = blank;
        self
    }

    /// The value of keeping `leave`.
    pub fn value(&self, leave: &Rack) -> i32 {
        let mut counts: Counts = [0; 64];
        for t in leave.tiles() {
            match t {
                RackTile::Letter(l) => counts[usize::from(tile_code(l))] += 1,
                RackTile::Blank => counts[0] += 1,
            }
        }
        self.value_counts(&counts)
    }

    /// The value of keeping the tiles counted by tile code (index 0: blanks).
    pub(crate) fn value_counts(&self, counts: &Counts) -> i32 {
        let mut total = i32::from(counts[0]) * self.blank;
        let (mut vowels, mut consonants) = (0i32, 0i32);
        for (i, &v) in self.per_letter.iter().enumerate() {
            let n = i32::from(counts[i + 1]);
            if n == 0 {
                continue;
            }
            total += v * n + self.duplicate * (n - 1);
            if self.vowels & (1 << i) != 0 {
                vowels += n;
            } else {
                consonants += n;
            }
        }
        total += self.imbalance * ((vowels - consonants).abs() - 1).max(0);
        if let Some((q, u, penalty)) = self.q_without_u
            && counts[usize::from(tile_code(q))] > 0
            && counts[usize::from(tile_code(u))] == 0
        {
            total += penalty;
        }
        total
    }

    /// At least the value of any leave of `rack` (an upper bound for pruning): every tile's own
    /// value where positive; duplicates, balance and Q only ever subtract.
    pub fn best_leave(&self, rack: &Rack) -> i32 {
        rack.tiles().map(|t| self.tile_value(t)).filter(|&v| v > 0).sum()
    }

    /// The value of keeping one `tile` on its own.
    fn tile_value(&self, tile: RackTile) -> i32 {
        match tile {
            RackTile::Letter(l) => self.per_letter[l.index()],
            RackTile::Blank => self.blank,
        }
    }

    /// For each number of tiles kept, `0..=rack.len()`, at least the value of any leave of that
    /// size: the sum of the best that many positive tile values (see [`LeaveTable::best_leave`]).
    pub fn best_leaves(&self, rack: &Rack) -> Vec<i32> {
        let mut values: Vec<i32> = rack.tiles().map(|t| self.tile_value(t).max(0)).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        std::iter::once(0)
            .chain(values.iter().scan(0, |sum, v| {
                *sum += v;
                Some(*sum)
            }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_leaves_bound_every_leave_of_each_size() {
        let rules = Variant::ScrabbleEn.rules();
        let table = LeaveTable::heuristic(rules);
        let tile = |c: char| if c == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(c).unwrap()) };
        let rack = Rack::from_tiles("?SSQVEA".chars().map(tile));
        let bounds = table.best_leaves(&rack);
        // Best first: blank 25, S 8, S 8, E 1.5, A 1; Q and V count as 0.
        assert_eq!(bounds, vec![0, 25_000, 33_000, 41_000, 42_500, 43_500, 43_500, 43_500]);
        assert_eq!(*bounds.last().unwrap(), table.best_leave(&rack));
        for kept in crate::exchange::exchanges_all(&rack) {
            assert!(table.value(&kept) <= bounds[kept.len()], "{kept:?}");
        }
    }
}
