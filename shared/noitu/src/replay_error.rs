//! What replaying a journal can fail with: kept apart from the replay, so that the game, which
//! checks each recorded entry, and the replay, which drives the game, both name it.

use crate::rejection::ChainRejection;
use crate::setup::ChainSetupError;

/// A journal that does not replay onto its setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainReplayError {
    /// The setup itself is unplayable.
    #[error(transparent)]
    ChainSetup(#[from] ChainSetupError),
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
        rejection: ChainRejection,
    },
    /// An entry records a spelling that is not a spelling of its word.
    #[error("journal entry {move_no} records {spelled:?}, not a spelling of its word")]
    Spelled {
        /// The entry's number.
        move_no: u32,
        /// The spelling recorded.
        spelled: String,
    },
    /// A new round recorded otherwise than the game opens it (another seat or opening word, or
    /// where no life was lost).
    #[error("journal entry {move_no} records the round {recorded:?}, the game opens {written:?}")]
    Round {
        /// The entry's number.
        move_no: u32,
        /// As recorded.
        recorded: Box<crate::journal::ChainJournalEntry>,
        /// As the game wrote it.
        written: Box<crate::journal::ChainJournalEntry>,
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
