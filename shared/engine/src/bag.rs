//! The bag: a game's tiles, shuffled once from the game's seed, drawn and refilled
//! deterministically.
//!
//! The shuffle is our own Fisher–Yates over a ChaCha8 stream keyed by the seed, so the order of
//! tiles depends only on the seed and this code, never on a library's shuffle algorithm.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::tile::RackTile;
use crate::variant::Rules;

/// Domain tag mixed into the ChaCha key, so a game seed used elsewhere gives another stream.
const KEY_TAG: &[u8; 24] = b"wordgame/bag/chacha8/v1\0";

/// The tiles not yet drawn, in draw order, with the random stream that re-mixes exchanged tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bag {
    tiles: Vec<RackTile>,
    rng: ChaCha8Rng,
}

impl Bag {
    /// The variant's full tile set shuffled by `seed`.
    pub fn new(rules: &Rules, seed: u64) -> Bag {
        Bag::of_tiles(rules.full_set(), seed)
    }

    /// A bag holding exactly `tiles`, shuffled by `seed` (a position's unseen tiles).
    pub(crate) fn of_tiles(mut tiles: Vec<RackTile>, seed: u64) -> Bag {
        let mut bag = Bag::new_empty(seed);
        for i in (1..tiles.len()).rev() {
            let j = below(&mut bag.rng, i + 1);
            tiles.swap(i, j);
        }
        bag.tiles = tiles;
        bag
    }

    fn new_empty(seed: u64) -> Bag {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..].copy_from_slice(KEY_TAG);
        Bag { tiles: Vec::new(), rng: ChaCha8Rng::from_seed(key) }
    }

    /// Tiles left.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether no tile is left.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The tiles left, in the order they will be drawn.
    pub fn tiles(&self) -> impl Iterator<Item = RackTile> + '_ {
        self.tiles.iter().rev().copied()
    }

    /// Draws up to `n` tiles (fewer when the bag runs out).
    pub fn draw(&mut self, n: usize) -> impl Iterator<Item = RackTile> + '_ {
        let keep = self.tiles.len().saturating_sub(n);
        self.tiles.drain(keep..).rev()
    }

    /// Puts `tiles` back, each at a position chosen by the bag's own stream.
    ///
    /// An exchange draws its new tiles first and returns the old ones after, so a returned tile
    /// can never come straight back.
    pub fn put_back(&mut self, tiles: impl IntoIterator<Item = RackTile>) {
        for tile in tiles {
            self.tiles.push(tile);
            let last = self.tiles.len() - 1;
            let j = below(&mut self.rng, last + 1);
            self.tiles.swap(j, last);
        }
    }
}

/// A uniform integer in `0..n` (Lemire's method with rejection).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::TileVariant;

    #[test]
    fn the_same_seed_gives_the_same_order() {
        let rules = TileVariant::ScrabbleEn.rules();
        let a: Vec<_> = Bag::new(rules, 42).tiles().collect();
        let b: Vec<_> = Bag::new(rules, 42).tiles().collect();
        let c: Vec<_> = Bag::new(rules, 43).tiles().collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_shuffled_bag_holds_the_full_set() {
        for v in TileVariant::ALL {
            let rules = v.rules();
            let mut tiles: Vec<_> = Bag::new(rules, 7).tiles().collect();
            tiles.sort();
            assert_eq!(tiles, rules.full_set());
        }
    }

    #[test]
    fn drawing_takes_from_the_front_and_stops_when_empty() {
        let rules = TileVariant::ScrabbleEn.rules();
        let mut bag = Bag::new(rules, 1);
        let front: Vec<_> = bag.tiles().take(7).collect();
        assert_eq!(bag.draw(7).collect::<Vec<_>>(), front);
        assert_eq!(bag.len(), 93);
        assert_eq!(bag.draw(200).count(), 93);
        assert!(bag.is_empty());
    }

    #[test]
    fn put_back_is_deterministic_and_keeps_every_tile() {
        let rules = TileVariant::Erudit.rules();
        let mut a = Bag::new(rules, 9);
        let mut b = a.clone();
        let drawn: Vec<_> = a.draw(5).collect();
        let _ = b.draw(5).count();
        a.put_back(drawn.clone());
        b.put_back(drawn);
        assert_eq!(a, b);
        assert_eq!(a.len(), rules.tile_count());
    }
}
