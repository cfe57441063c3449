//! The journal: one self-contained, dictionary-independent entry per applied move, from which
//! [`crate::replay()`] rebuilds the exact game state.
//!
//! An entry carries every fact replay needs (seat, kind, squares with decoded letters and blank
//! flags, exchanged tiles, words and scores); replay looks nothing up in a lexicon and trusts the
//! recorded words, but checks every tile against the rebuilt racks and board.

use serde::{Deserialize, Serialize};

mod decode;

use crate::moves::TileInput;
use crate::scoring::WordScore;
use crate::seat::Seat;
use crate::square::{Direction, Square};
use crate::tile::Placement;
use crate::variant::Rules;
use vocabulary::MoveKind;

/// A placed tile as journalled: the square, the decoded letter and whether it was a blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JournalTile {
    /// Where the tile went.
    pub square: Square,
    /// The letter it shows (for a blank, the letter it stands for), upper case.
    pub letter: char,
    /// Whether it was a blank.
    pub blank: bool,
}

impl JournalTile {
    /// The journal form of a placement.
    pub fn new(rules: &Rules, p: Placement) -> JournalTile {
        JournalTile { square: p.square, letter: rules.char_of(p.tile.letter()), blank: p.tile.is_blank() }
    }
}

/// What a journalled move did.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Tiles placed, in order along the main word.
    Play {
        /// The tiles.
        tiles: Vec<JournalTile>,
        /// The main word's direction.
        direction: Direction,
        /// Every word formed, main word first, with its score.
        words: Vec<WordScore>,
        /// The full-rack bonus, or 0.
        bingo: i32,
    },
    /// A pass.
    Pass,
    /// Tiles returned to the bag.
    Exchange {
        /// The returned tiles.
        tiles: Vec<TileInput>,
    },
    /// A resignation.
    Resign,
    /// The seat ran out of time and lost the turn.
    Timeout,
    /// The seat's flag fell: it ran out of time and lost the game.
    OutOfTime,
    /// After the end, the seat's overtime cost it points (the entry's score, negative).
    TimePenalty,
    /// The seat's play just before was challenged and is not valid: its tiles went back to its
    /// rack, the tiles it drew back to the bag, its points off (the entry's score, negative).
    ChallengedOff,
    /// The seat's play just before was challenged and is valid: the rule's bonus (the score).
    ChallengeBonus,
    /// The seat challenged the valid play just before, at no cost (the single rule).
    ChallengeFailed,
    /// The seat challenged the valid play just before and lost its turn (the double rule).
    ChallengeTurnLost,
    /// The seat accepted the play that went out just before; the game ended.
    Accept,
}

impl Action {
    /// What kind of move this is, in the one list of move kinds every family shares.
    pub const fn move_kind(&self) -> MoveKind {
        match self {
            Action::Play { .. } => MoveKind::Play,
            Action::Pass => MoveKind::Pass,
            Action::Exchange { .. } => MoveKind::Exchange,
            Action::Resign => MoveKind::Resign,
            Action::Timeout => MoveKind::Timeout,
            Action::OutOfTime => MoveKind::OutOfTime,
            Action::TimePenalty => MoveKind::TimePenalty,
            Action::ChallengedOff => MoveKind::ChallengedOff,
            Action::ChallengeBonus => MoveKind::ChallengeBonus,
            Action::ChallengeFailed => MoveKind::ChallengeFailed,
            Action::ChallengeTurnLost => MoveKind::ChallengeTurnLost,
            Action::Accept => MoveKind::Accept,
        }
    }

    /// The stable kind name (the move kind's id): play, pass, exchange, resign, timeout,
    /// out_of_time, time_penalty, challenged_off, challenge_bonus, challenge_failed,
    /// challenge_turn_lost or accept.
    pub fn kind(&self) -> &'static str {
        self.move_kind().id()
    }
}

/// One applied move. Written flat, `kind` beside the other fields, and read in one pass (through
/// a flat struct of every field, `decode::RawEntry`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "decode::RawEntry")]
pub struct JournalEntry {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: Action,
    /// Points scored by the move itself (before any end-of-game settlement; a time penalty's
    /// is negative).
    pub score: i32,
}
