//! Which full-rack plays (bingos) a rack could make at all, for the anchor bound: the words as
//! long as a full rack and one letter longer, each kept as a key of its letters in any order.
//! Only windows where such a word could lie get the bingo bonus in the bound, so racks without
//! one (and anchors whose one board tile fits none) are pruned as if no bingo existed.
//!
//! A key is the sum of a fixed pseudo-random number per letter (a multiset hash). Two different
//! multisets sharing a key would only make a bingo look possible where it is not: a weaker bound,
//! never a wrong one.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use wordgraph::Graph;

use crate::counts::Counts;

/// The rack size the table serves: its words have this many letters, or one more.
pub(crate) const RACK: usize = 7;

/// Per-letter summands of a key, by tile code (fixed: the engine draws no entropy of its own).
const ZOBRIST: [u64; 64] = {
    let mut z = [0u64; 64];
    let mut state = 0x005E_EDB1_6060_u64;
    let mut i = 0;
    while i < 64 {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = state;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z[i] = x ^ (x >> 31);
        i += 1;
    }
    z
};

/// Keys are already well mixed: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The keys of every word of [`RACK`] or [`RACK`] + 1 letters in a graph.
#[derive(Debug, Clone, Default)]
pub(crate) struct BingoWords {
    keys: HashSet<u64, BuildHasherDefault<KeyHasher>>,
}

impl BingoWords {
    /// Walks the graph's word list (DAWG) to depth [`RACK`] + 1.
    pub(crate) fn new(graph: &Graph<'_>) -> BingoWords {
        let mut table = BingoWords::default();
        table.walk(graph, graph.dawg_root(), 0, 0);
        table
    }

    fn walk(&mut self, graph: &Graph<'_>, list: u32, depth: usize, key: u64) {
        for (_, node) in graph.siblings(list) {
            let key = key.wrapping_add(ZOBRIST[usize::from(node.tile())]);
            if node.accepts() && depth + 1 >= RACK {
                self.keys.insert(key);
            }
            if depth < RACK && node.arc() != 0 {
                self.walk(graph, node.arc(), depth + 1, key);
            }
        }
    }

    fn has(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }
}

/// What a full rack could form with all its tiles: a word of the rack alone, and a word through
/// one board tile, by that tile's letter; and with blanks on the rack, the letters a blank may
/// stand for in such a word.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BingoChances {
    /// Some word uses exactly the rack's tiles.
    pub(crate) alone: bool,
    /// Bit `code - 1`: some word uses the rack's tiles and one board tile of that code.
    pub(crate) through: u64,
    /// The letters (bit `code - 1`) a blank stands for in some word of the rack alone.
    alone_fills: u64,
    /// By the board tile's code: the letters a blank stands for in some word of the rack and
    /// that tile.
    through_fills: [u64; 64],
}

impl BingoChances {
    /// Every chance open: the bound then assumes a bingo wherever one would fit.
    pub(crate) const ANY: BingoChances =
        BingoChances { alone: true, through: u64::MAX, alone_fills: u64::MAX, through_fills: [u64::MAX; 64] };

    /// The chances of a full rack (`counts`, index 0 = blanks) over an alphabet of `letters`
    /// codes. With two blanks only the words of the rack alone are looked up (each pair of
    /// letters once); with more, or through a board tile, every chance is left open.
    pub(crate) fn of(table: &BingoWords, counts: &Counts, letters: u8) -> BingoChances {
        let base = (1..64).fold(0u64, |k, c| k.wrapping_add(ZOBRIST[c].wrapping_mul(u64::from(counts[c]))));
        let codes = 1..=usize::from(letters);
        match counts[0] {
            0 => {
                let through = codes.clone().filter(|&l| table.has(base.wrapping_add(ZOBRIST[l]))).fold(0, |m, l| m | 1 << (l - 1));
                BingoChances { alone: table.has(base), through, ..BingoChances::ANY }
            }
            1 => {
                let fills =
                    |key: u64| codes.clone().filter(|&f| table.has(key.wrapping_add(ZOBRIST[f]))).fold(0u64, |m, f| m | 1 << (f - 1));
                let mut chances = BingoChances { alone_fills: fills(base), through: 0, ..BingoChances::ANY };
                chances.alone = chances.alone_fills != 0;
                for l in codes.clone() {
                    let f = fills(base.wrapping_add(ZOBRIST[l]));
                    chances.through_fills[l] = f;
                    if f != 0 {
                        chances.through |= 1 << (l - 1);
                    }
                }
                chances
            }
            2 => {
                let mut alone_fills = 0u64;
                for f in codes.clone() {
                    let key = base.wrapping_add(ZOBRIST[f]);
                    let pairs = (f..=usize::from(letters)).filter(|&g| table.has(key.wrapping_add(ZOBRIST[g])));
                    alone_fills = pairs.fold(alone_fills, |m, g| m | 1 << (f - 1) | 1 << (g - 1));
                }
                BingoChances { alone: alone_fills != 0, alone_fills, ..BingoChances::ANY }
            }
            _ => BingoChances::ANY,
        }
    }

    /// Whether a full-rack play could lie in a window holding `board_tiles` board tiles, the
    /// nearest of which has code `code`.
    pub(crate) fn open(&self, board_tiles: usize, code: u8) -> bool {
        match board_tiles {
            0 => self.alone,
            1 => self.through & (1u64 << (code - 1)) != 0,
            _ => true,
        }
    }

    /// The letters (bit `code - 1`) a blank may stand for in a full-rack play lying in a window
    /// as for [`BingoChances::open`].
    pub(crate) fn fills(&self, board_tiles: usize, code: u8) -> u64 {
        match board_tiles {
            0 => self.alone_fills,
            1 => self.through_fills[usize::from(code)],
            _ => u64::MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::tile_code;
    use crate::lexicon::builtin_graph;
    use crate::variant::TileVariant;

    fn counts(rules: &crate::variant::Rules, rack: &str) -> Counts {
        let mut c: Counts = [0; 64];
        for ch in rack.chars() {
            match ch {
                '?' => c[0] += 1,
                ch => c[usize::from(tile_code(rules.letter(ch).unwrap()))] += 1,
            }
        }
        c
    }

    #[test]
    fn a_rack_finds_its_anagrams_and_the_letters_that_complete_one() {
        let variant = TileVariant::ScrabbleEn;
        let rules = variant.rules();
        let table = BingoWords::new(builtin_graph(variant).graph());
        let letters = rules.alphabet().count() as u8;
        let code = |ch| tile_code(rules.letter(ch).unwrap());
        // RETAINS (and its anagrams) is a word; RETAINS + D gives e.g. STRAINED.
        let c = BingoChances::of(&table, &counts(rules, "AEINRST"), letters);
        assert!(c.alone);
        assert!(c.open(1, code('D')));
        assert!(c.open(2, code('Q')), "two board tiles always leave the chance open");
        // No seven- or eight-letter word holds seven Zs, Qs and Xs.
        let c = BingoChances::of(&table, &counts(rules, "QQXXZZZ"), letters);
        assert!(!c.alone);
        assert_eq!(c.through, 0);
        // A blank stands for the missing letter: AEINRS? has RETAINS (T), but never for Q.
        let c = BingoChances::of(&table, &counts(rules, "AEINRS?"), letters);
        assert!(c.alone);
        let t = 1u64 << (code('T') - 1);
        assert_eq!(c.fills(0, 0) & t, t);
        assert_eq!(c.fills(0, 0) & 1 << (code('Q') - 1), 0);
        // Through a board D some letter fills it (STRAINED, the blank a T).
        assert_ne!(c.fills(1, code('D')), 0);
        // With two blanks, each pair is looked up for the rack alone.
        let c = BingoChances::of(&table, &counts(rules, "AEINR??"), letters);
        assert!(c.alone && c.fills(0, 0) & t != 0 && c.fills(1, code('D')) == u64::MAX);
        // Two blanks leave every chance through a board tile open.
        let c = BingoChances::of(&table, &counts(rules, "QXZZZ??"), letters);
        assert!(!c.alone && c.through == u64::MAX);
    }

    #[test]
    fn the_table_holds_exactly_the_seven_and_eight_letter_words() {
        let variant = TileVariant::ScrabbleEn;
        let graph = builtin_graph(variant).graph();
        let table = BingoWords::new(graph);
        let mut expected: HashSet<u64> = HashSet::new();
        for word in graph.words() {
            if word.len() == RACK || word.len() == RACK + 1 {
                expected.insert(word.iter().fold(0u64, |k, &c| k.wrapping_add(ZOBRIST[usize::from(c)])));
            }
        }
        assert_eq!(table.keys.len(), expected.len());
        assert!(expected.iter().all(|k| table.has(*k)));
    }
}
