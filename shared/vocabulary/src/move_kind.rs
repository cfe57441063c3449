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
    /// The seat to move let its deadline pass.
    Timeout,
    /// A word added to the chain (chain family).
    Word,
}

impl MoveKind {
    /// The stored id: play, pass, exchange, resign, timeout or word.
    pub const fn id(self) -> &'static str {
        match self {
            MoveKind::Play => "play",
            MoveKind::Pass => "pass",
            MoveKind::Exchange => "exchange",
            MoveKind::Resign => "resign",
            MoveKind::Timeout => "timeout",
            MoveKind::Word => "word",
        }
    }
}
