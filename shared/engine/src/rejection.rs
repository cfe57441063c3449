//! Why a move was refused: one variant per reason, each with a stable snake_case code.

use crate::seat::Seat;
use crate::square::Square;

/// A refused move. Reasons are checked in the order listed: turn, shape, rack, board, words,
/// exchange; the first that applies is returned and the game is left untouched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Rejection {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is to move.
    #[error("it is seat {to_move}'s turn")]
    NotYourTurn {
        /// The seat whose turn it is.
        to_move: Seat,
    },
    /// The turn's deadline has passed; only a timeout can be recorded now.
    #[error("the turn's deadline has passed")]
    DeadlinePassed,
    /// A timeout was claimed before the deadline (or in a game without deadlines).
    #[error("the turn's deadline has not passed")]
    DeadlineNotPassed,
    /// A play or exchange names no tiles.
    #[error("no tiles given")]
    NoTiles,
    /// A square name is not on the board.
    #[error("{square:?} is not a square on the board")]
    OffBoard {
        /// The name as sent.
        square: String,
    },
    /// Two tiles name the same square.
    #[error("square {square} is used twice")]
    DuplicateSquare {
        /// The repeated square.
        square: Square,
    },
    /// The tiles are not all in one row or one column.
    #[error("the tiles are not in one line")]
    NotInLine,
    /// An empty square lies between the placed tiles.
    #[error("the word has a gap at {square}")]
    Gap {
        /// The first empty square between the tiles.
        square: Square,
    },
    /// A lettered tile names no letter.
    #[error("the tile on {square} names no letter")]
    MissingLetter {
        /// Where the tile was to go.
        square: Square,
    },
    /// A blank is placed without the letter it stands for.
    #[error("the blank on {square} needs a letter")]
    BlankWithoutLetter {
        /// Where the blank was to go.
        square: Square,
    },
    /// A letter is not in this variant's alphabet.
    #[error("{letter:?} is not a letter of this variant")]
    LetterNotInAlphabet {
        /// The character as sent.
        letter: char,
    },
    /// The rack does not hold a tile the move uses.
    #[error("{tile} is not on the rack")]
    TileNotOnRack {
        /// The missing tile, written as its letter or `?` for a blank.
        tile: String,
    },
    /// A tile is placed on an occupied square.
    #[error("square {square} is already occupied")]
    SquareOccupied {
        /// The occupied square.
        square: Square,
    },
    /// The first play of the game does not cover the centre square.
    #[error("the first play must cover H8")]
    FirstPlayMissesCenter,
    /// The play touches no tile already on the board.
    #[error("the play is not connected to the tiles on the board")]
    NotConnected,
    /// The play forms no word of two or more letters.
    #[error("the play forms no word of two or more letters")]
    NoWordFormed,
    /// Words formed by the play are not in the lexicon; every one of them is listed.
    #[error("not in the word list: {}", words.join(", "))]
    InvalidWords {
        /// Each invalid word, upper case, in the order formed (main word first).
        words: Vec<String>,
    },
    /// The play's main word is already on the board (no-repeat rule); for a one-tile play
    /// forming words both ways, every word it forms is.
    #[error("already played: {}", words.join(", "))]
    WordAlreadyPlayed {
        /// The repeated word(s), upper case.
        words: Vec<String>,
    },
    /// The bag holds too few tiles for an exchange under this variant's rule.
    #[error("the bag holds {bag} tiles; exchanging needs at least {needed}")]
    BagTooSmall {
        /// Tiles in the bag.
        bag: usize,
        /// Tiles the rule requires.
        needed: usize,
    },
    /// A challenge in a game whose rule is void (a phony is refused when laid).
    #[error("this game's challenge rule is void: plays are checked when they are made")]
    ChallengeNotAllowed,
    /// A challenge with no play to challenge: the last entry is not a play still open to one.
    #[error("there is no play to challenge: only the play just made, before the next move")]
    NothingToChallenge,
    /// An acceptance with no play that went out waiting for one.
    #[error("there is nothing to accept: only a play that went out waits for acceptance")]
    NothingToAccept,
    /// A move while the play that went out waits to be challenged or accepted.
    #[error("the last play went out: challenge it or accept it")]
    ChallengeWindow,
}

impl Rejection {
    /// Every code, in the order listed; the API docs list these.
    pub const CODES: &'static [&'static str] = <Rejection as strum::VariantNames>::VARIANTS;

    /// The stable machine-readable code of this reason.
    pub fn code(&self) -> &'static str {
        self.into()
    }
}
