//! The one mapping from failures to HTTP status and machine-readable code.

use lambda_http::{Body, Response};
use serde_json::{Value, json};
use service::{ErrorCode, ServiceError};
use strum::{EnumCount, IntoStaticStr, VariantArray};

/// The codes the HTTP layer itself answers with, before or around a use case, each written as its
/// variant's name in snake_case (`MalformedJson` is `malformed_json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, VariantArray, EnumCount)]
#[strum(serialize_all = "snake_case")]
pub enum HttpCode {
    /// The body is not JSON.
    MalformedJson,
    /// JSON of the wrong shape, types or fields.
    InvalidBody,
    /// The path's id is not a UUID.
    InvalidGameId,
    /// A query parameter out of range.
    InvalidQuery,
    /// No verified identity.
    Unauthenticated,
    /// An admin route without the admin group.
    Forbidden,
    /// No route for the method and path (local gateway).
    NoRoute,
    /// A request the local gateway cannot turn into an event.
    BadRequest,
    /// The body did not arrive within the local gateway's read timeout.
    RequestTimeout,
    /// The body exceeds [`crate::MAX_BODY`].
    BodyTooLarge,
    /// Anything else; the cause is logged, never returned.
    Internal,
}

impl HttpCode {
    /// Every code.
    pub const ALL: [HttpCode; HttpCode::COUNT] = *HttpCode::VARIANTS.first_chunk().unwrap();

    /// The stable snake_case code.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The HTTP status it comes with.
    pub const fn status(self) -> u16 {
        match self {
            HttpCode::MalformedJson | HttpCode::InvalidBody | HttpCode::InvalidGameId | HttpCode::InvalidQuery | HttpCode::BadRequest => {
                400
            }
            HttpCode::Unauthenticated => 401,
            HttpCode::Forbidden => 403,
            HttpCode::NoRoute => 404,
            HttpCode::RequestTimeout => 408,
            HttpCode::BodyTooLarge => 413,
            HttpCode::Internal => 500,
        }
    }
}

/// The status of a service error's code.
const fn status_of(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::UnknownVariant
        | ErrorCode::BadOpponents
        | ErrorCode::UnknownRobotLevel
        | ErrorCode::BadTurnSeconds
        | ErrorCode::BadTimeControl
        | ErrorCode::BadChallengeRule
        | ErrorCode::BadRatingRange
        | ErrorCode::BadCursor
        | ErrorCode::UnknownStatus
        | ErrorCode::UnknownTurn
        | ErrorCode::UnknownMessage
        | ErrorCode::UnknownConnection
        | ErrorCode::BadTournament
        | ErrorCode::BadHints
        | ErrorCode::BadSpectating => 400,
        // Never an HTTP answer: the push socket's reply to an oversized message.
        ErrorCode::MessageTooLarge => 413,
        ErrorCode::RobotIdentity
        | ErrorCode::PlaceholderIdentity
        | ErrorCode::NotYourGame
        | ErrorCode::NotDirector
        | ErrorCode::NotYourEntry => 403,
        ErrorCode::NotFound | ErrorCode::AccountNotFound | ErrorCode::TournamentNotFound => 404,
        ErrorCode::TooManyOpenGames
        | ErrorCode::TooManyGames
        | ErrorCode::TooManyInvitations
        | ErrorCode::AwaitingAcceptance
        | ErrorCode::NotInviter
        | ErrorCode::TooManyConnections
        | ErrorCode::NotStarted
        | ErrorCode::RatedGame
        | ErrorCode::RatingOutOfRange
        | ErrorCode::TimeOver
        | ErrorCode::GameWithdrawn
        | ErrorCode::StaleMove
        | ErrorCode::Conflict
        | ErrorCode::NotOpen
        | ErrorCode::AlreadySeated
        | ErrorCode::NotFinished
        | ErrorCode::NotInvited
        | ErrorCode::TournamentState
        | ErrorCode::AlreadyRegistered
        | ErrorCode::NotRegistered
        | ErrorCode::TournamentStarted
        | ErrorCode::DrawInProgress
        | ErrorCode::NothingToDraw
        | ErrorCode::NoHintsLeft => 409,
        ErrorCode::IdempotencyKeyReused | ErrorCode::WrongFamily => 422,
        ErrorCode::Unavailable => 503,
        ErrorCode::Internal => 500,
    }
}

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
    /// An error of the HTTP layer, with no details.
    pub fn new(code: HttpCode, message: impl Into<String>) -> ApiError {
        ApiError::coded(code.status(), code.as_str(), message)
    }

    fn coded(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), details: Value::Null, retry_after: None, retry_now: false }
    }

    /// The JSON response to request `request_id`, which its body and its `x-request-id` header
    /// name (with `Retry-After` when set).
    pub fn response(&self, request_id: &str) -> Response<Body> {
        let body = json!({ "error": { "code": self.code, "message": self.message, "details": self.details, "request_id": request_id } });
        let mut response = crate::response::json_response(self.status, &body);
        crate::telemetry::answer_headers(response.headers_mut(), request_id);
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert("retry-after", seconds.into());
        }
        response
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        let Some(code) = e.code() else {
            let ServiceError::Rejected(r) = e else { unreachable!("only a rules refusal has no service code") };
            return ApiError { details: r.details, ..ApiError::coded(422, r.code, r.message) };
        };
        let plain = ApiError::coded(status_of(code), code.as_str(), e.to_string());
        match e {
            ServiceError::NotFound => ApiError { message: "no such game".into(), ..plain },
            ServiceError::NotYourGame => ApiError { message: "you have no seat in this game".into(), ..plain },
            ServiceError::AccountNotFound(id) => ApiError { details: json!({ "account_id": id }), ..plain },
            ServiceError::TooManyOpenGames { limit }
            | ServiceError::TooManyGames { limit }
            | ServiceError::TooManyConnections { limit } => ApiError { details: json!({ "limit": limit }), ..plain },
            ServiceError::TooManyInvitations { limit, invitee } => {
                ApiError { details: json!({ "limit": limit, "account_id": invitee }), ..plain }
            }
            ServiceError::Unavailable { connection_lost } => ApiError { retry_after: Some(1), retry_now: connection_lost, ..plain },
            ServiceError::RatingOutOfRange { rating, opener, range } => {
                ApiError { details: json!({ "rating": rating, "opener_rating": opener, "range": range }), ..plain }
            }
            ServiceError::NoHintsLeft { allowed } => ApiError { details: json!({ "hints_allowed": allowed }), ..plain },
            ServiceError::StaleMove { expected, actual } => {
                ApiError { details: json!({ "expected_move_no": expected, "move_count": actual }), ..plain }
            }
            ServiceError::Store(_) | ServiceError::Replay(_) | ServiceError::Lexicon(_) => {
                tracing::error!(error = ?e, cause = %error_chain(&e), "internal error");
                ApiError::new(HttpCode::Internal, "internal error")
            }
            _ => plain,
        }
    }
}

impl From<service::UnknownVariant> for ApiError {
    fn from(e: service::UnknownVariant) -> ApiError {
        ServiceError::from(e).into()
    }
}

impl From<service::UnknownLevel> for ApiError {
    fn from(e: service::UnknownLevel) -> ApiError {
        ServiceError::from(e).into()
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
