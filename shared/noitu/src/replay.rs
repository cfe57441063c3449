//! Replay: the exact game a journal leads to from its setup, each entry checked again by the
//! rules (its recorded score too).

use crate::dictionary::Dictionary;
use crate::game::WordChain;
use crate::journal::ChainJournalEntry;
use crate::replay_error::ChainReplayError;
use crate::setup::ChainSetup;

/// The game `journal` leads to from `setup` over `dict` (the setup's word list:
/// [`Dictionary::of`] with [`crate::Options::word_list`]): the same state as the live game that
/// wrote it (save a deadline set for the turn in progress, which the caller sets again).
///
/// # Errors
/// [`ChainReplayError`] if the setup is unplayable or an entry does not apply.
pub fn replay<'d>(setup: &ChainSetup, journal: &[ChainJournalEntry], dict: &'d Dictionary) -> Result<WordChain<'d>, ChainReplayError> {
    let mut game = WordChain::new(setup, dict)?;
    for entry in journal {
        game.apply_recorded(entry)?;
    }
    Ok(game)
}
