//! The game service's use cases, free of any transport: create a game, view it, submit, preview
//! and hint moves, resign, claim a timeout. Every use case rebuilds the game from its seed and
//! journal (`engine::replay`); a move is validated and appended under the game's row lock.
//! When the next seat is a robot, the robot moves in the same request.

mod admin;
mod caller;
mod entropy;
mod error;
mod idempotency;
mod lobby;
pub mod robot;
mod usecases;
mod view;

pub use admin::{AdminAccount, AdminReplay, AdminSeat};
pub use caller::{Caller, NEUTRAL_NAME, ReservedIdentity, clean_name};
pub use entropy::OsEntropy;
pub use error::ServiceError;
pub use lobby::{MAX_LOBBY_PAGE, MAX_OPEN_PER_VARIANT, OpenGame, OpenGameView, OpenGamesPage};
pub use usecases::{CreateGame, Hint, MoveOutcome, Opponent, Preview, SubmitMove, Submitted};
pub use view::{ActionView, BoardTile, DrawView, EntryView, ExchangeKind, GameView, ResultView, SeatView, Viewer, entry_view};

use std::sync::Arc;

use chrono::{DateTime, Utc};
use engine::Lexicons;
use store::Store;

/// Where the current time comes from (the engine never reads it itself).
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// The service: a store, a clock and the word graphs.
#[derive(Clone)]
pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    lexicons: Arc<Lexicons>,
}

impl Service {
    /// A service over `store`, reading time from `clock` and words from `lexicons`.
    pub fn new(store: Store, clock: Arc<dyn Clock>, lexicons: Arc<Lexicons>) -> Service {
        Service { store, clock, lexicons }
    }

    /// The word graph of `variant`.
    ///
    /// # Errors
    /// [`ServiceError::Lexicon`] if it cannot be loaded.
    fn graph(&self, variant: engine::Variant) -> Result<&engine::WordGraph, ServiceError> {
        Ok(self.lexicons.get(variant)?)
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }
}
