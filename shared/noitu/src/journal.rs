//! The journal: one self-contained entry per applied move (a word, a resignation or a timeout),
//! from which [`crate::replay`] rebuilds the exact game. An entry is written flat, its `kind`
//! beside the other fields: `{"move_no":0,"seat":0,"kind":"word","word":"luật sư","score":12}`.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// What a journalled move did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A word accepted into the chain.
    Word {
        /// Its canonical spelling.
        word: String,
    },
    /// A resignation.
    Resign,
    /// The seat to move let its deadline pass.
    Timeout,
}

impl Action {
    /// The stable kind name: word, resign or timeout.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Word { .. } => "word",
            Action::Resign => "resign",
            Action::Timeout => "timeout",
        }
    }
}

/// One applied move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JournalEntry {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: Action,
    /// Points the move scored.
    pub score: u32,
}
