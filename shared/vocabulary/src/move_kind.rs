//! What kind of move a journal entry records, in any family.

use serde::Serialize;

/// What kind of move a journal entry records, in any family (stored and shown as its id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Tiles placed (tile family).
    Play,
    /// A pass (tile family).
    Pass,
    /// Tiles returned to the bag (tile family).
    Exchange,
    /// A resignation.
    Resign,
    /// The seat to move let its deadline pass (a tile game: the turn is lost; the chain: the
    /// game).
    Timeout,
    /// A word added to the chain (chain family).
    Word,
    /// The seat to move ran out of time on a real-time clock and lost the game (tile family).
    OutOfTime,
    /// After the end, points the seat's overtime took off its score (tile family).
    TimePenalty,
}

impl MoveKind {
    /// The stored id: play, pass, exchange, resign, timeout, word, out_of_time or time_penalty.
    pub const fn id(self) -> &'static str {
        match self {
            MoveKind::Play => "play",
            MoveKind::Pass => "pass",
            MoveKind::Exchange => "exchange",
            MoveKind::Resign => "resign",
            MoveKind::Timeout => "timeout",
            MoveKind::Word => "word",
            MoveKind::OutOfTime => "out_of_time",
            MoveKind::TimePenalty => "time_penalty",
        }
    }
}
