//! What a use case can fail with; the HTTP crate maps each to a status and a code.

use engine::Rejection;

/// A use case's failure.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The request is well-formed but asks for something impossible (unknown variant, bad seats).
    #[error("{message}")]
    Invalid {
        /// A stable snake_case code: unknown_variant, bad_opponents, unknown_robot_level,
        /// bad_turn_seconds, robot_identity.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
    /// No such game (or account).
    #[error("not found")]
    NotFound,
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
            other => ServiceError::Store(other),
        }
    }
}
