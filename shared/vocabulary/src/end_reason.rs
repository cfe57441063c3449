//! Why a game ended, in any family.

use serde::Serialize;

/// Why a game ended (stored and shown as its snake_case name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Tile: a seat emptied its rack with the bag empty.
    WentOut,
    /// Tile: the variant's run of scoreless turns was reached.
    ScorelessTurns,
    /// A seat resigned.
    Resigned,
    /// Chain: the seat to move had no unused word for the syllable.
    NoLegalMove,
    /// The seat to move ran out of time and lost: the chain's deadline, a real-time clock's
    /// flag.
    Timeout,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 5] =
        [EndReason::WentOut, EndReason::ScorelessTurns, EndReason::Resigned, EndReason::NoLegalMove, EndReason::Timeout];

    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            EndReason::WentOut => "went_out",
            EndReason::ScorelessTurns => "scoreless_turns",
            EndReason::Resigned => "resigned",
            EndReason::NoLegalMove => "no_legal_move",
            EndReason::Timeout => "timeout",
        }
    }

    /// The reason stored as `id`.
    pub fn parse(id: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.id() == id)
    }
}
