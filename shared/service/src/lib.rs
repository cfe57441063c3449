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
mod runtime;
mod usecases;
mod view;

pub use admin::{AdminAccount, AdminReplay, AdminSeat};
pub use caller::{Caller, NEUTRAL_NAME, ReservedIdentity, clean_name};
pub use entropy::OsEntropy;
pub use error::{ErrorCode, Invalid, ServiceError};
pub use lobby::{MAX_LOBBY_PAGE, MAX_OPEN_PER_VARIANT, OpenGame, OpenGameView, OpenGamesPage};
pub use runtime::{Clock, DrawEntropy, Ids, ManualClock, Runtime, Seeded, Seeds, SystemClock};
pub use usecases::{CreateGame, Hint, MoveOutcome, Opponent, Preview, SubmitMove, Submitted};
pub use view::{ActionView, BoardTile, DrawView, EntryView, ExchangeKind, GameView, ResultView, SeatView, Viewer, entry_view};

use std::sync::Arc;

use engine::Lexicons;
use store::Store;

/// The service: a store, the word graphs, and what varies between runs (clock, entropy, seeds,
/// ids), all given at the composition root.
#[derive(Clone)]
pub struct Service {
    store: Store,
    lexicons: Arc<Lexicons>,
    runtime: Runtime,
}

impl Service {
    /// A service over `store`, reading words from `lexicons` and time, draws, seeds and ids from
    /// `runtime`.
    pub fn new(store: Store, lexicons: Arc<Lexicons>, runtime: Runtime) -> Service {
        Service { store, lexicons, runtime }
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
