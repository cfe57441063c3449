//! Replay: the exact game a journal leads to from its setup, each entry checked again by the
//! rules (its recorded score too).

use crate::dictionary::Dictionary;
use crate::game::Game;
use crate::journal::{Action, JournalEntry};
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

/// The game `journal` leads to from `setup` over `dict`: the same state as the live game that
/// wrote it (save a deadline set for the turn in progress, which the caller sets again).
///
/// # Errors
/// [`ReplayError`] if the setup is unplayable or an entry does not apply.
pub fn replay<'d>(setup: &Setup, journal: &[JournalEntry], dict: &'d Dictionary) -> Result<Game<'d>, ReplayError> {
    let mut game = Game::new(setup, dict)?;
    for entry in journal {
        let move_no = game.move_count();
        if entry.move_no != move_no {
            return Err(ReplayError::OutOfOrder { expected: move_no, found: entry.move_no });
        }
        let refused = |rejection| ReplayError::Refused { move_no, rejection };
        let checked = match &entry.action {
            // The deadline is not journalled: a recorded word or timeout was checked against it live.
            Action::Word { word } => game.check_turn(entry.seat).and_then(|()| game.check_word(entry.seat, word)).map_err(refused)?,
            Action::Resign => game.check_resign(entry.seat).map_err(refused)?,
            Action::Timeout => game.check_turn(entry.seat).map(|()| game.recorded_timeout()).map_err(refused)?,
        };
        if checked.score() != entry.score {
            return Err(ReplayError::Score { move_no, recorded: entry.score, computed: checked.score() });
        }
        game.apply(checked);
    }
    Ok(game)
}
