//! What every game family and every layer shares, defined once: who sits where ([`Seat`]), when
//! ([`Timestamp`], as the caller's clock gave it), how strong a robot plays ([`Level`]) and how
//! long it may think ([`Budget`]). Plain data: nothing here reads a clock or draws a random
//! number.

mod budget;
mod level;
mod seat;

pub use budget::{Budget, Work};
pub use level::{Level, UnknownLevel};
pub use seat::{Seat, Timestamp};
