//! Leave values: what the tiles kept after a play are worth, in thousandths of a point, so that
//! equity = score × 1000 + leave value.
//!
//! The table is a documented heuristic per variant (see docs/ARCHITECTURE.md, "Equity"): a value
//! per letter, a bonus for blanks, a penalty per duplicate, a vowel/consonant balance term, and
//! for English a Q-without-U penalty. `LeaveTable::with_tile_values` lets a refined per-letter
//! table (from self-play) replace the first term.
//!
//! Over it, [`SuperLeaves`]: values for whole leaves (multisets of kept tiles, as Quackle's and
//! macondo's "superleaves"), fitted from self-play by `wordgame data leaves` and compiled in from `data/leaves/<variant>.lv` (no I/O at cold start); a leave the table does not
//! hold keeps its heuristic value. A table is 12-byte entries in key order; the compiled-in
//! files are the same entries packed ([`pack`]: key deltas and values as varints, about half the
//! deflated size in a Lambda zip), unpacked once per process on first use. [`LeaveTable::standard`] is the heuristic with the variant's
//! fitted table, what hints and robots use.

use std::sync::OnceLock;

use crate::counts::tile_code;
use crate::counts::{Counts, counts_of};
use crate::letter::Letter;
use crate::rack::Rack;
use crate::tile::RackTile;
use crate::variant::{Rules, TileVariant};

/// Per-letter leave values for English, thousandths, in alphabet order A..Z: approximations of
/// the single-tile values that strong programs use (S and blanks good, Q, V, U, W, J bad).
const ENGLISH: [i32; 26] = [
    1_000, -2_000, 500, 500, 1_500, -2_000, -2_500, 1_000, -500, -3_000, -2_500, -500, 500, 0, -1_500, -500, -7_000, 1_000, 8_000, 0,
    -3_000, -5_500, -4_000, 3_500, -1_000, 2_000,
];

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
    /// Fitted whole-leave values, where the variant has them.
    superleaves: Option<SuperLeaves>,
}

/// The fitted whole-leave tables, by variant, packed ([`pack`]).
const SCRABBLE_EN_LEAVES: &[u8] = include_bytes!("../data/leaves/scrabble-en.lv");
const SCRABBLE_RU_LEAVES: &[u8] = include_bytes!("../data/leaves/scrabble-ru.lv");
const ERUDIT_LEAVES: &[u8] = include_bytes!("../data/leaves/erudit.lv");

/// The first bytes of a packed table.
pub const PACKED_MAGIC: &[u8; 4] = b"SLv1";

/// `table` (12-byte entries in key order) packed: [`PACKED_MAGIC`], the entry count, each key
/// less the one before, then each value zigzagged, all as LEB128 varints. `None` for bytes that
/// are no table.
pub fn pack(table: &[u8]) -> Option<Vec<u8>> {
    if table.is_empty() || !table.len().is_multiple_of(SUPERLEAVE_ENTRY) {
        return None;
    }
    let n = table.len() / SUPERLEAVE_ENTRY;
    let mut out = PACKED_MAGIC.to_vec();
    put_varint(&mut out, n as u64);
    let mut last = 0u64;
    for i in 0..n {
        let (key, _) = entry(table, i);
        put_varint(&mut out, key.checked_sub(last).filter(|&d| d > 0 || i == 0)?);
        last = key;
    }
    for i in 0..n {
        let (_, value) = entry(table, i);
        put_varint(&mut out, u64::from(((value << 1) ^ (value >> 31)) as u32));
    }
    Some(out)
}

/// The table [`pack`] packed, or `None` for bytes it did not write.
pub fn unpack(packed: &[u8]) -> Option<Vec<u8>> {
    let mut at = packed.strip_prefix(PACKED_MAGIC)?;
    let n = usize::try_from(take_varint(&mut at)?).ok()?;
    // Each entry takes at least two bytes packed: no count past that is believed.
    if n == 0 || n > at.len() / 2 {
        return None;
    }
    let mut keys = Vec::with_capacity(n);
    let mut key = 0u64;
    for _ in 0..n {
        key = key.checked_add(take_varint(&mut at)?)?;
        keys.push(key);
    }
    let mut table = Vec::with_capacity(n * SUPERLEAVE_ENTRY);
    for key in keys {
        let z = u32::try_from(take_varint(&mut at)?).ok()?;
        let value = (z >> 1) as i32 ^ -((z & 1) as i32);
        table.extend(key.to_le_bytes());
        table.extend(value.to_le_bytes());
    }
    at.is_empty().then_some(table)
}

fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn take_varint(at: &mut &[u8]) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = at.split_first()?;
        *at = rest;
        x |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(x);
        }
    }
    None
}

/// Bytes of one entry: the leave's key (u64) and its value in thousandths (i32), little-endian.
pub const SUPERLEAVE_ENTRY: usize = 12;

/// Buckets of the lookup index: a leave's size (0..=7) and its first two tile codes.
const BUCKETS: usize = 8 * 64 * 64;

/// The bucket of a key: its size and first two tile codes, in the keys' numeric order.
fn bucket(key: u64) -> usize {
    let len = (key.checked_ilog2().unwrap_or(0) / 6) as usize;
    let code = |i: usize| if len > i { (key >> (6 * (len - 1 - i))) as usize & 63 } else { 0 };
    (len.min(7) * 64 + code(0)) * 64 + code(1)
}

/// Whole-leave values: entries sorted by [`key_of`], each [`SUPERLEAVE_ENTRY`] bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuperLeaves {
    bytes: &'static [u8],
    /// Per bucket, the first entry at or past it (and the entry count at the end): a lookup
    /// searches one bucket. Built once per table, it lives as long as the table's bytes.
    index: &'static [u32],
}

impl SuperLeaves {
    /// The table in `bytes`, or `None` when it is empty or not whole entries in key order.
    pub fn from_bytes(bytes: &'static [u8]) -> Option<SuperLeaves> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(SUPERLEAVE_ENTRY) {
            return None;
        }
        let mut last = 0u64;
        let entries = bytes.len() / SUPERLEAVE_ENTRY;
        let mut index = vec![entries as u32; BUCKETS + 1];
        let mut next_bucket = 0;
        for i in 0..entries {
            let (key, _) = entry(bytes, i);
            if key <= last {
                return None;
            }
            last = key;
            let b = bucket(key);
            while next_bucket <= b {
                index[next_bucket] = i as u32;
                next_bucket += 1;
            }
        }
        Some(SuperLeaves { bytes, index: Vec::leak(index) })
    }

    /// The table in `bytes`, whole entries or packed ([`pack`]), kept for the process's life.
    pub fn read(bytes: Vec<u8>) -> Option<SuperLeaves> {
        let bytes = if bytes.starts_with(PACKED_MAGIC) { unpack(&bytes)? } else { bytes };
        SuperLeaves::from_bytes(Vec::leak(bytes))
    }

    /// Leaves held.
    pub fn len(&self) -> usize {
        self.bytes.len() / SUPERLEAVE_ENTRY
    }

    /// Whether it holds no leave (never, once built).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The value of the leave with `key`, if held.
    fn get(&self, key: u64) -> Option<i32> {
        let b = bucket(key);
        let (mut lo, mut hi) = (self.index[b] as usize, self.index[b + 1] as usize);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (k, v) = entry(self.bytes, mid);
            match k.cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(v),
            }
        }
        None
    }
}

fn entry(bytes: &[u8], i: usize) -> (u64, i32) {
    let at = i * SUPERLEAVE_ENTRY;
    let key = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let value = i32::from_le_bytes(bytes[at + 8..at + 12].try_into().expect("4 bytes"));
    (key, value)
}

/// The [`SuperLeaves`] key of keeping `leave`: how a whole-leave table is written.
pub fn key_of(leave: &Rack) -> u64 {
    leave_key(&counts_of(leave))
}

/// The key of a leave counted by tile code (index 0: blanks): a leading 1, then each tile's code
/// in ascending order, six bits each.
fn leave_key(counts: &Counts) -> u64 {
    let mut key = 1u64;
    for (code, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            key = key << 6 | code as u64;
        }
    }
    key
}

/// The values of every leave of one rack ([`LeaveTable::every_leave`]).
#[derive(Debug, Clone)]
pub(crate) struct LeaveValues {
    /// The rack's tile codes, ascending, and the step a copy of each kept adds to a leave's
    /// number.
    kinds: Vec<(usize, usize)>,
    /// By leave number, its value.
    values: Vec<i32>,
    /// By number of tiles kept, the best value of a leave of at most that many.
    best: Vec<i32>,
}

impl LeaveValues {
    /// The value of keeping the tiles counted by `leave` (a sub-multiset of the rack).
    #[inline]
    pub(crate) fn value(&self, leave: &Counts) -> i32 {
        self.values[self.kinds.iter().map(|&(code, step)| usize::from(leave[code]) * step).sum::<usize>()]
    }

    /// For each number of tiles kept, `0..=rack size`, the best value of a leave of at most
    /// that many.
    pub(crate) fn best_by_size(&self) -> &[i32] {
        &self.best
    }
}

impl LeaveTable {
    /// The heuristic table for `rules`' variant.
    pub fn heuristic(rules: &Rules) -> LeaveTable {
        let english = rules.variant == TileVariant::ScrabbleEn;
        let per_letter = rules.alphabet().map(|l| if english { ENGLISH[l.index()] } else { 1_500 - 700 * (rules.value(l) - 1) }).collect();
        let vowels = rules.alphabet().filter(|&l| rules.is_vowel(l)).fold(0u64, |m, l| m | (1 << l.index()));
        let q_without_u = match (english, rules.letter('Q'), rules.letter('U')) {
            (true, Some(q), Some(u)) => Some((q, u, -4_000)),
            _ => None,
        };
        LeaveTable {
            per_letter,
            blank: if english { 25_000 } else { 20_000 },
            duplicate: -2_500,
            imbalance: -1_500,
            vowels,
            q_without_u,
            superleaves: None,
        }
    }

    /// The heuristic table with the variant's fitted whole-leave values, where it has them:
    /// what hints and robots use.
    pub fn standard(rules: &Rules) -> LeaveTable {
        // Each compiled-in table is checked and indexed once per process, not per robot or hint.
        static TABLES: [OnceLock<Option<SuperLeaves>>; 3] = [const { OnceLock::new() }; 3];
        let (slot, bytes) = match rules.variant {
            TileVariant::ScrabbleEn => (0, SCRABBLE_EN_LEAVES),
            TileVariant::ScrabbleRu => (1, SCRABBLE_RU_LEAVES),
            TileVariant::Erudit => (2, ERUDIT_LEAVES),
        };
        LeaveTable::heuristic(rules)
            .with_superleaves(*TABLES[slot].get_or_init(|| unpack(bytes).and_then(|t| SuperLeaves::from_bytes(Vec::leak(t)))))
    }

    /// The same table over other whole-leave values (or none).
    pub fn with_superleaves(mut self, superleaves: Option<SuperLeaves>) -> LeaveTable {
        self.superleaves = superleaves;
        self
    }

    /// The fitted whole-leave values, if any.
    pub fn superleaves(&self) -> Option<&SuperLeaves> {
        self.superleaves.as_ref()
    }

    /// The same table with other per-letter values (e.g. refined from self-play).
    pub fn with_tile_values(mut self, per_letter: Vec<i32>, blank: i32) -> LeaveTable {
        self.per_letter = per_letter;
        self.blank = blank;
        self
    }

    /// The value of keeping `leave`.
    pub fn value(&self, leave: &Rack) -> i32 {
        self.value_counts(&counts_of(leave))
    }

    /// The best `n` exchanges of `rack` that a bag of `bag` tiles allows, best first, each with
    /// the value of the leave it keeps (its equity in thousandths: an exchange scores nothing);
    /// among equal values the smaller exchange first.
    pub fn best_exchanges(&self, rules: &Rules, rack: &Rack, bag: usize, n: usize) -> Vec<(Rack, i32)> {
        let mut all: Vec<(Rack, i32)> = crate::exchange::exchanges(rules, rack, bag)
            .into_iter()
            .filter_map(|out| Some((out, self.value(&rack.minus(&out)?))))
            .collect();
        all.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        all.truncate(n);
        all
    }

    /// The heuristic value of keeping `leave`, whatever the fitted table holds.
    pub fn heuristic_value(&self, leave: &Rack) -> i32 {
        self.heuristic_counts(&counts_of(leave))
    }

    /// The value of keeping the tiles counted by tile code (index 0: blanks).
    pub(crate) fn value_counts(&self, counts: &Counts) -> i32 {
        if let Some(v) = self.superleaves.as_ref().and_then(|t| t.get(leave_key(counts))) {
            return v;
        }
        self.heuristic_counts(counts)
    }

    /// The value of every leave of the rack `rack` (by tile code, index 0: blanks), each looked
    /// up once: by leave number, counting how many of each of the rack's tile codes it keeps, the
    /// codes ascending with steps `kinds` (code, step) as [`LeaveValues`] gives them.
    pub(crate) fn every_leave(&self, rack: &Counts) -> LeaveValues {
        let mut kinds = Vec::new();
        let mut size = 1;
        for (code, &n) in rack.iter().enumerate().filter(|(_, n)| **n > 0) {
            kinds.push((code, size));
            size *= usize::from(n) + 1;
        }
        let mut values = Vec::with_capacity(size);
        let mut best = vec![i32::MIN; rack.iter().map(|&n| usize::from(n)).sum::<usize>() + 1];
        let (mut kept, mut counts, mut len): (Counts, Counts, usize) = ([0; 64], [0; 64], 0);
        for _ in 0..size {
            let key = kinds.iter().fold(1u64, |key, &(code, _)| (0..kept[code]).fold(key, |k, _| k << 6 | code as u64));
            let value = match self.superleaves.as_ref().and_then(|t| t.get(key)) {
                Some(v) => v,
                None => self.heuristic_counts(&counts),
            };
            values.push(value);
            best[len] = best[len].max(value);
            // The next leave: the first code not yet kept in full gains a copy, the ones
            // before it start again from none.
            for &(code, _) in &kinds {
                if kept[code] < rack[code] {
                    kept[code] += 1;
                    counts[code] += 1;
                    len += 1;
                    break;
                }
                counts[code] -= kept[code];
                len -= usize::from(kept[code]);
                kept[code] = 0;
            }
        }
        let mut running = i32::MIN;
        for b in &mut best {
            running = running.max(*b);
            *b = running;
        }
        LeaveValues { kinds, values, best }
    }

    fn heuristic_counts(&self, counts: &Counts) -> i32 {
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
        *self.best_leaves(rack).last().expect("the empty leave")
    }

    /// The value of keeping one `tile` on its own.
    fn tile_value(&self, tile: RackTile) -> i32 {
        match tile {
            RackTile::Letter(l) => self.per_letter[l.index()],
            RackTile::Blank => self.blank,
        }
    }

    /// For each number of tiles kept, `0..=rack.len()`, at least the value of any leave of that
    /// size: the sum of the best that many positive tile values (see [`LeaveTable::best_leave`]),
    /// or with fitted whole leaves the best leave of the rack of at most that size.
    pub fn best_leaves(&self, rack: &Rack) -> Vec<i32> {
        let mut values: Vec<i32> = rack.tiles().map(|t| self.tile_value(t).max(0)).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        let heuristic = std::iter::once(0).chain(values.iter().scan(0, |sum, v| {
            *sum += v;
            Some(*sum)
        }));
        if self.superleaves.is_none() {
            return heuristic.collect();
        }
        // A fitted value may beat the heuristic's bound: the best value of each size over the
        // rack's own sub-multisets (at most 2^7), kept non-decreasing.
        let mut by_len = vec![i32::MIN; rack.len() + 1];
        by_len[0] = self.value(&Rack::new());
        for kept in crate::exchange::exchanges_all(rack) {
            by_len[kept.len()] = by_len[kept.len()].max(self.value(&kept));
        }
        let mut best = i32::MIN;
        by_len
            .into_iter()
            .map(|v| {
                best = best.max(v);
                best
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fitted_leave_replaces_the_heuristic_and_raises_the_bounds() {
        let rules = TileVariant::Erudit.rules();
        let tile = |c: char| RackTile::Letter(rules.letter(c).unwrap());
        let ab = Rack::from_tiles("АБ".chars().map(tile));
        let a = Rack::from_tiles("А".chars().map(tile));
        let mut bytes = Vec::new();
        let mut entries = [(key_of(&a), -1_234i32), (key_of(&ab), 90_000)];
        entries.sort();
        for (k, v) in entries {
            bytes.extend(k.to_le_bytes());
            bytes.extend(v.to_le_bytes());
        }
        let table = SuperLeaves::from_bytes(Box::leak(bytes.into_boxed_slice())).unwrap();
        assert_eq!(table.len(), 2);
        let leaves = LeaveTable::heuristic(rules).with_superleaves(Some(table));
        assert_eq!((leaves.value(&a), leaves.value(&ab)), (-1_234, 90_000));
        let b = Rack::from_tiles("Б".chars().map(tile));
        assert_eq!(leaves.value(&b), leaves.heuristic_value(&b), "a leave not held keeps its heuristic value");
        let rack = Rack::from_tiles("АБВ".chars().map(tile));
        let bounds = leaves.best_leaves(&rack);
        assert!(bounds[2] >= 90_000 && bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
        for kept in crate::exchange::exchanges_all(&rack) {
            assert!(leaves.value(&kept) <= bounds[kept.len()], "{kept:?}");
        }
        // Out of order or ragged bytes are no table.
        assert_eq!(SuperLeaves::from_bytes(&[0u8; 13]), None);
        assert_eq!(SuperLeaves::from_bytes(&[]), None);
    }

    #[test]
    fn a_table_packs_and_unpacks_to_itself_and_damage_is_no_table() {
        let mut table = Vec::new();
        for (key, value) in [(1u64 << 6 | 3, -34_173i32), (1 << 12 | 3 << 6 | 9, 0), (u64::MAX >> 1, i32::MAX), (u64::MAX, i32::MIN)] {
            table.extend(key.to_le_bytes());
            table.extend(value.to_le_bytes());
        }
        let packed = pack(&table).unwrap();
        assert_eq!(unpack(&packed).unwrap(), table);
        assert_eq!(SuperLeaves::read(packed.clone()).unwrap().len(), 4);
        assert_eq!(SuperLeaves::read(table.clone()).unwrap().len(), 4, "whole entries read as they are");
        assert_eq!(unpack(&packed[..packed.len() - 1]), None, "cut short");
        assert_eq!(unpack(&[packed.as_slice(), &[0]].concat()), None, "trailing bytes");
        assert_eq!(unpack(&table), None, "no magic");
        let mut unordered = table[12..24].to_vec();
        unordered.extend(&table[..12]);
        assert_eq!(pack(&unordered), None, "keys out of order");
        assert_eq!(pack(&table[..13]), None);
    }

    #[test]
    fn the_compiled_tables_find_every_entry_through_their_index_and_nothing_else() {
        for (variant, packed) in [
            (TileVariant::ScrabbleEn, SCRABBLE_EN_LEAVES),
            (TileVariant::ScrabbleRu, SCRABBLE_RU_LEAVES),
            (TileVariant::Erudit, ERUDIT_LEAVES),
        ] {
            let bytes = &unpack(packed).expect("a packed table")[..];
            assert_eq!(pack(bytes).as_deref(), Some(packed), "{variant}: packing is the inverse, byte for byte");
            let table = *LeaveTable::standard(variant.rules()).superleaves().expect("a fitted table");
            assert_eq!(table.len(), bytes.len() / SUPERLEAVE_ENTRY);
            for i in 0..table.len() {
                let (key, value) = entry(bytes, i);
                assert_eq!(table.get(key), Some(value), "{variant}: entry {i}");
                // The key just past it is another entry or none (a linear search agrees).
                let next = (i + 1 < table.len()).then(|| entry(bytes, i + 1)).filter(|&(k, _)| k == key + 1).map(|e| e.1);
                assert_eq!(table.get(key + 1), next, "{variant}: past entry {i}");
            }
            assert_eq!(table.get(0), None);
        }
    }

    #[test]
    fn every_leave_of_a_rack_is_valued_as_on_its_own() {
        for variant in [TileVariant::ScrabbleEn, TileVariant::ScrabbleRu] {
            let rules = variant.rules();
            let tile = |c: char| if c == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(c).unwrap()) };
            let racks = if variant == TileVariant::ScrabbleEn {
                ["?SSQVEA", "EEEIRST", "??AB"]
            } else {
                ["?ААБВГД", "ОООКТЕЯ", "??ЖЪ"]
            };
            for table in [LeaveTable::heuristic(rules), LeaveTable::standard(rules)] {
                for text in racks {
                    let rack = Rack::from_tiles(text.chars().map(tile));
                    let values = table.every_leave(&counts_of(&rack));
                    let best = values.best_by_size();
                    assert_eq!(best.len(), rack.len() + 1);
                    assert_eq!(values.value(&[0; 64]), table.value(&Rack::new()));
                    for kept in crate::exchange::exchanges_all(&rack) {
                        assert_eq!(values.value(&counts_of(&kept)), table.value(&kept), "{variant} {text}: {kept:?}");
                        assert!(table.value(&kept) <= best[kept.len()], "{variant} {text}: {kept:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn best_leaves_bound_every_leave_of_each_size() {
        let rules = TileVariant::ScrabbleEn.rules();
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
