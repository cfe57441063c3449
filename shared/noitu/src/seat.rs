//! Seats and time: who moves and when, as plain data (the engine never reads a clock): the
//! vocabulary every family shares.

pub use vocabulary::{Seat, Timestamp};
