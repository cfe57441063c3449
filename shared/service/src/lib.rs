//! The game service's use cases, free of any transport and of any one game family: create a
//! game, view it, submit, preview and hint moves (hints rationed per game), resign, claim a timeout, and the lobby. Every
//! use case rebuilds the game from its setup and journal through the family contract
//! (`games::Families::replay`); a move is validated and appended under the game's row lock.
//! When the next seat is a robot, the robot moves in the same request.

mod admin;
mod analysis;
mod caller;
pub mod clock;
mod drawing;
mod entropy;
mod error;
mod hints;
mod history;
mod idempotency;
mod invitation;
mod limits;
mod lobby;
mod my_games;
mod outages;
mod playout;
pub mod ports;
mod push;
mod rating;
mod rematch;
mod repository;
mod requests;
mod results;
pub mod robot;
mod runtime;
pub mod spectators;
mod standings;
mod sweep;
mod take_hint;
mod tournaments;
mod usecases;
mod view;

pub use admin::{
    ADMIN_GAMES_PAGE, AdminAccount, AdminGameQuery, AdminGamesPage, AdminReplay, AdminSeat, FREQUENT_PAIR_DAYS, FREQUENT_PAIR_GAMES,
    RatedOpponentView,
};
pub use analysis::ANALYSIS_VERSION;
pub use caller::{Caller, NEUTRAL_NAME, clean_name};
pub use drawing::DrawTile;
pub use entropy::OsEntropy;
pub use error::{ErrorCode, ReservedIdentity, ServiceError};
pub use games::{ChallengeRule, Speed, TimeControl, TimeControlKind};
pub use games::{EndReason, EntryView, Hint, Level, Move, PageSeat, Stage, Timeline, UnknownLevel, UnknownVariant, Variant, Viewer};
pub use hints::MAX_HINTS_ALLOWED;
pub use history::{GameVersion, MovesPage};
pub use limits::{MAX_INVITATIONS_FROM_ONE, MAX_OPEN_PER_VARIANT, MAX_UNFINISHED_GAMES};
pub use lobby::{MAX_LOBBY_PAGE, OpenGameView, OpenGamesPage};
pub use my_games::{MAX_MY_GAMES_PAGE, MyGameView, MyGamesPage};
pub use playout::MoveOutcome;
pub use push::{
    CONNECTION_TTL, ClientMessage, InvitationEvent, MAX_CONNECTIONS, MAX_PUSH_MESSAGE, MoveEvent, NoNotifier, Notifier, NotifyFuture,
    ServerReply, TournamentEvent, TournamentEventKind,
};
pub use rating::{MOVES_BEFORE_A_RATED_RESIGNATION, RATED_GAMES_PER_PAIR_PER_DAY, RatingsView, SeatRatingView, aborted};
pub use repository::stored;
pub use requests::{CreateGame, OpenGame, SubmitMove, TableOpponent};
pub use runtime::{Clock, DrawEntropy, Ids, ManualClock, Runtime, Seeded, Seeds, SystemClock};
pub use spectators::{LiveGameView, LiveGamesPage, LiveSeatView, MAX_LIVE_PAGE, MAX_SPECTATOR_DELAY};
pub use standings::{AccountRatings, LeaderboardPage, MAX_LEADERBOARD_PAGE, MeView, RankedView, RatingChangeView, RatingView};
pub use store::{AccountGame, AccountKind, GameStamp, GameStatus, LastMove, ListedGame, ListedPlayer, MyGameSeat, SeatStamp, Spectating};
pub use sweep::{SweepConfig, SweepReport, SweepSleep};
pub use take_hint::Hinted;
pub use tournament::{PairingSystem, TournamentOutcome};
pub use tournaments::{
    CreateTournament, DEFAULT_DRAW_SECONDS, ForfeitSide, MAX_TOURNAMENT_LIST, MAX_TOURNAMENT_NAME, PairingView, RoundView, StandingView,
    TournamentList, TournamentSummaryView, TournamentView,
};
pub use usecases::{Preview, Submitted};
pub use view::{DrawView, DrawingView, GameView, ResultView, SeatView};

use games::Families;
use store::Store;

/// The service: a store, the game families, and what varies between runs (clock, entropy,
/// seeds, ids), all given at the composition root.
#[derive(Clone)]
pub struct Service {
    store: Store,
    families: Families,
    runtime: Runtime,
    notifier: std::sync::Arc<dyn Notifier>,
    /// Where games are kept: `store` itself, or memory in the use cases' unit tests.
    game_store: std::sync::Arc<dyn ports::GameStore>,
    /// Where the accounts the games seat are kept: as `game_store`.
    accounts: std::sync::Arc<dyn ports::AccountStore>,
    /// Where tournaments are kept: as `game_store`.
    tournaments: std::sync::Arc<dyn ports::TournamentStore>,
    /// The games: read with their rebuilt game, and written, through the games this process
    /// keeps (shared by the service's clones).
    games: repository::Games,
    /// The outage this process has seen and not yet recorded (shared by the service's clones).
    outage: outages::Noted,
}

impl Service {
    /// A service over `store`, playing `families`, with time, draws, seeds and ids from
    /// `runtime`.
    pub fn new(store: Store, families: Families, runtime: Runtime) -> Service {
        let game_store: std::sync::Arc<dyn ports::GameStore> = std::sync::Arc::new(store.clone());
        let accounts: std::sync::Arc<dyn ports::AccountStore> = std::sync::Arc::new(store.clone());
        let tournaments: std::sync::Arc<dyn ports::TournamentStore> = std::sync::Arc::new(store.clone());
        let games = repository::Games::new(game_store.clone(), families.clone());
        let notifier = std::sync::Arc::new(NoNotifier);
        Service { store, families, runtime, notifier, game_store, accounts, tournaments, games, outage: outages::Noted::default() }
    }

    /// The service keeping its games, their accounts and the tournaments in `memory` instead
    /// (the rest stays in its store): for the use cases' unit tests.
    pub fn with_memory_store(self, memory: ports::MemoryStore) -> Service {
        let game_store: std::sync::Arc<dyn ports::GameStore> = std::sync::Arc::new(memory.clone());
        let games = repository::Games::new(game_store.clone(), self.families.clone());
        Service { game_store, accounts: std::sync::Arc::new(memory.clone()), tournaments: std::sync::Arc::new(memory), games, ..self }
    }

    /// The service announcing every committed move to `notifier`.
    pub fn with_notifier(self, notifier: std::sync::Arc<dyn Notifier>) -> Service {
        Service { notifier, ..self }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }
}
