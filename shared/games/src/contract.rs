//! The contract every game family implements ([`Position`]) and the plain data it answers with.
//! A family takes untrusted [`Move`]s and turns them into [`Checked`] moves or typed refusals,
//! applies checked moves (which cannot fail), journals them, and says whose turn it is, when it
//! ends, what each seat may see, which moves to hint and what its robots play. What only one
//! family has (a board, a rack, a bag; a chain and its syllable) stays in that family's view
//! types.

use std::any::Any;
use std::time::Instant;

use crate::analysis::Analysis;
use crate::entry::{Entry, EntryView, Viewer};
use crate::moves::Move;
use crate::open::{FamilyView, Hint, Revealed, Score, SeatDetail};
use crate::outcome::Outcome;
use crate::rejection::Rejected;
use crate::seat::{Seat, Timestamp};
use crate::timeline::Timeline;
use vocabulary::{Lapse, Work};

/// A robot's level, in every family.
pub use vocabulary::{Level, Opponent};

/// A move checked against one state of one game; only that game's `apply` takes it. Opaque:
/// each family keeps its own checked type inside ([`Checked::new`], [`Checked::take`]).
pub struct Checked {
    family: &'static str,
    inner: Box<dyn Any + Send + Sync>,
}

impl Checked {
    /// `inner`, checked by the family `family` (its name, for the panic of a misuse).
    pub fn new<T: Any + Send + Sync>(family: &'static str, inner: T) -> Checked {
        Checked { family, inner: Box::new(inner) }
    }

    /// The family's checked move.
    ///
    /// # Panics
    /// If it is another family's (a move checked against one game applied to another).
    pub fn take<T: Any>(self) -> T {
        let family = self.family;
        *self.inner.downcast::<T>().unwrap_or_else(|_| panic!("a {family} move given to another family's game"))
    }

    /// The family's checked move, borrowed.
    ///
    /// # Panics
    /// As [`Checked::take`].
    pub fn get<T: Any>(&self) -> &T {
        self.inner.downcast_ref::<T>().unwrap_or_else(|| panic!("a {} move given to another family's game", self.family))
    }
}

impl std::fmt::Debug for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Checked({} move)", self.family)
    }
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

impl vocabulary::ThinkingLimit for Budget {
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
    #[error("a {kind} move is not a move of a {family} game")]
    WrongFamily {
        /// The game's family, by name ("tile", "chain").
        family: &'static str,
        /// The kind sent.
        kind: &'static str,
    },
    /// A word graph could not be loaded (a deployment fault, not the caller's).
    #[error("word graph unavailable")]
    Lexicon(#[from] engine::LexiconError),
    /// A stored game does not replay (a corrupt setup or journal).
    #[error("stored game does not replay: {0}")]
    Replay(String),
    /// No family here plays the variant: its family was never added to the service's
    /// [`crate::Families`] (a deployment fault, not the caller's).
    #[error("no family here plays the {0} family's games")]
    NoFamily(&'static str),
}

/// One game of some family, in play or over. Every method but `apply` and `set_deadline` leaves
/// it unchanged. What a family shows (views, hints, scores, entries, its timeline) is its own
/// data, handed on as JSON ([`crate::open`]); nothing outside the family names its types.
pub trait Position: Send + Sync {
    /// Number of seats.
    fn seats(&self) -> usize;
    /// The seat to move (meaningless once over). One seat moves at a time in every family: a
    /// move is answered by the next, and the service's turn, clock and robot loop rely on it.
    fn to_move(&self) -> Seat;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// Moves applied so far; the next move's number.
    fn move_count(&self) -> u32;
    /// Each seat's points (final once over).
    fn scores(&self) -> Vec<i32>;
    /// How it ended.
    fn outcome(&self) -> Option<Outcome>;
    /// What the end reveals besides who won (each seat's leftover tiles); only asked once over.
    fn revealed(&self) -> Revealed;
    /// Sets the current turn's deadline (applying a move clears it).
    fn set_deadline(&mut self, deadline: Option<Timestamp>);
    /// The journal entry `move_no`.
    fn entry(&self, move_no: u32) -> Option<Entry>;
    /// What `viewer` may see of journal entry `move_no`: the one place that decides it.
    fn entry_view(&self, move_no: u32, viewer: Viewer) -> Option<EntryView>;
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
    /// [`GameError::Rejected`] once the game is over (and, in a family whose moves depend on the
    /// last one, the chain, when `seat` is not to move); [`GameError::Lexicon`].
    fn hints(&self, seat: Seat, limit: usize, budget: Budget) -> Result<Vec<Hint>, GameError>;
    /// The move of a robot of `level` for the seat to move, its choices seeded by `seed`, its
    /// thinking stopped by `budget` (an instant, or counted rounds and nodes), playing `against`
    /// a person or robots (a family whose robots judge what a person can answer reads it; the
    /// tile games' robots play the same against either); `None` when it has no move (the game
    /// is then over).
    ///
    /// # Errors
    /// [`GameError::Lexicon`].
    fn robot(&self, level: Level, seed: u64, budget: Budget, against: Opponent) -> Result<Option<RobotMove>, GameError>;
    /// The admin replay's steps, with the family's page for them.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not fold.
    fn timeline(&self) -> Result<Timeline, GameError>;
    /// The game in the family's exchange format with `header`'s id, names and description (GCG
    /// for a tile game); `None` for a family without one.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not fold.
    fn export(&self, header: &crate::GcgHeader<'_>) -> Option<Result<String, GameError>>;
    /// Each move beside what its family's strongest robot would have done, within counted
    /// budgets (the same on every run).
    ///
    /// # Errors
    /// [`GameError::Lexicon`]; [`GameError::Replay`] for a journal that does not replay.
    fn analysis(&self) -> Result<Analysis, GameError>;
    /// The game without what its family plays with (word lists), for a process to keep between
    /// requests; its family's [`crate::FamilyRules::resume`] plays it again.
    fn state(&self) -> GameState;
}

/// A replayed game, owned and free of the word lists: what [`Position::state`] keeps, for its
/// family's [`FamilyRules::resume`]. Cloning it is cheap (shared).
#[derive(Clone)]
pub struct GameState(std::sync::Arc<dyn Any + Send + Sync>);

impl GameState {
    /// A family's own `state`.
    pub fn new<T: Any + Send + Sync>(state: T) -> GameState {
        GameState(std::sync::Arc::new(state))
    }

    /// The family's state.
    ///
    /// # Panics
    /// If it is another family's.
    pub fn get<T: Any>(&self) -> &T {
        self.0.downcast_ref::<T>().expect("a game state resumed by its own family")
    }
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GameState")
    }
}
