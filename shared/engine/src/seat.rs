//! Who moves and when, as plain data shared by every module (the engine never reads a clock):
//! the vocabulary every family shares.

pub use vocabulary::{Seat, Timestamp};
