//! Identity: the `sub` claim that API Gateway's authoriser (or the local gateway, the same way)
//! puts in the request context. Nothing else in a request is trusted for identity.
//!
//! Player routes carry the token in the `Authorization` header (API Gateway's JWT authoriser).
//! The admin pages, `/_gm/*`, carry it in the admin session cookie instead, which a browser sends
//! on navigation: `Secure; HttpOnly; SameSite=Strict; Path=/_gm`, so no script reads it, no
//! other site's page sends it, and the browser sends it nowhere but `/_gm/*`; the admin
//! routes' request authoriser (locally, the gateway) accepts it there and only there, and
//! player routes never look at it.

use lambda_http::request::RequestContext;
use lambda_http::{Request, RequestExt};
use service::Caller;
use uuid::Uuid;

use crate::{ApiError, HttpCode};

/// The admin session cookie's name.
pub const ADMIN_COOKIE: &str = "wordgame_admin";

/// The path the admin cookie is scoped to: the admin pages.
pub const ADMIN_PATH: &str = "/_gm";

/// The longest an admin session lasts, in seconds (the cookie's `Max-Age` never exceeds it nor
/// the token's own expiry).
pub const ADMIN_SESSION_SECONDS: i64 = 8 * 3600;

/// Whether `path` is an admin page, where the cookie is accepted.
pub fn is_admin_path(path: &str) -> bool {
    path == ADMIN_PATH || path.strip_prefix(ADMIN_PATH).is_some_and(|rest| rest.starts_with('/'))
}

/// The value of cookie `name` in a `Cookie` header.
pub fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').filter_map(|pair| pair.trim().split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v.trim())
}

/// The admin session token of a request's `Cookie` header(s), if any.
pub fn admin_token(req: &Request) -> Option<&str> {
    req.headers().get_all("cookie").iter().filter_map(|v| v.to_str().ok()).find_map(|h| cookie(h, ADMIN_COOKIE))
}

/// The `Set-Cookie` value that keeps `token` as the admin session for `max_age` seconds.
pub fn session_cookie(token: &str, max_age: i64) -> String {
    format!(
        "{ADMIN_COOKIE}={token}; Path={ADMIN_PATH}; Max-Age={}; Secure; HttpOnly; SameSite=Strict",
        max_age.clamp(0, ADMIN_SESSION_SECONDS)
    )
}

/// The `Set-Cookie` value that ends the admin session.
pub fn clear_session_cookie() -> String {
    format!("{ADMIN_COOKIE}=; Path={ADMIN_PATH}; Max-Age=0; Secure; HttpOnly; SameSite=Strict")
}

/// The sign-out form's CSRF token for a session: a digest of the session token, which no other
/// site can read (the cookie is `HttpOnly` and never sent cross-site) and so cannot forge.
pub fn csrf_token(session: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("wordgame-admin-csrf:{session}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..18])
}

/// The id a session is revoked under: a digest of its token, so the database never holds a
/// token that could be replayed.
pub fn session_id(session: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(format!("wordgame-admin-session:{session}").as_bytes()))
}

/// Whether `given` is the CSRF token of `session` (compared in constant time).
pub fn csrf_matches(session: &str, given: &str) -> bool {
    let want = csrf_token(session);
    want.len() == given.len() && want.bytes().zip(given.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// The verified claims of the caller's token: the JWT authoriser's claims, or the context the
/// admin routes' request authoriser returned (the same claims, flattened the same way).
pub fn claims(req: &Request) -> Option<std::collections::HashMap<String, String>> {
    match req.request_context_ref()? {
        RequestContext::ApiGatewayV2(ctx) => {
            let authorizer = ctx.authorizer.as_ref()?;
            if let Some(jwt) = &authorizer.jwt {
                return Some(jwt.claims.clone());
            }
            let fields = &authorizer.fields;
            (!fields.is_empty())
                .then(|| fields.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect())
        }
        // The context is `non_exhaustive`: another kind of event carries no claims this reads.
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
    caller_of(&claims(req).ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "no verified identity"))?)
}

/// The caller named by verified `claims` (a WebSocket's `$connect`, whose token arrives outside
/// a route), as [`caller`] reads them.
///
/// # Errors
/// As [`caller`].
pub fn caller_of(claims: &std::collections::HashMap<String, String>) -> Result<Caller, ApiError> {
    let sub = claims.get("sub").ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "the token has no sub claim"))?;
    let account_id = Uuid::parse_str(sub).map_err(|_| ApiError::new(HttpCode::Unauthenticated, "the token's sub is not a UUID"))?;
    let director = claims.get("cognito:groups").is_some_and(|g| groups_name(g, "director") || groups_name(g, "admin"));
    Ok(Caller::new(account_id, name_claims(claims))?.directing(director))
}

/// The token's name claims, in order of preference (`name`, `preferred_username`,
/// `cognito:username`; never `email`).
pub fn name_claims(claims: &std::collections::HashMap<String, String>) -> impl Iterator<Item = &str> {
    ["name", "preferred_username", "cognito:username"].into_iter().filter_map(|k| claims.get(k)).map(String::as_str)
}

/// Whether a flattened groups claim (API Gateway passes arrays as `[a b]`) names `admin`.
pub fn groups_name_admin(groups: &str) -> bool {
    groups_name(groups, "admin")
}

/// Whether a flattened groups claim names `group`.
pub fn groups_name(groups: &str, group: &str) -> bool {
    groups.trim_matches(|c| c == '[' || c == ']').split([' ', ',']).any(|x| x.trim_matches('"') == group)
}

/// Whether the caller's groups claim names `admin`.
pub fn is_admin(req: &Request) -> bool {
    claims(req).and_then(|c| c.get("cognito:groups").cloned()).is_some_and(|g| groups_name_admin(&g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_scoped_to_the_admin_pages() {
        for p in ["/_gm", "/_gm/", "/_gm/games/x", "/_gm/signin"] {
            assert!(is_admin_path(p), "{p}");
        }
        for p in ["/games", "/_gmx", "/games/_gm/x", "/"] {
            assert!(!is_admin_path(p), "{p}");
        }
        let set = session_cookie("t.o.k", 60);
        assert!(set.starts_with("wordgame_admin=t.o.k; Path=/_gm; Max-Age=60;") && set.ends_with("Secure; HttpOnly; SameSite=Strict"));
        assert!(session_cookie("t", 10 * ADMIN_SESSION_SECONDS).contains(&format!("Max-Age={ADMIN_SESSION_SECONDS};")));
        assert!(clear_session_cookie().contains("Max-Age=0"));
    }

    #[test]
    fn cookies_are_found_by_exact_name() {
        assert_eq!(cookie("a=1; wordgame_admin=xyz; b=2", ADMIN_COOKIE), Some("xyz"));
        assert_eq!(cookie("xwordgame_admin=1", ADMIN_COOKIE), None);
        assert_eq!(cookie("", ADMIN_COOKIE), None);
    }

    #[test]
    fn a_csrf_token_belongs_to_its_session() {
        let t = csrf_token("session-a");
        assert!(csrf_matches("session-a", &t));
        assert!(!csrf_matches("session-b", &t));
        assert!(!csrf_matches("session-a", ""));
        assert!(!csrf_matches("session-a", &t[1..]));
    }

    #[test]
    fn the_admin_group_is_read_from_the_flattened_claim() {
        assert!(groups_name_admin("[admin]") && groups_name_admin("[players admin]") && groups_name_admin("[\"admin\"]"));
        assert!(!groups_name_admin("[administrators]") && !groups_name_admin(""));
    }
}
