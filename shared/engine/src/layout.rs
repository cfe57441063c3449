//! Premium-square layouts of the 15×15 board.

use crate::square::{SQUARES, Square};

/// What a square multiplies, for a tile placed on it this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Premium {
    /// No premium.
    #[default]
    None,
    /// Double letter score.
    DoubleLetter,
    /// Triple letter score.
    TripleLetter,
    /// Double word score.
    DoubleWord,
    /// Triple word score.
    TripleWord,
}

impl Premium {
    /// Multiplier for the tile's letter value.
    pub const fn letter_multiplier(self) -> i32 {
        match self {
            Premium::DoubleLetter => 2,
            Premium::TripleLetter => 3,
            _ => 1,
        }
    }

    /// Multiplier for the whole word.
    pub const fn word_multiplier(self) -> i32 {
        match self {
            Premium::DoubleWord => 2,
            Premium::TripleWord => 3,
            _ => 1,
        }
    }
}

/// The premium of every square of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    squares: [Premium; SQUARES],
}

impl Layout {
    /// A layout from lists of square names per premium.
    ///
    /// # Panics
    /// On a malformed square name: layouts are compile-time tables, so that is a programming error.
    pub fn from_lists(tw: &[&str], dw: &[&str], tl: &[&str], dl: &[&str]) -> Layout {
        let mut squares = [Premium::None; SQUARES];
        for (list, premium) in
            [(tw, Premium::TripleWord), (dw, Premium::DoubleWord), (tl, Premium::TripleLetter), (dl, Premium::DoubleLetter)]
        {
            for name in list {
                let sq: Square = name.parse().expect("layout tables name real squares");
                squares[sq.index()] = premium;
            }
        }
        Layout { squares }
    }

    /// The premium at `square`.
    pub const fn premium(&self, square: Square) -> Premium {
        self.squares[square.index()]
    }

    /// How many squares carry `premium`.
    pub fn count(&self, premium: Premium) -> usize {
        self.squares.iter().filter(|&&p| p == premium).count()
    }
}
