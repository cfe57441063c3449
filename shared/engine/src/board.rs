//! The board: which tile, if any, stands on each square.

use crate::square::{SQUARES, Square};
use crate::tile::{Placement, Tile};

/// Tiles on the 15×15 board.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Tile>; SQUARES],
    tiles: u8,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    pub const fn new() -> Board {
        Board { squares: [None; SQUARES], tiles: 0 }
    }

    /// The tile at `square`.
    pub const fn get(&self, square: Square) -> Option<Tile> {
        self.squares[square.index()]
    }

    /// Whether a tile stands at `square`.
    pub const fn is_occupied(&self, square: Square) -> bool {
        self.squares[square.index()].is_some()
    }

    /// Whether the board holds no tile.
    pub const fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// How many tiles stand on the board.
    pub const fn tile_count(&self) -> usize {
        self.tiles as usize
    }

    /// Puts a tile on an empty square.
    ///
    /// # Panics
    /// If the square is occupied: callers place only validated placements.
    pub fn place(&mut self, placement: Placement) {
        let slot = &mut self.squares[placement.square.index()];
        assert!(slot.is_none(), "square {} is already occupied", placement.square);
        *slot = Some(placement.tile);
        self.tiles += 1;
    }

    /// Every occupied square with its tile, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = (Square, Tile)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|t| (sq, t)))
    }

    /// Whether a tile stands on any orthogonal neighbour of `square`.
    pub fn has_neighbour(&self, square: Square) -> bool {
        square.neighbours().any(|n| self.is_occupied(n))
    }
}
