//! How a game ended, for any family: the reason, the seat it concerns, the winners and the
//! end-of-game settlement.

use serde::Serialize;

use crate::seat::Seat;
pub use vocabulary::EndReason;

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Why it ended.
    pub reason: EndReason,
    /// The seat that went out, resigned, had no word or ran out of time.
    pub seat: Option<Seat>,
    /// The winning seats (more than one on a tie).
    pub winners: Vec<Seat>,
    /// The end-of-game settlement per seat (zeros where the family has none).
    pub adjustments: Vec<i32>,
}
