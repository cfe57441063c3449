//! Tiles: on the board (a letter, or a blank designated as a letter) and on a rack.

use crate::letter::Letter;
use crate::square::Square;

/// A tile on the board: a lettered tile, or a blank standing for a letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tile {
    /// A tile printed with this letter.
    Letter(Letter),
    /// A blank played as this letter; it scores 0.
    Blank(Letter),
}

impl Tile {
    /// The letter this tile stands for.
    pub const fn letter(self) -> Letter {
        match self {
            Tile::Letter(l) | Tile::Blank(l) => l,
        }
    }

    /// Whether this is a blank.
    pub const fn is_blank(self) -> bool {
        matches!(self, Tile::Blank(_))
    }

    /// The rack tile this board tile was played from.
    pub const fn rack_tile(self) -> RackTile {
        match self {
            Tile::Letter(l) => RackTile::Letter(l),
            Tile::Blank(_) => RackTile::Blank,
        }
    }
}

/// A tile on a rack or in the bag: a lettered tile or an undesignated blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RackTile {
    /// A tile printed with this letter.
    Letter(Letter),
    /// A blank, not yet designated.
    Blank,
}

/// A tile put on a square this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Where the tile goes.
    pub square: Square,
    /// The tile, with the blank's designated letter.
    pub tile: Tile,
}
