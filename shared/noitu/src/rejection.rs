//! Why a word or a claim was refused: one variant per reason, each with a stable snake_case code.

use crate::seat::Seat;

/// A refused move. A word is checked in the order listed (game over, turn, deadline, syllable
/// count, dictionary, link, reuse); the first reason that applies is returned and the game is
/// left untouched. The link is checked after the dictionary because resolving the spelling can
/// change the first syllable ("sỹ quan" is "sĩ quan").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainRejection {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is to move (or the seat is not at this table).
    #[error("it is seat {to_move}'s turn")]
    NotYourTurn {
        /// The seat whose turn it is.
        to_move: Seat,
    },
    /// The turn's deadline has passed; only a timeout can be recorded now.
    #[error("the turn's deadline has passed")]
    DeadlinePassed,
    /// A timeout was claimed before the deadline (or with no deadline set).
    #[error("the turn's deadline has not passed")]
    DeadlineNotPassed,
    /// Fewer than two syllables.
    #[error("a word needs at least 2 syllables, not {found}")]
    TooFewSyllables {
        /// Syllables in the input.
        found: usize,
    },
    /// Not a word of the dictionary in any accepted spelling.
    #[error("not in the dictionary")]
    NotInDictionary,
    /// The word does not begin with the syllable the last word ended with.
    #[error("the word must begin with {expected:?}, not {found:?}")]
    WrongLink {
        /// The syllable required.
        expected: String,
        /// The word's first syllable, as resolved.
        found: String,
    },
    /// The word was played already in this game, by either seat, or was the opening word.
    #[error("{word:?} has been played already")]
    AlreadyUsed {
        /// The word, as resolved.
        word: String,
    },
}

impl ChainRejection {
    /// Every code, in checking order; the API docs list these.
    pub const CODES: [&'static str; 8] = [
        "game_over",
        "not_your_turn",
        "deadline_passed",
        "deadline_not_passed",
        "too_few_syllables",
        "not_in_dictionary",
        "wrong_link",
        "already_used",
    ];

    /// The stable machine-readable code of this reason.
    pub const fn code(&self) -> &'static str {
        match self {
            ChainRejection::GameOver => "game_over",
            ChainRejection::NotYourTurn { .. } => "not_your_turn",
            ChainRejection::DeadlinePassed => "deadline_passed",
            ChainRejection::DeadlineNotPassed => "deadline_not_passed",
            ChainRejection::TooFewSyllables { .. } => "too_few_syllables",
            ChainRejection::NotInDictionary => "not_in_dictionary",
            ChainRejection::WrongLink { .. } => "wrong_link",
            ChainRejection::AlreadyUsed { .. } => "already_used",
        }
    }
}
