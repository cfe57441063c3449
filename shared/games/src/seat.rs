//! Seats and time as every family sees them: plain data (no family reads a clock), the
//! vocabulary every family and layer shares.

pub use vocabulary::{Seat, Timestamp};
