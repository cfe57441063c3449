//! A rack: a multiset of tiles held by one seat.

use crate::letter::{Letter, MAX_LETTERS};
use crate::tile::RackTile;

/// A multiset of rack tiles (lettered tiles by letter, plus blanks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rack {
    counts: [u8; MAX_LETTERS],
    blanks: u8,
    len: u8,
}

impl Default for Rack {
    fn default() -> Self {
        Rack::new()
    }
}

impl Rack {
    /// An empty rack.
    pub const fn new() -> Rack {
        Rack { counts: [0; MAX_LETTERS], blanks: 0, len: 0 }
    }

    /// A rack holding `tiles`.
    pub fn from_tiles(tiles: impl IntoIterator<Item = RackTile>) -> Rack {
        let mut rack = Rack::new();
        for t in tiles {
            rack.add(t);
        }
        rack
    }

    /// Number of tiles.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the rack holds no tile.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many of `tile` the rack holds.
    pub const fn count(&self, tile: RackTile) -> usize {
        match tile {
            RackTile::Letter(l) => self.counts[l.index()] as usize,
            RackTile::Blank => self.blanks as usize,
        }
    }

    /// How many blanks the rack holds.
    pub const fn blanks(&self) -> usize {
        self.blanks as usize
    }

    /// Adds one tile.
    pub fn add(&mut self, tile: RackTile) {
        match tile {
            RackTile::Letter(l) => self.counts[l.index()] += 1,
            RackTile::Blank => self.blanks += 1,
        }
        self.len += 1;
    }

    /// Removes one tile; returns `false` and changes nothing if the rack has none.
    pub fn remove(&mut self, tile: RackTile) -> bool {
        let slot = match tile {
            RackTile::Letter(l) => &mut self.counts[l.index()],
            RackTile::Blank => &mut self.blanks,
        };
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        self.len -= 1;
        true
    }

    /// Whether every tile of `other` (as a multiset) is on this rack.
    pub fn contains_all(&self, other: &Rack) -> bool {
        other.blanks <= self.blanks && self.counts.iter().zip(other.counts.iter()).all(|(a, b)| b <= a)
    }

    /// This rack less the multiset `other`, or `None` if `other` is not contained.
    pub fn minus(&self, other: &Rack) -> Option<Rack> {
        if !self.contains_all(other) {
            return None;
        }
        let mut out = *self;
        for (a, b) in out.counts.iter_mut().zip(other.counts.iter()) {
            *a -= b;
        }
        out.blanks -= other.blanks;
        out.len -= other.len;
        Some(out)
    }

    /// The tiles in alphabet order, blanks last.
    pub fn tiles(&self) -> impl Iterator<Item = RackTile> + '_ {
        let letters =
            self.counts.iter().enumerate().flat_map(|(i, &n)| std::iter::repeat_n(RackTile::Letter(Letter::new(i as u8)), n as usize));
        letters.chain(std::iter::repeat_n(RackTile::Blank, self.blanks as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_a_missing_tile_changes_nothing() {
        let a = RackTile::Letter(Letter::new(0));
        let mut rack = Rack::from_tiles([a, RackTile::Blank]);
        assert!(!rack.remove(RackTile::Letter(Letter::new(1))));
        assert_eq!(rack.len(), 2);
        assert!(rack.remove(a));
        assert!(!rack.remove(a));
        assert_eq!(rack.tiles().collect::<Vec<_>>(), vec![RackTile::Blank]);
    }

    #[test]
    fn minus_is_multiset_difference() {
        let a = RackTile::Letter(Letter::new(0));
        let b = RackTile::Letter(Letter::new(1));
        let rack = Rack::from_tiles([a, a, b, RackTile::Blank]);
        let less = rack.minus(&Rack::from_tiles([a, RackTile::Blank])).unwrap();
        assert_eq!(less, Rack::from_tiles([a, b]));
        assert!(rack.minus(&Rack::from_tiles([b, b])).is_none());
    }
}
