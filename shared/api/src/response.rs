//! The JSON response every answer and every error is written as.

use lambda_http::{Body, Response};

/// A JSON response with `status`.
pub(crate) fn json_response(status: u16, body: &impl serde::Serialize) -> Response<Body> {
    let text = serde_json::to_string(body)
        .unwrap_or_else(|_| r#"{"error":{"code":"internal","message":"internal error","details":null}}"#.to_string());
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::Text(text))
        .expect("a static header and a valid status")
}
