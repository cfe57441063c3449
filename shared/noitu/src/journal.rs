//! The journal: one self-contained entry per applied move (a word, a resignation or a timeout),
//! from which [`crate::replay`] rebuilds the exact game. An entry is written flat, its `kind`
//! beside the other fields:
//! `{"move_no":0,"seat":0,"kind":"word","word":"hoà bình","spelled":"hòa bình","score":12}`.
//! `word` is the canonical key (what replay and the no-repeat rule read), `spelled` the word as
//! the player wrote it (what the game shows); entries written before `spelled` existed have
//! none, and show `word`.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// What a journalled move did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChainAction {
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
    /// A group chain's new round, after a seat lost a life and at least two seats are left:
    /// the chain restarts from `word`, drawn as openings are, for the entry's seat (written by
    /// the game itself, right after the move that cost the life).
    Round {
        /// The new round's opening word, canonical.
        word: String,
    },
}

impl ChainAction {
    /// The stable kind name: word, resign, timeout or round.
    pub const fn kind(&self) -> &'static str {
        match self {
            ChainAction::Word { .. } => "word",
            ChainAction::Resign => "resign",
            ChainAction::Timeout => "timeout",
            ChainAction::Round { .. } => "round",
        }
    }
}

impl ChainJournalEntry {
    /// The word as the game shows it: as its player wrote it, or the key for an entry that did
    /// not record that; `None` for a resignation or a timeout.
    pub fn shown_word(&self) -> Option<&str> {
        match &self.action {
            ChainAction::Word { word, spelled } => Some(spelled.as_deref().unwrap_or(word)),
            ChainAction::Resign | ChainAction::Timeout | ChainAction::Round { .. } => None,
        }
    }
}

impl ChainJournalEntry {
    /// The syllable the next word begins with, as shown: the last syllable of the word as
    /// shown, or the key's when the word was played as a spelling of another syllable (an alias:
    /// "pháp lịnh" plays "pháp lệnh", and the chain goes on from "lệnh"); `None` for a
    /// resignation, a timeout or a new round (whose opening the game shows as its dictionary
    /// spells it).
    pub fn shown_ending(&self) -> Option<&str> {
        let ChainAction::Word { word, .. } = &self.action else { return None };
        let (key, shown) = (word.rsplit(' ').next().unwrap_or(word), self.shown_word()?);
        let shown = shown.rsplit(' ').next().unwrap_or(shown);
        Some(if crate::spelling::normalize(shown).ok().as_deref() == Some(key) { shown } else { key })
    }
}

/// One applied move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChainJournalEntry {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: ChainAction,
    /// Points the move scored.
    pub score: u32,
}
