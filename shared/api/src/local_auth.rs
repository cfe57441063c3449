//! The local gateway's authorisers (`wordgame serve`), in place of API Gateway's: a player
//! route's or `/ws`'s identity from a player's development token, an admin page's from the
//! admin session cookie, and the one-time sign-in code that becomes that cookie. Each token is
//! accepted for its own use only ([`jwt::TokenUse`], its audience): a sign-in code is redeemed
//! at `GET /_gm/signin` and nowhere else, once (remembered in the database until it expires, so
//! a restart does not make it usable again), and an admin session is no player's token.

use std::collections::HashMap;

use lambda_http::{Body, Response};

use crate::jwt::{self, TokenUse};
use crate::{ApiError, AppState, HttpCode, auth};

/// The command that prints a one-time admin sign-in URL for the gateway on `port`.
pub fn signin_command(port: u16) -> String {
    format!("wordgame token --account root --admin --browser --port {port}")
}

/// `GET /_gm/signin?code=…`: a valid, unused admin sign-in code becomes the session cookie and a
/// redirect to the admin's start page; anything else (a code used before, by this process or
/// another over the same database, a token of another use) is refused and sets nothing.
pub async fn sign_in(state: &AppState, query: &str, secret: &[u8], now: i64, request_id: &str) -> Response<Body> {
    let code = query.split('&').find_map(|p| p.strip_prefix("code=")).unwrap_or_default();
    let refused = |why: String| ApiError::new(HttpCode::Unauthenticated, why).response(request_id);
    let (claims, session) = match jwt::redeem_signin_code(code, secret, now) {
        Ok(ok) => ok,
        Err(e) => return refused(format!("invalid sign-in code: {e}")),
    };
    if !claims.get("cognito:groups").is_some_and(|g| auth::groups_name_admin(g)) {
        return ApiError::new(HttpCode::Forbidden, "admins only").response(request_id);
    }
    let expires_at = claims.get("exp").and_then(|e| e.parse::<i64>().ok()).and_then(|e| chrono::DateTime::from_timestamp(e, 0));
    let Some(expires_at) = expires_at else { return refused("the sign-in code has no expiry".to_string()) };
    match state.service.redeem_signin_code(&claims["jti"], expires_at).await {
        Ok(true) => {}
        Ok(false) => return refused("this sign-in code was used already; print a new one".to_string()),
        Err(e) => return ApiError::from(e).response(request_id),
    }
    let mut response = Response::builder()
        .status(303)
        .header("location", auth::ADMIN_PATH)
        .header("set-cookie", auth::session_cookie(&session, auth::ADMIN_SESSION_SECONDS))
        .body(Body::Empty)
        .expect("static headers");
    crate::telemetry::answer_headers(response.headers_mut(), request_id);
    response
}

/// The verified claims of a request to `path`: an admin page's from the admin session cookie
/// (never the header), any other route's from a player's bearer token (never the cookie) or,
/// for a WebSocket (browsers cannot set headers on one), from `?token=…`. `port` is the
/// gateway's, for the sign-in hint.
///
/// # Errors
/// `401 unauthenticated` without a valid token for the path's use.
pub fn claims(
    path: &str,
    headers: &http::HeaderMap,
    query: Option<&str>,
    secret: &[u8],
    now: i64,
    port: u16,
) -> Result<HashMap<String, String>, ApiError> {
    let unauthenticated = |why: String| ApiError::new(HttpCode::Unauthenticated, why);
    if auth::is_admin_path(path) {
        let token = headers.get_all("cookie").iter().filter_map(|v| v.to_str().ok()).find_map(|h| auth::cookie(h, auth::ADMIN_COOKIE));
        let token = token.ok_or_else(|| unauthenticated(format!("no admin session: sign in with `{}`", signin_command(port))))?;
        return jwt::verify(token, secret, now, TokenUse::AdminSession).map_err(|e| unauthenticated(format!("invalid admin session: {e}")));
    }
    let header = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let param = query.and_then(|q| q.split('&').find_map(|p| p.strip_prefix("token=")));
    let token = header.or(param).ok_or_else(|| unauthenticated("no bearer token".into()))?;
    jwt::verify(token.trim(), secret, now, TokenUse::Player).map_err(|e| unauthenticated(format!("invalid token: {e}")))
}
