//! Development tokens for the local gateway: HS256 JWTs signed with a local key. In AWS, API
//! Gateway's JWT authoriser verifies the identity provider's tokens instead; both hand the
//! handlers the same claims.

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
}

/// A signed token carrying `claims`.
pub fn sign(claims: &Value, secret: &[u8]) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let signing_input = format!("{header}.{payload}");
    let signature = URL_SAFE_NO_PAD.encode(mac(secret, signing_input.as_bytes()).finalize().into_bytes());
    format!("{signing_input}.{signature}")
}

/// The claims of a valid token at `now` (seconds since the epoch), flattened to strings as API
/// Gateway does (arrays as `[a b]`).
///
/// # Errors
/// [`JwtError`] for a malformed, foreign, forged or expired token.
pub fn verify(token: &str, secret: &[u8], now: i64) -> Result<HashMap<String, String>, JwtError> {
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
    let mut claims = serde_json::json!({
        "sub": demo_account_id(name).to_string(),
        "name": name,
        "iss": "wordgame-local",
        "iat": now,
        "exp": now + days * 86_400,
    });
    if admin {
        claims["cognito:groups"] = serde_json::json!(["admin"]);
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
        "use": "admin-signin",
        "jti": jti,
        "iat": now,
        "exp": now + SIGNIN_CODE_SECONDS,
    });
    if admin {
        claims["cognito:groups"] = serde_json::json!(["admin"]);
    }
    sign(&claims, &dev_secret())
}

/// The claims of a valid sign-in code (not yet checked for reuse), and the session token it
/// becomes: the same identity, for [`crate::auth::ADMIN_SESSION_SECONDS`].
///
/// # Errors
/// [`JwtError`] for a malformed, forged or expired code, or a token that is not a sign-in code
/// ([`JwtError::Malformed`]).
pub fn redeem_signin_code(code: &str, secret: &[u8], now: i64) -> Result<(HashMap<String, String>, String), JwtError> {
    let claims = verify(code, secret, now)?;
    if claims.get("use").map(String::as_str) != Some("admin-signin") || !claims.contains_key("jti") {
        return Err(JwtError::Malformed);
    }
    let mut session = serde_json::json!({
        "sub": claims["sub"],
        "iss": "wordgame-local",
        "iat": now,
        "exp": now + crate::auth::ADMIN_SESSION_SECONDS,
    });
    if let Some(name) = claims.get("name") {
        session["name"] = Value::String(name.clone());
    }
    if claims.get("cognito:groups").is_some_and(|g| crate::auth::groups_name_admin(g)) {
        session["cognito:groups"] = serde_json::json!(["admin"]);
    }
    Ok((claims, sign(&session, secret)))
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
        let token = sign(&json!({"sub": "abc", "exp": 100, "cognito:groups": ["admin", "x"]}), b"k");
        let claims = verify(&token, b"k", 99).unwrap();
        assert_eq!(claims["sub"], "abc");
        assert_eq!(claims["cognito:groups"], "[admin x]");
        assert_eq!(verify(&token, b"other", 99), Err(JwtError::Signature));
        assert_eq!(verify(&token, b"k", 100), Err(JwtError::Expired));
        assert_eq!(verify("a.b", b"k", 0), Err(JwtError::Malformed));
        let mut forged = token.clone();
        forged.insert(token.find('.').unwrap() + 2, 'x');
        assert!(verify(&forged, b"k", 0).is_err());
    }

    #[test]
    fn a_signin_code_becomes_a_session_and_nothing_else_does() {
        let secret = dev_secret();
        let code = signin_code("root", true, 1000, "j1");
        let (claims, session) = redeem_signin_code(&code, &secret, 1100).unwrap();
        assert_eq!(claims["jti"], "j1");
        let s = verify(&session, &secret, 1100).unwrap();
        assert_eq!((s["sub"].as_str(), s["cognito:groups"].as_str()), (demo_account_id("root").to_string().as_str(), "[admin]"));
        assert!(!s.contains_key("use"), "a session is no sign-in code");
        assert_eq!(redeem_signin_code(&session, &secret, 1100).map(|_| ()), Err(JwtError::Malformed));
        assert_eq!(redeem_signin_code(&demo_token("root", true, 1, 1000), &secret, 1100).map(|_| ()), Err(JwtError::Malformed));
        assert_eq!(redeem_signin_code(&code, &secret, 1000 + SIGNIN_CODE_SECONDS).map(|_| ()), Err(JwtError::Expired));
        assert_eq!(redeem_signin_code(&code, b"forger", 1100).map(|_| ()), Err(JwtError::Signature));
        let (_, plain) = redeem_signin_code(&signin_code("bob", false, 1000, "j2"), &secret, 1100).unwrap();
        assert!(!verify(&plain, &secret, 1100).unwrap().contains_key("cognito:groups"));
    }
}
