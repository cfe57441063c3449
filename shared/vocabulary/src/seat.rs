//! Who moves and when.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, 0-based; seat 0 moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-seat game.
    pub const fn other(self) -> Seat {
        Seat(1 - self.0 % 2)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A point in time, milliseconds since the Unix epoch, as the caller's clock gave it (no family
/// reads a clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_and_times_are_plain_numbers_in_json() {
        assert_eq!(serde_json::to_string(&Seat(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Timestamp>("-5").unwrap(), Timestamp(-5));
        assert_eq!(Seat(0).other(), Seat(1));
        assert_eq!(Seat(1).other(), Seat(0));
        assert_eq!(Seat(2).to_string(), "2");
    }
}
