//! What a handler reads from a request: path ids, the `limit` query parameter, the JSON body;
//! and the `304` answer.

use lambda_http::{Body, Request, RequestExt, Response};
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::{ApiError, HttpCode};

/// The `limit` query parameter: `default` when absent, else 1..=`max`.
pub(super) fn query_limit(req: &Request, default: usize, max: usize) -> Result<usize, ApiError> {
    match req.query_string_parameters_ref().and_then(|q| q.first("limit")) {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, format!("limit must be 1..={max}"))),
    }
}

/// A query parameter, if given.
pub(super) fn query<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.query_string_parameters_ref().and_then(|q| q.first(name))
}

/// A `true`/`false` query parameter: `None` when absent; `400 invalid_query` for another value.
pub(super) fn query_flag(req: &Request, name: &str) -> Result<Option<bool>, ApiError> {
    match query(req, name) {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::new(HttpCode::InvalidQuery, format!("{name} must be true or false"))),
    }
}

/// The `{id}` path parameter, as given.
pub(super) fn raw_id(req: &Request) -> &str {
    req.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default()
}

/// The `{id}` path parameter as a game id.
pub(super) fn game_id(req: &Request) -> Result<Uuid, ApiError> {
    let raw = req
        .path_parameters_ref()
        .and_then(|p| p.first("id"))
        .ok_or_else(|| ApiError::new(HttpCode::InvalidGameId, "no game id in the path"))?;
    parse_id(raw)
}

/// The `{id}` path parameter as a tournament id.
pub(super) fn tournament_id(req: &Request) -> Result<Uuid, ApiError> {
    let raw = req
        .path_parameters_ref()
        .and_then(|p| p.first("id"))
        .ok_or_else(|| ApiError::new(HttpCode::InvalidGameId, "no tournament id in the path"))?;
    Uuid::parse_str(raw).map_err(|_| ApiError::new(HttpCode::InvalidGameId, format!("{raw:?} is not a tournament id")))
}

/// A UUID from a path segment.
pub(super) fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::new(HttpCode::InvalidGameId, format!("{raw:?} is not a game id")))
}

/// The JSON body as `T`: 400 `malformed_json` if it is not JSON, 400 `invalid_body` if it is
/// not an object (serde would read an array by position) or an object of the wrong shape or types.
pub(super) fn parse_body<T: DeserializeOwned>(req: &Request) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(req.body().as_ref())
        .map_err(|e| ApiError::new(HttpCode::MalformedJson, format!("the body is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::new(HttpCode::InvalidBody, "the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| ApiError::new(HttpCode::InvalidBody, e.to_string()))
}

/// The JSON body as `T`, or `T`'s default for an empty body (an optional body).
pub(super) fn optional_body<T: DeserializeOwned + Default>(req: &Request) -> Result<T, ApiError> {
    if req.body().is_empty() { Ok(T::default()) } else { parse_body(req) }
}

/// `304 Not Modified` with the entity tag the client already holds.
pub(super) fn not_modified(etag: &str) -> Response<Body> {
    Response::builder()
        .status(304)
        .header("etag", etag)
        .body(Body::Empty)
        .expect("a valid status and an entity tag of digits, letters and quotes")
}
