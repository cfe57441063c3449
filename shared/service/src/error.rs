//! What a use case can fail with; the HTTP crate maps each to a status and a code.

use engine::Rejection;
use uuid::Uuid;

use crate::ReservedIdentity;

/// A use case's failure.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The request is well-formed but asks for something impossible (unknown variant, bad seats).
    #[error("{message}")]
    Invalid {
        /// A stable snake_case code: unknown_variant, bad_opponents, unknown_robot_level,
        /// bad_turn_seconds, bad_cursor.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The caller's identity is one no token may act as.
    #[error("{}", match .0 {
        ReservedIdentity::Robot => "a robot's identity cannot call the service",
        ReservedIdentity::Placeholder => "the placeholder identity cannot call the service",
    })]
    ReservedIdentity(ReservedIdentity),
    /// No such game.
    #[error("not found")]
    NotFound,
    /// No account with this id (an opponent named by account).
    #[error("no account {0}")]
    AccountNotFound(Uuid),
    /// The caller already has as many open games of the variant as one may.
    #[error("you already have {limit} open games of this variant; withdraw one or wait for an opponent")]
    TooManyOpenGames {
        /// How many one may have.
        limit: u32,
    },
    /// The client move id was already used for another request (a different move, or another
    /// player's): nothing was written.
    #[error("this client_move_id was already used for a different request")]
    IdempotencyKeyReused,
    /// The game has no opponent yet: it can be withdrawn, not resigned or timed out.
    #[error("nobody has joined this game yet; withdraw it instead")]
    NotStarted,
    /// The game was withdrawn by its opener.
    #[error("the game was withdrawn")]
    Withdrawn,
    /// The database cannot be reached now; nothing was written and a retry later may succeed.
    #[error("the service is unavailable; retry shortly")]
    Unavailable {
        /// Whether a connection broke under the request (a retry at once on a fresh connection
        /// may succeed), rather than none being had in time.
        connection_lost: bool,
    },
    /// The caller has no seat in this game.
    #[error("not your game")]
    NotYourGame,
    /// The move was built on a stale state: another move came first.
    #[error("the game has moved on: expected move {expected}, the game is at move {actual}")]
    StaleMove {
        /// The move number the caller expected to make.
        expected: u32,
        /// The game's current move number.
        actual: u32,
    },
    /// The game is not open for joining (already full, finished, or never open).
    #[error("the game is not open")]
    NotOpen,
    /// The caller already has a seat in this game.
    #[error("you are already seated in this game")]
    AlreadySeated,
    /// A concurrent request won the race.
    #[error("a concurrent request changed the game; reload and retry")]
    Conflict,
    /// The rules refuse the move.
    #[error("{0}")]
    Rejected(#[from] Rejection),
    /// Storage failed.
    #[error("storage failure")]
    Store(#[source] store::StoreError),
    /// A word graph could not be loaded (a deployment fault, not the caller's).
    #[error("word graph unavailable")]
    Lexicon(#[from] engine::LexiconError),
    /// A stored game does not replay (corrupt journal).
    #[error("stored game does not replay")]
    Replay(#[from] engine::ReplayError),
}

impl From<store::StoreError> for ServiceError {
    fn from(e: store::StoreError) -> Self {
        match e {
            store::StoreError::NotFound => ServiceError::NotFound,
            store::StoreError::Conflict(_) => ServiceError::Conflict,
            store::StoreError::TooManyOpenGames { limit } => ServiceError::TooManyOpenGames { limit },
            store::StoreError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "database unavailable");
                ServiceError::Unavailable { connection_lost: false }
            }
            store::StoreError::ConnectionLost(cause) => {
                tracing::warn!(error = %cause, "database connection lost");
                ServiceError::Unavailable { connection_lost: true }
            }
            other => ServiceError::Store(other),
        }
    }
}
