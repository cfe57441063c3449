//! What every game family and every layer shares, defined once: which game ([`Variant`], its
//! [`Family`]), who sits where ([`Seat`]), when ([`Timestamp`], as the caller's clock gave it),
//! what kind of move was made ([`MoveKind`]), how it is timed ([`TimeControl`]), how a phony is settled ([`ChallengeRule`]), why a game ended ([`EndReason`]), how strong a
//! robot plays ([`Level`]), against whom ([`Opponent`]) and how long it may think ([`ThinkingLimit`]).
//! Plain data: nothing here reads a clock or draws a random number.

mod budget;
mod challenge;
mod end_reason;
mod level;
mod move_kind;
mod opponent;
mod seat;
mod time_control;
mod variant;

pub use budget::{ThinkingLimit, Work};
pub use challenge::{ChallengeRule, ChallengeRuleError};
pub use end_reason::EndReason;
pub use level::{Level, UnknownLevel};
pub use move_kind::MoveKind;
pub use opponent::Opponent;
pub use seat::{Seat, Timestamp};
pub use time_control::{Lapse, Speed, TimeControl, TimeControlError, TimeControlKind};
pub use variant::{Clocks, Family, UnknownVariant, Variant};
