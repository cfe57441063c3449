//! Development tokens for the local gateway: HS256 JWTs signed with a local key. In AWS, API
//! Gateway's JWT authoriser verifies the identity provider's tokens instead; both hand the
//! handlers the same claims.
//!
//! Each token says what it is for in its audience (`aud`, a [`TokenUse`]), and [`verify`] takes
//! the use the caller expects: a player's token is no admin session, a one-time sign-in code is
//! neither, and an admin session is no player's token.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    /// Not three base64url parts of JSON.
    #[error("malformed token")]
    Malformed,
    /// Not HS256.
    #[error("unsupported algorithm")]
    Algorithm,
    /// The signature does not match.
    #[error("bad signature")]
    Signature,
    /// Past its `exp`.
    #[error("expired")]
    Expired,
    /// A token for another use (its audience is not the one expected).
    #[error("a token for another use")]
    OtherUse,
}

/// What a development token is for: its audience (`aud`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenUse {
    /// A player's bearer token (`wordgame token`), for the player routes and `/ws`.
    Player,
    /// A one-time admin sign-in code, for `GET /_gm/signin?code=` only.
    AdminSignIn,
    /// An admin session, for the admin session cookie on `/_gm/*` only.
    AdminSession,
}

impl TokenUse {
    /// The audience naming this use.
    pub const fn audience(self) -> &'static str {
        match self {
            TokenUse::Player => "wordgame-player",
            TokenUse::AdminSignIn => "wordgame-admin-signin",
            TokenUse::AdminSession => "wordgame-admin-session",
        }
    }
}

/// A signed token carrying `claims`.
pub fn sign(claims: &Value, secret: &[u8]) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let signing_input = format!("{header}.{payload}");
    let signature = URL_SAFE_NO_PAD.encode(mac(secret, signing_input.as_bytes()).finalize().into_bytes());
    format!("{signing_input}.{signature}")
}

/// The claims of a valid token for `expected` use at `now` (seconds since the epoch), flattened
/// to strings as API Gateway does (arrays as `[a b]`).
///
/// # Errors
/// [`JwtError`] for a malformed, foreign, forged or expired token, or one for another use.
pub fn verify(token: &str, secret: &[u8], now: i64, expected: TokenUse) -> Result<HashMap<String, String>, JwtError> {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(JwtError::Malformed);
    };
    let header: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(h).map_err(|_| JwtError::Malformed)?).map_err(|_| JwtError::Malformed)?;
    if header.get("alg").and_then(Value::as_str) != Some("HS256") {
        return Err(JwtError::Algorithm);
    }
    let signature = URL_SAFE_NO_PAD.decode(s).map_err(|_| JwtError::Malformed)?;
    mac(secret, format!("{h}.{p}").as_bytes()).verify_slice(&signature).map_err(|_| JwtError::Signature)?;
    let claims: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).map_err(|_| JwtError::Malformed)?).map_err(|_| JwtError::Malformed)?;
    let Value::Object(map) = claims else { return Err(JwtError::Malformed) };
    if map.get("exp").and_then(Value::as_i64).is_some_and(|exp| exp <= now) {
        return Err(JwtError::Expired);
    }
    if map.get("aud").and_then(Value::as_str) != Some(expected.audience()) {
        return Err(JwtError::OtherUse);
    }
    Ok(map
        .into_iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s,
                Value::Array(items) => format!(
                    "[{}]",
                    items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect::<Vec<_>>().join(" ")
                ),
                other => other.to_string(),
            };
            (k, s)
        })
        .collect())
}

/// The signing key of the local gateway: `WORDGAME_DEV_JWT_SECRET`, or a fixed development key.
/// It signs only local development tokens; deployed APIs verify the identity provider's tokens.
pub fn dev_secret() -> Vec<u8> {
    std::env::var("WORDGAME_DEV_JWT_SECRET").map_or_else(|_| b"wordgame-local-development-secret".to_vec(), String::into_bytes)
}

/// The account id of demo account `name`: a UUID derived from the name, the same every time.
pub fn demo_account_id(name: &str) -> uuid::Uuid {
    use sha2::Digest;
    let digest = Sha256::digest(format!("wordgame-demo-account:{name}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

/// A development token for demo account `name`, valid for `days`, in the admin group if asked.
pub fn demo_token(name: &str, admin: bool, days: i64, now: i64) -> String {
    demo_token_in(name, if admin { &["admin"] } else { &[] }, days, now)
}

/// A development token for demo account `name`, valid for `days`, in `groups` (`admin`,
/// `director`).
pub fn demo_token_in(name: &str, groups: &[&str], days: i64, now: i64) -> String {
    let mut claims = serde_json::json!({
        "sub": demo_account_id(name).to_string(),
        "name": name,
        "iss": "wordgame-local",
        "aud": TokenUse::Player.audience(),
        "iat": now,
        "exp": now + days * 86_400,
    });
    if !groups.is_empty() {
        claims["cognito:groups"] = serde_json::json!(groups);
    }
    sign(&claims, &dev_secret())
}

/// How long a local sign-in code stays usable, in seconds.
pub const SIGNIN_CODE_SECONDS: i64 = 300;

/// A one-time code that signs a browser in to the local gateway's admin pages as demo account
/// `name` (`wordgame token --admin --browser`): a short-lived token for that one use, with a
/// fresh `jti` the gateway accepts once.
pub fn signin_code(name: &str, admin: bool, now: i64, jti: &str) -> String {
    let mut claims = serde_json::json!({
        "sub": demo_account_id(name).to_string(),
        "name": name,
        "iss": "wordgame-local",
        "aud": TokenUse::AdminSignIn.audience(),
        "jti": jti,
        "iat": now,
        "exp": now + SIGNIN_CODE_SECONDS,
    });
    if admin {
        claims["cognito:groups"] = serde_json::json!(["admin"]);
    }
    sign(&claims, &dev_secret())
}

/// A development admin session for demo account `name` (what a redeemed sign-in code becomes),
/// valid for [`crate::auth::ADMIN_SESSION_SECONDS`] from `now`, in the admin group if asked.
pub fn admin_session(name: &str, admin: bool, now: i64) -> String {
    let jti = uuid::Uuid::new_v4().to_string();
    session_for(&jti, &demo_account_id(name).to_string(), Some(name), admin, now, &dev_secret())
}

/// Admin session `jti` (each session its own, so signing one out ends no other) for account
/// `sub`, signed with `secret`.
fn session_for(jti: &str, sub: &str, name: Option<&str>, admin: bool, now: i64, secret: &[u8]) -> String {
    let mut session = serde_json::json!({
        "sub": sub,
        "iss": "wordgame-local",
        "aud": TokenUse::AdminSession.audience(),
        "jti": jti,
        "iat": now,
        "exp": now + crate::auth::ADMIN_SESSION_SECONDS,
    });
    if let Some(name) = name {
        session["name"] = Value::String(name.to_string());
    }
    if admin {
        session["cognito:groups"] = serde_json::json!(["admin"]);
    }
    sign(&session, secret)
}

/// The claims of a valid sign-in code (not yet checked for reuse), and the session token it
/// becomes: the same identity and `jti`, for [`crate::auth::ADMIN_SESSION_SECONDS`].
///
/// # Errors
/// [`JwtError`] for a malformed, forged or expired code, or a token that is not a sign-in code
/// ([`JwtError::OtherUse`]; [`JwtError::Malformed`] for a code without a `jti`).
pub fn redeem_signin_code(code: &str, secret: &[u8], now: i64) -> Result<(HashMap<String, String>, String), JwtError> {
    let claims = verify(code, secret, now, TokenUse::AdminSignIn)?;
    if !claims.contains_key("jti") {
        return Err(JwtError::Malformed);
    }
    let admin = claims.get("cognito:groups").is_some_and(|g| crate::auth::groups_name_admin(g));
    let session = session_for(&claims["jti"], &claims["sub"], claims.get("name").map(String::as_str), admin, now, secret);
    Ok((claims, session))
}

fn mac(secret: &[u8], data: &[u8]) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(secret).expect("HMAC takes keys of any length");
    m.update(data);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_signed_token_verifies_and_a_tampered_one_does_not() {
        let token = sign(&json!({"sub": "abc", "aud": "wordgame-player", "exp": 100, "cognito:groups": ["admin", "x"]}), b"k");
        let claims = verify(&token, b"k", 99, TokenUse::Player).unwrap();
        assert_eq!(claims["sub"], "abc");
        assert_eq!(claims["cognito:groups"], "[admin x]");
        assert_eq!(verify(&token, b"other", 99, TokenUse::Player), Err(JwtError::Signature));
        assert_eq!(verify(&token, b"k", 100, TokenUse::Player), Err(JwtError::Expired));
        assert_eq!(verify("a.b", b"k", 0, TokenUse::Player), Err(JwtError::Malformed));
        let mut forged = token.clone();
        forged.insert(token.find('.').unwrap() + 2, 'x');
        assert!(verify(&forged, b"k", 0, TokenUse::Player).is_err());
    }

    #[test]
    fn a_token_is_accepted_for_its_own_use_only() {
        let secret = dev_secret();
        let tokens = [
            (TokenUse::Player, demo_token("root", true, 1, 1000)),
            (TokenUse::AdminSignIn, signin_code("root", true, 1000, "j1")),
            (TokenUse::AdminSession, admin_session("root", true, 1000)),
        ];
        for (made_for, token) in &tokens {
            for expected in [TokenUse::Player, TokenUse::AdminSignIn, TokenUse::AdminSession] {
                let verified = verify(token, &secret, 1100, expected);
                if expected == *made_for {
                    assert!(verified.is_ok(), "{made_for:?}");
                } else {
                    assert_eq!(verified, Err(JwtError::OtherUse), "{made_for:?} as {expected:?}");
                }
            }
        }
        let no_audience = sign(&json!({"sub": "abc", "exp": 2000}), &secret);
        assert_eq!(verify(&no_audience, &secret, 1100, TokenUse::Player), Err(JwtError::OtherUse));
    }

    #[test]
    fn a_signin_code_becomes_a_session_and_nothing_else_does() {
        let secret = dev_secret();
        let code = signin_code("root", true, 1000, "j1");
        let (claims, session) = redeem_signin_code(&code, &secret, 1100).unwrap();
        assert_eq!(claims["jti"], "j1");
        let s = verify(&session, &secret, 1100, TokenUse::AdminSession).unwrap();
        assert_eq!((s["sub"].as_str(), s["cognito:groups"].as_str()), (demo_account_id("root").to_string().as_str(), "[admin]"));
        assert_eq!(redeem_signin_code(&session, &secret, 1100).map(|_| ()), Err(JwtError::OtherUse));
        assert_eq!(redeem_signin_code(&demo_token("root", true, 1, 1000), &secret, 1100).map(|_| ()), Err(JwtError::OtherUse));
        assert_eq!(redeem_signin_code(&code, &secret, 1000 + SIGNIN_CODE_SECONDS).map(|_| ()), Err(JwtError::Expired));
        assert_eq!(redeem_signin_code(&code, b"forger", 1100).map(|_| ()), Err(JwtError::Signature));
        let (_, plain) = redeem_signin_code(&signin_code("bob", false, 1000, "j2"), &secret, 1100).unwrap();
        assert!(!verify(&plain, &secret, 1100, TokenUse::AdminSession).unwrap().contains_key("cognito:groups"));
    }
}
