//! The contract every game family implements ([`Position`]) and the plain data it answers with.
//! A family takes untrusted [`Move`]s and turns them into [`Checked`] moves or typed refusals,
//! applies checked moves (which cannot fail), journals them, and says whose turn it is, when it
//! ends, what each seat may see, which moves to hint and what its robots play. What only one
//! family has (a board, a rack, a bag; a chain and its syllable) stays in that family's view
//! types.

use std::time::Instant;

use serde::Serialize;

use crate::chain_view::{ChainHint, ChainScore, ChainTimeline, ChainView};
use crate::entry::Entry;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::rejection::Rejected;
use crate::seat::{Seat, Timestamp};
use crate::tile_view::{TileHint, TileTimeline, TileView};
use crate::variant::{Family, Variant};
use vocabulary::{Lapse, Work};

/// A robot's level, in every family.
pub use vocabulary::Level;

/// A move checked against one state of one game; only that game's `apply` takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked(pub(crate) CheckedInner);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CheckedInner {
    Tile(engine::CheckedMove),
    Chain(noitu::CheckedMove),
}

/// A robot's move: submitted through `check` like anyone's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotMove {
    /// The move.
    pub mv: Move,
    /// How long the client should take to reveal it.
    pub thinking_ms: u32,
}

/// How long a robot (or a hint's judgement) may think. The engines read no clock: this is the
/// clock, or the count, they are given. A request in production thinks until an instant; tests
/// and replays count the engines' own steps, which no load on the machine changes.
#[derive(Debug, Clone, Copy)]
pub enum Budget {
    /// Stop at this instant.
    Until(Instant),
    /// Stop after `rounds` simulation rounds (or endgame iterations) in a tile game, after
    /// `nodes` search nodes in a chain game.
    Counted {
        /// The tile robots' simulation rounds and endgame iterations.
        rounds: u32,
        /// The chain robots' search nodes.
        nodes: u64,
    },
}

impl Budget {
    /// Until `duration` from now.
    pub fn from_now(duration: std::time::Duration) -> Budget {
        Budget::Until(Instant::now() + duration)
    }
}

impl vocabulary::Budget for Budget {
    fn expired(&mut self, done: Work) -> bool {
        match (*self, done) {
            (Budget::Until(until), _) => Instant::now() >= until,
            (Budget::Counted { rounds, .. }, Work::Rounds(r)) => r >= rounds,
            (Budget::Counted { nodes, .. }, Work::Nodes(n)) => n >= nodes,
        }
    }
}

/// What a family operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The rules refuse the move; nothing changed.
    #[error(transparent)]
    Rejected(#[from] Rejected),
    /// The move is one of another family's kinds (tiles to a chain, a word to a board).
    #[error("a {kind} move is not a move of a {} game", match .family { Family::Tile => "tile", Family::Chain => "chain" })]
    WrongFamily {
        /// The game's family.
        family: Family,
        /// The kind sent.
        kind: &'static str,
    },
    /// A word graph could not be loaded (a deployment fault, not the caller's).
    #[error("word graph unavailable")]
    Lexicon(#[from] engine::LexiconError),
    /// A stored game does not replay (a corrupt setup or journal).
    #[error("stored game does not replay: {0}")]
    Replay(String),
}

/// A game's family-specific view, beside the fields every family has.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum FamilyView {
    /// Board, bag, the viewer's rack, the no-repeat rule.
    Tile(TileView),
    /// The chain and the syllable to continue from.
    Chain(ChainView),
}

/// What a family shows of one seat besides its score.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum SeatDetail {
    /// Tiles on the seat's rack.
    Tile {
        /// How many.
        rack_size: usize,
    },
    /// Nothing more.
    Chain {},
}

/// A suggested move, best first.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Hint {
    /// A play.
    Tile(TileHint),
    /// A word.
    Chain(ChainHint),
}

/// What a move would score if submitted now.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Score {
    /// Words formed, the bingo bonus and the total.
    Tile(engine::ScoreBreakdown),
    /// The word and its points.
    Chain(ChainScore),
}

/// The admin replay's steps, family by family.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Timeline {
    /// Racks, board and bag after every move.
    Tile(TileTimeline),
    /// The chain step by step.
    Chain(ChainTimeline),
}

impl Timeline {
    /// One line per move for the replay page's log, each player named by `name_of(seat)`: a
    /// tile move with the tiles it drew and the bag left, a word with the running scores and
    /// the syllable it hands on.
    pub fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        match self {
            Timeline::Tile(t) => t.log(name_of),
            Timeline::Chain(c) => c.log(name_of),
        }
    }

    /// The last step's index.
    pub fn last_step(&self) -> usize {
        match self {
            Timeline::Tile(t) => t.timeline.steps.len().saturating_sub(1),
            Timeline::Chain(c) => c.steps.len().saturating_sub(1),
        }
    }
}

/// One game of some family, in play or over. Every method but `apply` leaves it unchanged.
pub trait Position {
    /// The variant.
    fn variant(&self) -> Variant;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// The seat to move (meaningless once over).
    fn to_move(&self) -> Seat;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Moves applied so far; the next move's number.
    fn move_count(&self) -> u32;
    /// Each seat's points (final once over).
    fn scores(&self) -> Vec<i32>;
    /// How it ended.
    fn outcome(&self) -> Option<Outcome>;
    /// Sets the current turn's deadline (applying a move clears it).
    fn set_deadline(&mut self, deadline: Option<Timestamp>);
    /// The journal entry `move_no`.
    fn entry(&self, move_no: u32) -> Option<Entry>;
    /// Validates `mv` by `seat` at `now` (a resignation on either turn).
    ///
    /// # Errors
    /// [`GameError::Rejected`], [`GameError::WrongFamily`], [`GameError::Lexicon`].
    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError>;
    /// Validates a claim that the seat to move ran out of time at `now`; `lapse` says what that
    /// costs where the family lets the time control decide (a tile game's turn or game).
    ///
    /// # Errors
    /// [`GameError::Rejected`] (`game_over`, `deadline_not_passed`).
    fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<Checked, GameError>;
    /// After an end by the rules, a penalty of `points` off `seat`'s score for its overtime,
    /// checked; `None` where the family or the end has none, or the seat has one already.
    fn time_penalty(&self, seat: Seat, points: i32) -> Option<Checked>;
    /// Applies a move checked against this state and returns its journal entry.
    ///
    /// # Panics
    /// If `checked` was checked at another move number, or for another family's game.
    fn apply(&mut self, checked: Checked) -> Entry;
    /// What `checked` scores.
    fn preview(&self, checked: &Checked) -> Score;
    /// What `viewer` (a seat, or nobody) may see of the family's state.
    fn view(&self, viewer: Option<Seat>) -> FamilyView;
    /// What everyone may see of `seat`.
    fn seat_detail(&self, seat: Seat) -> SeatDetail;
    /// Up to `limit` moves `seat` could make, best first; a family whose ranking searches stops
    /// it at `budget`.
    ///
    /// # Errors
    /// [`GameError::Rejected`] once the game is over; [`GameError::Lexicon`].
    fn hints(&self, seat: Seat, limit: usize, budget: Budget) -> Result<Vec<Hint>, GameError>;
    /// The move of a robot of `level` for the seat to move, its choices seeded by `seed`, its
    /// thinking stopped by `budget`; `None` when it has no move (the game is then over).
    ///
    /// # Errors
    /// [`GameError::Lexicon`].
    fn robot(&self, level: Level, seed: u64, budget: Budget) -> Result<Option<RobotMove>, GameError>;
    /// The admin replay's steps.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not fold.
    fn timeline(&self) -> Result<Timeline, GameError>;
}
