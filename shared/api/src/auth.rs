//! Identity: the `sub` claim that API Gateway's JWT authoriser (or the local gateway, the same
//! way) puts in the request context. Nothing else in a request is trusted for identity.

use lambda_http::request::RequestContext;
use lambda_http::{Request, RequestExt};
use service::Caller;
use uuid::Uuid;

use crate::{ApiError, HttpCode};

/// The verified claims of the caller's token.
pub fn claims(req: &Request) -> Option<&std::collections::HashMap<String, String>> {
    match req.request_context_ref()? {
        RequestContext::ApiGatewayV2(ctx) => ctx.authorizer.as_ref()?.jwt.as_ref().map(|j| &j.claims),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The caller, from the `sub` claim (a UUID) and the token's name claims (`name`, then
/// `preferred_username`, then `cognito:username`; never `email`), cleaned for display.
///
/// # Errors
/// 401 `unauthenticated` without a usable identity; 403 `robot_identity` or
/// `placeholder_identity` for a `sub` no token may act as.
pub fn caller(req: &Request) -> Result<Caller, ApiError> {
    caller_of(claims(req).ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "no verified identity"))?)
}

/// The caller named by verified `claims` (a WebSocket's `$connect`, whose token arrives outside
/// a route), as [`caller`] reads them.
///
/// # Errors
/// As [`caller`].
pub fn caller_of(claims: &std::collections::HashMap<String, String>) -> Result<Caller, ApiError> {
    let sub = claims.get("sub").ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "the token has no sub claim"))?;
    let account_id = Uuid::parse_str(sub).map_err(|_| ApiError::new(HttpCode::Unauthenticated, "the token's sub is not a UUID"))?;
    let names = ["name", "preferred_username", "cognito:username"].iter().filter_map(|k| claims.get(*k)).map(String::as_str);
    Ok(Caller::new(account_id, names)?)
}

/// Whether the caller's groups claim names `admin` (API Gateway passes arrays as `[a b]`).
pub fn is_admin(req: &Request) -> bool {
    claims(req)
        .and_then(|c| c.get("cognito:groups"))
        .is_some_and(|g| g.trim_matches(|c| c == '[' || c == ']').split([' ', ',']).any(|x| x.trim_matches('"') == "admin"))
}
