//! The journal: one self-contained, dictionary-independent entry per applied move, and replay,
//! which rebuilds the exact game state from a setup and its journal.
//!
//! An entry carries every fact replay needs (seat, kind, squares with decoded letters and blank
//! flags, exchanged tiles, words and scores); replay looks nothing up in a lexicon and trusts the
//! recorded words, but checks every tile against the rebuilt racks and board.

use serde::{Deserialize, Serialize};

mod decode;

use crate::game::{Game, Seat, SetupError};
use crate::moves::{CheckedAction, CheckedMove, TileInput};
use crate::play;
use crate::rejection::Rejection;
use crate::scoring::WordScore;
use crate::square::{Direction, Square};
use crate::tile::{Placement, Tile};
use crate::variant::{Rules, Variant};

/// What a game starts from: with the journal, everything needed to rebuild it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// Number of seats, 2..=4.
    pub seats: usize,
    /// The bag's seed.
    pub seed: u64,
    /// Whether the no-repeat-words rule applies (pinned per game; absent in old records = off).
    #[serde(default)]
    pub no_repeat_words: bool,
}

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
}

impl Action {
    /// The stable kind name: play, pass, exchange, resign or timeout.
    pub const fn kind(&self) -> &'static str {
        match self {
            Action::Play { .. } => "play",
            Action::Pass => "pass",
            Action::Exchange { .. } => "exchange",
            Action::Resign => "resign",
            Action::Timeout => "timeout",
        }
    }
}

/// One applied move. Written flat, `kind` beside the other fields, and read in one pass.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct JournalEntry {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: Action,
    /// Points scored by the move itself (before any end-of-game settlement).
    pub score: i32,
}

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
    /// An entry is impossible in the rebuilt state.
    #[error("journal entry {move_no} does not apply: {rejection}")]
    Rejected {
        /// The entry's number.
        move_no: u32,
        /// Why it does not apply.
        rejection: Rejection,
    },
    /// An entry's recorded words or score disagree with its tiles.
    #[error("journal entry {move_no} is inconsistent: {what}")]
    Inconsistent {
        /// The entry's number.
        move_no: u32,
        /// What disagrees.
        what: &'static str,
    },
}

/// Rebuilds a game from its setup and journal.
///
/// # Errors
/// [`ReplayError`] naming the first entry that cannot be applied.
pub fn replay(setup: &Setup, journal: &[JournalEntry]) -> Result<Game, ReplayError> {
    let mut game = Game::from_setup(setup)?;
    for entry in journal {
        let checked = recorded_move(&game, entry)?;
        game.apply(checked);
    }
    Ok(game)
}

/// The checked move an entry records, verified against the rebuilt state.
pub(crate) fn recorded_move(game: &Game, entry: &JournalEntry) -> Result<CheckedMove, ReplayError> {
    let move_no = entry.move_no;
    let rejected = |rejection| ReplayError::Rejected { move_no, rejection };
    if move_no != game.move_count() {
        return Err(ReplayError::OutOfOrder { expected: game.move_count(), found: move_no });
    }
    if game.is_over() {
        return Err(rejected(Rejection::GameOver));
    }
    if entry.seat.index() >= game.seats() || (entry.seat != game.to_move() && entry.action != Action::Resign) {
        return Err(rejected(Rejection::NotYourTurn { to_move: game.to_move() }));
    }
    let rules = game.rules();
    let action = match &entry.action {
        Action::Play { tiles, direction, words, bingo } => {
            let placements = tiles
                .iter()
                .map(|t| {
                    let letter = rules.letter(t.letter).ok_or(Rejection::LetterNotInAlphabet { letter: t.letter })?;
                    Ok(Placement { square: t.square, tile: if t.blank { Tile::Blank(letter) } else { Tile::Letter(letter) } })
                })
                .collect::<Result<Vec<_>, Rejection>>()
                .map_err(rejected)?;
            let outcome = play::evaluate(rules, game.board(), game.rack(entry.seat), None, &placements).map_err(rejected)?;
            let recorded_total = words.iter().map(|w| w.score).sum::<i32>() + bingo;
            if recorded_total != entry.score {
                return Err(ReplayError::Inconsistent { move_no, what: "the words' scores do not add up to the move's score" });
            }
            if game.no_repeat_words()
                && let Some(main) = words.iter().find(|w| w.main)
                && game.played_words().contains(&main.word)
            {
                return Err(ReplayError::Inconsistent { move_no, what: "the main word was already played" });
            }
            let mut score = outcome.score;
            score.words.clone_from(words);
            score.bingo = *bingo;
            score.total = entry.score;
            CheckedAction::Play { placements, direction: *direction, score }
        }
        Action::Pass => CheckedAction::Pass,
        Action::Exchange { tiles } => CheckedAction::Exchange { tiles: game.check_exchange(entry.seat, tiles).map_err(rejected)? },
        Action::Resign => CheckedAction::Resign,
        Action::Timeout => CheckedAction::Timeout,
    };
    if entry.score != 0 && !matches!(action, CheckedAction::Play { .. }) {
        return Err(ReplayError::Inconsistent { move_no, what: "only a play scores" });
    }
    Ok(CheckedMove { seat: entry.seat, move_no, action })
}
