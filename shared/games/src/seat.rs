//! Seats and time as every family sees them: plain data (no family reads a clock).

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

    pub(crate) const fn tile(self) -> engine::Seat {
        engine::Seat(self.0)
    }

    pub(crate) const fn chain(self) -> noitu::Seat {
        noitu::Seat(self.0)
    }
}

impl From<engine::Seat> for Seat {
    fn from(s: engine::Seat) -> Seat {
        Seat(s.0)
    }
}

impl From<noitu::Seat> for Seat {
    fn from(s: noitu::Seat) -> Seat {
        Seat(s.0)
    }
}

/// A point in time, milliseconds since the Unix epoch, as the caller's clock gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);
