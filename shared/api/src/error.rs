//! The one mapping from failures to HTTP status and machine-readable code.

use lambda_http::{Body, Response};
use serde_json::{Value, json};
use service::ServiceError;

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
}

impl ApiError {
    /// An error with no details.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), details: Value::Null }
    }

    /// The JSON response.
    pub fn response(&self) -> Response<Body> {
        let body = json!({ "error": { "code": self.code, "message": self.message, "details": self.details } });
        crate::handlers::json_response(self.status, &body)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        match e {
            ServiceError::Invalid { code, message } => ApiError::new(400, code, message),
            ServiceError::NotFound => ApiError::new(404, "not_found", "no such game"),
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
