//! The journal: one self-contained entry per applied move (a word, a resignation or a timeout),
//! from which [`crate::replay`] rebuilds the exact game. An entry is written flat, its `kind`
//! beside the other fields:
//! `{"move_no":0,"seat":0,"kind":"word","word":"hoà bình","spelled":"hòa bình","score":12}`.
//! `word` is the canonical key (what replay and the no-repeat rule read), `spelled` the word as
//! the player wrote it (what the game shows); entries written before `spelled` existed have
//! none, and show the key in the usual spelling ([`JournalEntry::shown_word`]).

use serde::{Deserialize, Serialize};

use crate::dictionary::Dictionary;
use crate::seat::Seat;

/// What a journalled move did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A word accepted into the chain.
    Word {
        /// Its canonical spelling ([`crate::normalize`]): the key replay and the no-repeat rule
        /// read.
        word: String,
        /// The word as its player wrote it ([`crate::spelled`]), a spelling of `word`; absent in
        /// entries written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spelled: Option<String>,
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

impl JournalEntry {
    /// The word as the game shows it: as its player wrote it, or, for an entry that did not
    /// record that, its key in `dict`'s spelling most writers use; `None` for a resignation or a
    /// timeout.
    pub fn shown_word<'a>(&'a self, dict: &'a Dictionary) -> Option<&'a str> {
        match &self.action {
            Action::Word { word, spelled } => {
                Some(spelled.as_deref().or_else(|| dict.lookup(word).map(|w| dict.display(w))).unwrap_or(word))
            }
            Action::Resign | Action::Timeout => None,
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
