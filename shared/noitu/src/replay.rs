//! Replay: the exact game a journal leads to from its setup, each entry checked again by the
//! rules (its recorded score too).

use crate::dictionary::Dictionary;
use crate::game::Game;
use crate::journal::JournalEntry;
use crate::rejection::Rejection;
use crate::setup::{Setup, SetupError};

/// A journal that does not replay onto its setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The setup itself is unplayable.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Entries are missing or out of order.
    #[error("journal entry {found} found where entry {expected} was due")]
    OutOfOrder {
        /// The number due.
        expected: u32,
        /// The number found.
        found: u32,
    },
    /// An entry is refused by the rebuilt game.
    #[error("journal entry {move_no} is refused: {rejection}")]
    Refused {
        /// The entry's number.
        move_no: u32,
        /// Why.
        rejection: Rejection,
    },
    /// An entry records a spelling that is not a spelling of its word.
    #[error("journal entry {move_no} records {spelled:?}, not a spelling of its word")]
    Spelled {
        /// The entry's number.
        move_no: u32,
        /// The spelling recorded.
        spelled: String,
    },
    /// An entry's recorded score is not what the rules give.
    #[error("journal entry {move_no} records {recorded} points, the rules give {computed}")]
    Score {
        /// The entry's number.
        move_no: u32,
        /// As recorded.
        recorded: u32,
        /// As computed.
        computed: u32,
    },
}

/// The game `journal` leads to from `setup` over `dict` (the setup's word list:
/// [`Dictionary::of`] with [`crate::Options::word_list`]): the same state as the live game that
/// wrote it (save a deadline set for the turn in progress, which the caller sets again).
///
/// # Errors
/// [`ReplayError`] if the setup is unplayable or an entry does not apply.
pub fn replay<'d>(setup: &Setup, journal: &[JournalEntry], dict: &'d Dictionary) -> Result<Game<'d>, ReplayError> {
    let mut game = Game::new(setup, dict)?;
    for entry in journal {
        game.apply_recorded(entry)?;
    }
    Ok(game)
}
