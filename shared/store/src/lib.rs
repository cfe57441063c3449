//! PostgreSQL storage for accounts, games, seats and the move journal. All of the service's SQL
//! lives in this crate. A game's state is never stored: it is rebuilt from its setup and journal
//! by its family (`games::Families::replay`, through the service); the `games` row carries what
//! queries need without a replay. The store speaks only the shared vocabulary (variants, end
//! reasons, move kinds, robot levels) and depends on no game engine.
//!
//! [`Store::grant_app_role`] gives the API functions' database role its rows and nothing more.
//!
//! [`local`] starts a private PostgreSQL from the system's binaries for `wordgame serve` and the
//! tests; [`testing`] gives each test a fresh database on it.

mod accounts;
mod admin;
mod admin_sessions;
mod analyses;
mod error;
mod games;
pub mod local;
mod my_games;
mod outages;
mod push;
mod ratings;
mod results;
mod roles;
mod status;
mod sweep;
pub mod testing;
pub mod timestamp;
mod tournaments;
mod watch;

pub use accounts::{Account, AccountGame, AccountKind, Level, Spectating, robot_account};
pub use admin::{GameFilter, ListedGame, ListedPlayer};
pub use admin_sessions::SpentToken;
pub use analyses::StoredAnalysis;
pub use error::{Conflict, StoreError};
pub use games::{
    ClientMove, DrawRow, DrawnBy, GameRecord, GameStamp, GameTx, GameUpdate, KeyedPick, KnownGame, Limits, LiveGame, NewGame, NewMove,
    OpenGameSummary, Player, SeatRating, SeatStamp, appended,
};
pub use my_games::{LastMove, MyGame, MyGameSeat, MyGamesFilter};
pub use outages::{Outage, OutageSource};
pub use ratings::{RankedPlayer, RatedOpponent, RatingChange, RatingWrite, StoredRating};
pub use roles::{AppRole, RoleNameError};
pub use status::GameStatus;
pub use tournaments::{
    NewTournament, PairingRow, TournamentInvitation, TournamentPlayer, TournamentRecord, TournamentSettings, TournamentStatus,
    TournamentSummary, TournamentTx,
};
pub use watch::Watch;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

/// The project's migrations, embedded from `migrations/`.
pub static MIGRATOR: Migrator = sqlx::migrate!("../../migrations");

/// How long a pooled connection may sit idle before it is pinged on its way out of the pool.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(30);

/// How long a request waits for a connection before it is told the database is unavailable:
/// well under the Lambda functions' 5–10 s timeouts, so the client gets a typed 503 rather
/// than a timeout.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long one SQL statement may run before PostgreSQL cancels it (`statement_timeout`, set on
/// every connection by [`bounded`]): a statement stuck on a lock or a slow plan fails the request
/// with a typed 503 ([`StoreError::Unavailable`]) inside the request budget, its transaction
/// rolled back, instead of holding the connection. Migrations run without it
/// ([`Store::migrate`]).
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(3);

/// `options` with the project's session settings, sent in the startup message (no `SET`):
/// [`STATEMENT_TIMEOUT`]. Every pool connecting by URL connects with these; through RDS Proxy the
/// application role's default carries the timeout instead ([`Store::grant_app_role`]).
pub fn bounded(options: PgConnectOptions) -> PgConnectOptions {
    options.options([("statement_timeout", format!("{}ms", STATEMENT_TIMEOUT.as_millis()))])
}

/// The connect options of the PostgreSQL `url`, [`bounded`].
///
/// # Errors
/// The URL does not parse.
pub fn connect_options(url: &str) -> Result<PgConnectOptions, sqlx::Error> {
    Ok(bounded(url.parse()?))
}

/// For how long after a lost connection every pooled connection is pinged before use.
const SUSPECT_FOR: Duration = Duration::from_secs(10);

/// When a connection was last lost, in milliseconds since [`epoch`] (0: never).
static LOST_AT_MS: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Records that a connection broke (the server restarted, say): for the next seconds every
/// pooled connection is pinged before use, so the other dead ones in the pool are replaced
/// instead of failing the requests that would get them.
pub fn note_connection_lost() {
    LOST_AT_MS.store(epoch().elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
}

/// Whether a connection was lost within [`SUSPECT_FOR`].
fn connections_suspect() -> bool {
    let lost = LOST_AT_MS.load(Ordering::Relaxed);
    lost != 0 && epoch().elapsed().as_millis() as u64 <= lost + SUSPECT_FOR.as_millis() as u64
}

/// The project's pool options, for every pool it opens (pass [`PING_AFTER_IDLE`]). A connection
/// used within the last `ping_after_idle` is handed out as it is, saving the round trip that
/// sqlx's default ping costs every request; an older one (say, after a Lambda instance was
/// frozen, or past a proxy's idle timeout), and every one shortly after a connection was lost
/// ([`note_connection_lost`]), is pinged first and, if dead, replaced by a new one instead of
/// failing a request. A request waits at most [`ACQUIRE_TIMEOUT`] for a connection.
pub fn pool_options(max_connections: u32, ping_after_idle: Duration) -> PgPoolOptions {
    PgPoolOptions::new().max_connections(max_connections).acquire_timeout(ACQUIRE_TIMEOUT).test_before_acquire(false).before_acquire(
        move |conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= ping_after_idle || connections_suspect() {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        },
    )
}

/// The store over a connection pool.
#[derive(Debug, Clone)]
pub struct Store {
    pool: PgPool,
}

impl Store {
    /// A store over `pool`.
    pub fn new(pool: PgPool) -> Store {
        Store { pool }
    }

    /// The pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Applies every migration not yet applied.
    ///
    /// # Errors
    /// [`StoreError::Migrate`] if a migration fails or the history disagrees.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        // A migration may rewrite a large table: on a connection of its own without the
        // statement timeout, closed afterwards so the setting never reaches a request.
        let mut conn = self.pool.acquire().await?.detach();
        sqlx::query("SET statement_timeout = 0").execute(&mut conn).await?;
        let result = MIGRATOR.run(&mut conn).await;
        let _ = sqlx::Connection::close(conn).await;
        Ok(result?)
    }

    /// The versions of the migrations applied so far, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn applied_migrations(&self) -> Result<Vec<i64>, StoreError> {
        Ok(sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version").fetch_all(&self.pool).await?)
    }
}
