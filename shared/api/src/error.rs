//! The one mapping from failures to HTTP status and machine-readable code.

use lambda_http::{Body, Response};
use serde_json::{Value, json};
use service::{ReservedIdentity, ServiceError};

/// An error answer: status, stable code, message and optional details.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// Stable snake_case code.
    pub code: &'static str,
    /// Human-readable message (never internal detail).
    pub message: String,
    /// Structured details, or null.
    pub details: Value,
    /// Seconds after which a retry may succeed (`Retry-After`), for 503 answers.
    pub retry_after: Option<u32>,
    /// Whether the request may be retried at once on a fresh connection (the database
    /// connection broke under it and nothing was committed).
    pub retry_now: bool,
}

impl ApiError {
    /// An error with no details.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), details: Value::Null, retry_after: None, retry_now: false }
    }

    /// The JSON response (with `Retry-After` when set).
    pub fn response(&self) -> Response<Body> {
        let body = json!({ "error": { "code": self.code, "message": self.message, "details": self.details } });
        let mut response = crate::handlers::json_response(self.status, &body);
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert("retry-after", seconds.into());
        }
        response
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        match e {
            ServiceError::Invalid { code, message } => ApiError::new(400, code, message),
            ServiceError::ReservedIdentity(which) => ApiError::new(
                403,
                match which {
                    ReservedIdentity::Robot => "robot_identity",
                    ReservedIdentity::Placeholder => "placeholder_identity",
                },
                e.to_string(),
            ),
            ServiceError::NotFound => ApiError::new(404, "not_found", "no such game"),
            ServiceError::AccountNotFound(id) => {
                ApiError { details: json!({ "account_id": id }), ..ApiError::new(404, "account_not_found", e.to_string()) }
            }
            ServiceError::TooManyOpenGames { limit } => {
                ApiError { details: json!({ "limit": limit }), ..ApiError::new(409, "too_many_open_games", e.to_string()) }
            }
            ServiceError::IdempotencyKeyReused => ApiError::new(422, "idempotency_key_reused", e.to_string()),
            ServiceError::NotStarted => ApiError::new(409, "not_started", e.to_string()),
            ServiceError::Withdrawn => ApiError::new(409, "game_withdrawn", e.to_string()),
            ServiceError::Unavailable { connection_lost } => {
                ApiError { retry_after: Some(1), retry_now: connection_lost, ..ApiError::new(503, "unavailable", e.to_string()) }
            }
            ServiceError::NotYourGame => ApiError::new(403, "not_your_game", "you have no seat in this game"),
            ServiceError::StaleMove { expected, actual } => ApiError {
                details: json!({ "expected_move_no": expected, "move_count": actual }),
                ..ApiError::new(409, "stale_move", e.to_string())
            },
            ServiceError::Conflict => ApiError::new(409, "conflict", e.to_string()),
            ServiceError::NotOpen => ApiError::new(409, "not_open", e.to_string()),
            ServiceError::AlreadySeated => ApiError::new(409, "already_seated", e.to_string()),
            ServiceError::Rejected(r) => ApiError { details: rejection_details(&r), ..ApiError::new(422, r.code(), r.to_string()) },
            ServiceError::Store(_) | ServiceError::Replay(_) | ServiceError::Lexicon(_) => {
                tracing::error!(error = ?e, cause = %error_chain(&e), "internal error");
                ApiError::new(500, "internal", "internal error")
            }
        }
    }
}

/// Every cause of `e`, joined.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

fn rejection_details(r: &engine::Rejection) -> Value {
    use engine::Rejection as R;
    match r {
        R::NotYourTurn { to_move } => json!({ "to_move": to_move.index() }),
        R::OffBoard { square } => json!({ "square": square }),
        R::DuplicateSquare { square }
        | R::Gap { square }
        | R::MissingLetter { square }
        | R::BlankWithoutLetter { square }
        | R::SquareOccupied { square } => {
            json!({ "square": square.to_string() })
        }
        R::LetterNotInAlphabet { letter } => json!({ "letter": letter.to_string() }),
        R::TileNotOnRack { tile } => json!({ "tile": tile }),
        R::InvalidWords { words } | R::WordAlreadyPlayed { words } => json!({ "words": words }),
        R::BagTooSmall { bag, needed } => json!({ "bag": bag, "needed": needed }),
        _ => Value::Null,
    }
}
