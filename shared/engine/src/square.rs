//! Board squares ("A1".."O15") and play directions.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Squares per side of the board.
pub const BOARD_SIZE: usize = 15;
/// Squares on the board.
pub const SQUARES: usize = BOARD_SIZE * BOARD_SIZE;

/// One square of the 15×15 board: columns A–O left to right, rows 1–15 top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The centre square, H8, which the first play must cover.
    pub const CENTER: Square = Square(7 * 15 + 7);

    /// The square at zero-based `row` and `col`, or `None` off the board.
    pub const fn new(row: usize, col: usize) -> Option<Square> {
        if row < BOARD_SIZE && col < BOARD_SIZE { Some(Square((row * BOARD_SIZE + col) as u8)) } else { None }
    }

    /// The square with row-major `index` 0..225, or `None` past the board.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES { Some(Square(index as u8)) } else { None }
    }

    /// Row-major index, 0..225.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based row (0 is row "1").
    pub const fn row(self) -> usize {
        self.0 as usize / BOARD_SIZE
    }

    /// Zero-based column (0 is column "A").
    pub const fn col(self) -> usize {
        self.0 as usize % BOARD_SIZE
    }

    /// The square `steps` along `dir` (negative steps go back), or `None` off the board.
    pub fn step(self, dir: Direction, steps: isize) -> Option<Square> {
        let (r, c) = (self.row() as isize, self.col() as isize);
        let (r, c) = match dir {
            Direction::Across => (r, c + steps),
            Direction::Down => (r + steps, c),
        };
        if r < 0 || c < 0 {
            return None;
        }
        Square::new(r as usize, c as usize)
    }

    /// Position along `dir`: the column for across, the row for down.
    pub const fn along(self, dir: Direction) -> usize {
        match dir {
            Direction::Across => self.col(),
            Direction::Down => self.row(),
        }
    }

    /// The four orthogonal neighbours that are on the board.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        [self.step(Direction::Across, -1), self.step(Direction::Across, 1), self.step(Direction::Down, -1), self.step(Direction::Down, 1)]
            .into_iter()
            .flatten()
    }

    /// Every square, row by row.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

/// A square name that is not "A1".."O15".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square on the board: {0:?} (expected A1..O15)")]
pub struct SquareError(pub String);

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SquareError(s.to_string());
        let mut chars = s.chars();
        let col = chars.next().ok_or_else(err)?.to_ascii_uppercase();
        if !col.is_ascii_uppercase() {
            return Err(err());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(err());
        }
        let row: usize = digits.parse().map_err(|_| err())?;
        Square::new(row.wrapping_sub(1), (col as u8 - b'A') as usize).ok_or_else(err)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col() as u8) as char, self.row() + 1)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// Parses the name where it lies, without copying it.
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Square;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a square name such as \"H8\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Square, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(Name)
    }
}

/// The direction a word runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Left to right along a row.
    Across,
    /// Top to bottom along a column.
    Down,
}

impl Direction {
    /// The perpendicular direction.
    pub const fn other(self) -> Direction {
        match self {
            Direction::Across => Direction::Down,
            Direction::Down => Direction::Across,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips_through_its_name() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("h8".parse::<Square>().unwrap(), Square::CENTER);
        assert_eq!(Square::CENTER.to_string(), "H8");
        assert_eq!("O15".parse::<Square>().unwrap().index(), 224);
    }

    #[test]
    fn names_off_the_board_are_rejected() {
        for bad in ["", "A", "A0", "A16", "P1", "11", "A01", "A1x", "Ж1", "A-1", "AA1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn steps_stop_at_the_edge() {
        let a1: Square = "A1".parse().unwrap();
        assert_eq!(a1.step(Direction::Across, -1), None);
        assert_eq!(a1.step(Direction::Down, 1).unwrap().to_string(), "A2");
        assert_eq!(a1.neighbours().count(), 2);
    }
}
