//! The admin sign-in against the identity provider in AWS (Cognito's hosted UI, OAuth 2.0
//! authorization code with PKCE) and the check of the token it hands out, for the admin routes'
//! request authoriser: RS256 against the user pool's published keys (cached), issuer, audience
//! (the app client), `token_use` `id`, expiry and the admin group.
//!
//! Sign-in: `GET /_gm/signin` without a code answers a redirect to the hosted UI's `authorize`
//! with a fresh `state` and PKCE challenge, the state and verifier kept in a short-lived cookie
//! scoped to `/_gm/signin` (`SameSite=Lax`: the provider's redirect back is a cross-site
//! navigation). The redirect back brings `code` and `state`: the state must match the cookie's,
//! the code is exchanged with the verifier at the token endpoint, the ID token is checked as the
//! authoriser checks it, and it becomes the admin session cookie (`auth::session_cookie`).
//!
//! The WebSocket API's `$connect` authoriser checks a player's token the same way against the
//! same keys, with the HTTP API's JWT authoriser's rules ([`verify_player_token`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_body_util::Full;
use hyper::body::Bytes;
use serde_json::Value;
use sha2::Digest;

/// The sign-in's settings, from the environment the template gives the admin functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcConfig {
    /// The hosted UI's base URL (`WORDGAME_OIDC_DOMAIN`, e.g. `https://auth.example.org`).
    pub domain: String,
    /// The app client (`WORDGAME_OIDC_CLIENT_ID`): the ID token's audience.
    pub client_id: String,
    /// Where the provider sends the browser back (`WORDGAME_OIDC_REDIRECT_URI`, ending in
    /// `/_gm/signin`; empty for the authoriser, which never redirects).
    pub redirect_uri: String,
    /// The token issuer (`WORDGAME_OIDC_ISSUER`, `https://cognito-idp.REGION.amazonaws.com/POOL`);
    /// its keys are at `ISSUER/.well-known/jwks.json`.
    pub issuer: String,
}

impl OidcConfig {
    /// The settings from the environment; `None` where the domain, client or issuer is missing
    /// (locally).
    pub fn from_env() -> Option<OidcConfig> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Some(OidcConfig {
            domain: var("WORDGAME_OIDC_DOMAIN")?.trim_end_matches('/').to_string(),
            client_id: var("WORDGAME_OIDC_CLIENT_ID")?,
            redirect_uri: var("WORDGAME_OIDC_REDIRECT_URI").unwrap_or_default(),
            issuer: var("WORDGAME_OIDC_ISSUER")?.trim_end_matches('/').to_string(),
        })
    }

    /// The hosted UI URL that starts a sign-in with `state` and the PKCE `challenge`.
    pub fn authorize_url(&self, state: &str, challenge: &str) -> String {
        format!(
            "{}/oauth2/authorize?response_type=code&client_id={}&redirect_uri={}&scope=openid&state={state}&code_challenge={challenge}&code_challenge_method=S256",
            self.domain,
            form_value(&self.client_id),
            form_value(&self.redirect_uri)
        )
    }

    /// The user pool's published signing keys.
    pub fn jwks_url(&self) -> String {
        format!("{}/.well-known/jwks.json", self.issuer)
    }
}

/// Why a sign-in or a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OidcError {
    /// Not a JWT of JSON parts.
    #[error("malformed token")]
    Malformed,
    /// Not RS256, or signed by no key the pool publishes.
    #[error("unknown signing key or algorithm")]
    UnknownKey,
    /// The signature does not verify.
    #[error("bad signature")]
    Signature,
    /// Another issuer, audience or token use.
    #[error("token for another issuer, client or use")]
    Foreign,
    /// Past its `exp`.
    #[error("expired")]
    Expired,
    /// Not in the admin group.
    #[error("not an admin")]
    NotAdmin,
    /// The provider could not be reached or answered an error.
    #[error("identity provider: {0}")]
    Provider(String),
}

/// A fresh PKCE verifier from 32 random bytes, and its S256 challenge.
pub fn pkce(random: &[u8; 32]) -> (String, String) {
    let verifier = URL_SAFE_NO_PAD.encode(random);
    let challenge = URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// The cookie that keeps a sign-in's state and verifier until the provider sends the browser
/// back.
pub const SIGNIN_COOKIE: &str = "wordgame_signin";

/// The `Set-Cookie` value keeping `state` and `verifier` for ten minutes.
pub fn signin_cookie(state: &str, verifier: &str) -> String {
    format!("{SIGNIN_COOKIE}={state}.{verifier}; Path=/_gm/signin; Max-Age=600; Secure; HttpOnly; SameSite=Lax")
}

/// The `Set-Cookie` value that drops the sign-in cookie.
pub fn clear_signin_cookie() -> String {
    format!("{SIGNIN_COOKIE}=; Path=/_gm/signin; Max-Age=0; Secure; HttpOnly; SameSite=Lax")
}

/// One RSA signing key of the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwk {
    /// Its id, named in a token's header.
    pub kid: String,
    /// The modulus, big-endian.
    pub n: Vec<u8>,
    /// The public exponent, big-endian.
    pub e: Vec<u8>,
}

/// The RSA keys of a JWKS document.
///
/// # Errors
/// [`OidcError::Provider`] for a document that is not a JWKS.
pub fn parse_jwks(text: &str) -> Result<Vec<Jwk>, OidcError> {
    let bad = || OidcError::Provider("not a key set".into());
    let doc: Value = serde_json::from_str(text).map_err(|_| bad())?;
    let keys = doc.get("keys").and_then(Value::as_array).ok_or_else(bad)?;
    Ok(keys
        .iter()
        .filter(|k| k["kty"] == "RSA")
        .filter_map(|k| {
            let field = |name: &str| k[name].as_str().and_then(|v| URL_SAFE_NO_PAD.decode(v).ok());
            Some(Jwk { kid: k["kid"].as_str()?.to_string(), n: field("n")?, e: field("e")? })
        })
        .collect())
}

/// The claims of an ID token valid at `now` for `config`'s pool and client, of an admin,
/// flattened as API Gateway flattens claims (arrays as `[a b]`).
///
/// # Errors
/// [`OidcError`] for anything else.
pub fn verify_id_token(token: &str, keys: &[Jwk], config: &OidcConfig, now: i64) -> Result<HashMap<String, String>, OidcError> {
    let claims = signed_claims(token, keys)?;
    if claims.get("iss").and_then(Value::as_str) != Some(config.issuer.as_str())
        || claims.get("aud").and_then(Value::as_str) != Some(config.client_id.as_str())
        || claims.get("token_use").and_then(Value::as_str) != Some("id")
    {
        return Err(OidcError::Foreign);
    }
    let flat = unexpired(claims, now)?;
    if !flat.get("cognito:groups").is_some_and(|g| crate::auth::groups_name_admin(g)) {
        return Err(OidcError::NotAdmin);
    }
    Ok(flat)
}

/// The player tokens the WebSocket API's `$connect` accepts: those the HTTP API's JWT
/// authoriser accepts (the same issuer and audiences, template parameters `JwtIssuer` and
/// `JwtAudience`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerTokens {
    /// The issuer (`WORDGAME_JWT_ISSUER`); its keys are at `ISSUER/.well-known/jwks.json`.
    pub issuer: String,
    /// The accepted app clients (`WORDGAME_JWT_AUDIENCE`, comma-separated).
    pub audiences: Vec<String>,
}

impl PlayerTokens {
    /// The settings from the environment; `None` where the issuer or the audiences are missing.
    pub fn from_env() -> Option<PlayerTokens> {
        let issuer = std::env::var("WORDGAME_JWT_ISSUER").ok().filter(|v| !v.is_empty())?.trim_end_matches('/').to_string();
        let audiences: Vec<String> =
            std::env::var("WORDGAME_JWT_AUDIENCE").ok()?.split(',').map(str::trim).filter(|a| !a.is_empty()).map(str::to_string).collect();
        (!audiences.is_empty()).then_some(PlayerTokens { issuer, audiences })
    }

    /// The issuer's published signing keys.
    pub fn jwks_url(&self) -> String {
        format!("{}/.well-known/jwks.json", self.issuer)
    }
}

/// The claims of a player's token valid at `now`, as API Gateway's JWT authoriser admits it:
/// signed by the issuer's key, its `iss`, an ID token (`token_use` `id`) whose `aud` or an access
/// token (`token_use` `access`) whose `client_id` is one of the audiences, not expired; flattened
/// as that authoriser flattens claims.
///
/// # Errors
/// [`OidcError`] for anything else.
pub fn verify_player_token(token: &str, keys: &[Jwk], tokens: &PlayerTokens, now: i64) -> Result<HashMap<String, String>, OidcError> {
    let claims = signed_claims(token, keys)?;
    let audience = match claims.get("token_use").and_then(Value::as_str) {
        Some("id") => claims.get("aud"),
        Some("access") => claims.get("client_id"),
        _ => None,
    };
    let admitted = audience.and_then(Value::as_str).is_some_and(|a| tokens.audiences.iter().any(|x| x == a));
    if claims.get("iss").and_then(Value::as_str) != Some(tokens.issuer.as_str()) || !admitted {
        return Err(OidcError::Foreign);
    }
    unexpired(claims, now)
}

/// The claims of an RS256 JWT signed by one of `keys`.
fn signed_claims(token: &str, keys: &[Jwk]) -> Result<serde_json::Map<String, Value>, OidcError> {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(OidcError::Malformed);
    };
    let json = |part: &str| -> Result<Value, OidcError> {
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).map_err(|_| OidcError::Malformed)?).map_err(|_| OidcError::Malformed)
    };
    let header = json(h)?;
    if header["alg"] != "RS256" {
        return Err(OidcError::UnknownKey);
    }
    let key = keys.iter().find(|k| Some(k.kid.as_str()) == header["kid"].as_str()).ok_or(OidcError::UnknownKey)?;
    let signature = URL_SAFE_NO_PAD.decode(s).map_err(|_| OidcError::Malformed)?;
    ring::signature::RsaPublicKeyComponents { n: &key.n, e: &key.e }
        .verify(&ring::signature::RSA_PKCS1_2048_8192_SHA256, format!("{h}.{p}").as_bytes(), &signature)
        .map_err(|_| OidcError::Signature)?;
    let Value::Object(claims) = json(p)? else { return Err(OidcError::Malformed) };
    Ok(claims)
}

/// `claims` flattened (arrays as `[a b]`), unless past their `exp` at `now`.
fn unexpired(claims: serde_json::Map<String, Value>, now: i64) -> Result<HashMap<String, String>, OidcError> {
    if claims.get("exp").and_then(Value::as_i64).is_none_or(|exp| exp <= now) {
        return Err(OidcError::Expired);
    }
    Ok(claims
        .into_iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s,
                Value::Array(items) => {
                    format!(
                        "[{}]",
                        items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect::<Vec<_>>().join(" ")
                    )
                }
                other => other.to_string(),
            };
            (k, s)
        })
        .collect())
}

/// The pool's keys, fetched once and kept: refetched after an hour, or (at most once a minute)
/// when a token names a key the cached set lacks (the pool rotated its keys).
#[derive(Default, Clone)]
pub struct KeyCache {
    inner: Arc<Mutex<Option<Fetched>>>,
}

/// A key set and when it was fetched.
type Fetched = (Instant, Vec<Jwk>);

impl KeyCache {
    /// The keys to check a token naming `kid` with: the cached set, or one `fetch` returns.
    ///
    /// # Errors
    /// [`OidcError::Provider`] when the keys are needed and cannot be fetched.
    pub fn keys(&self, kid: Option<&str>, now: Instant, fetch: impl FnOnce() -> Result<String, OidcError>) -> Result<Vec<Jwk>, OidcError> {
        if let Some(keys) = self.fresh(kid, now) {
            return Ok(keys);
        }
        let keys = parse_jwks(&fetch()?)?;
        *self.lock() = Some((now, keys.clone()));
        Ok(keys)
    }

    /// The cached keys, if they may still check a token naming `kid` at `now`.
    pub fn fresh(&self, kid: Option<&str>, now: Instant) -> Option<Vec<Jwk>> {
        let cached = self.lock();
        let (at, keys) = cached.as_ref()?;
        let age = now.saturating_duration_since(*at);
        let fresh =
            age < Duration::from_secs(3600) && (age < Duration::from_secs(60) || kid.is_none_or(|k| keys.iter().any(|j| j.kid == k)));
        fresh.then(|| keys.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Fetched>> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The `kid` a token's header names, if it can be read.
pub fn token_kid(token: &str) -> Option<String> {
    let header = URL_SAFE_NO_PAD.decode(token.split('.').next()?).ok()?;
    serde_json::from_slice::<Value>(&header).ok()?["kid"].as_str().map(str::to_string)
}

/// `value` percent-encoded for a form or query.
pub(crate) fn form_value(value: &str) -> String {
    value.bytes().fold(String::new(), |mut out, b| {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        out
    })
}

/// How long a call to the identity provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(5);

/// The body of an HTTPS request to the provider ([`crate::https`]): `GET url`, or `POST url`
/// with a form body.
///
/// # Errors
/// [`OidcError::Provider`] when the host cannot be reached or answers other than 200.
pub async fn https(url: &str, form: Option<&str>) -> Result<String, OidcError> {
    let fail = |e: &dyn std::fmt::Display| OidcError::Provider(e.to_string());
    if !url.starts_with("https://") {
        return Err(fail(&"not an https URL"));
    }
    let uri: hyper::Uri = url.parse().map_err(|e| fail(&e))?;
    let host = uri.authority().ok_or_else(|| fail(&"no host"))?.to_string();
    let request = hyper::Request::builder().uri(uri.path_and_query().map_or("/", |p| p.as_str())).header("host", host);
    let request = match form {
        Some(body) => request
            .method("POST")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Full::new(Bytes::copy_from_slice(body.as_bytes()))),
        None => request.method("GET").body(Full::new(Bytes::new())),
    }
    .map_err(|e| fail(&e))?;
    let answer = crate::https::send(&uri, request, PROVIDER_TIMEOUT).await.map_err(|e| fail(&e))?;
    if answer.status != 200 {
        return Err(fail(&format!("HTTP {}", answer.status)));
    }
    Ok(answer.body)
}

/// Exchanges a sign-in's `code` (with its PKCE `verifier`) at the token endpoint for the ID token.
///
/// # Errors
/// [`OidcError::Provider`] when the exchange fails.
pub async fn exchange_code(config: &OidcConfig, code: &str, verifier: &str) -> Result<String, OidcError> {
    let url = format!("{}/oauth2/token", config.domain);
    let form = format!(
        "grant_type=authorization_code&client_id={}&code={}&redirect_uri={}&code_verifier={}",
        form_value(&config.client_id),
        form_value(code),
        form_value(&config.redirect_uri),
        form_value(verifier)
    );
    let body = https(&url, Some(&form)).await?;
    let answer: Value = serde_json::from_str(&body).map_err(|_| OidcError::Provider("not a token answer".into()))?;
    answer["id_token"].as_str().map(str::to_string).ok_or_else(|| OidcError::Provider("no id_token".into()))
}

/// The claims of `token` if it is a valid admin ID token, its keys from `cache` (fetched from
/// the pool when needed).
///
/// # Errors
/// [`OidcError`] as [`verify_id_token`], or when the keys cannot be had.
pub async fn check_token(config: &OidcConfig, cache: &KeyCache, token: &str, now: i64) -> Result<HashMap<String, String>, OidcError> {
    verify_id_token(token, &cached_keys(cache, config.jwks_url(), token).await?, config, now)
}

/// The keys to check `token` with, from `cache` or fetched from `url`.
async fn cached_keys(cache: &KeyCache, url: String, token: &str) -> Result<Vec<Jwk>, OidcError> {
    let kid = token_kid(token);
    if let Some(keys) = cache.fresh(kid.as_deref(), Instant::now()) {
        return Ok(keys);
    }
    let text = https(&url, None).await?;
    cache.keys(kid.as_deref(), Instant::now(), || Ok(text))
}

/// The claims a WebSocket connection's authoriser passes on to its routes (`requestContext.authorizer`):
/// the identity [`crate::auth::caller_of`] reads.
const IDENTITY_CLAIMS: [&str; 4] = ["sub", "name", "preferred_username", "cognito:username"];

/// The WebSocket API's `$connect` request authoriser's answer (an IAM policy, the only answer a
/// WebSocket authoriser may give): `execute-api:Invoke` on the event's `methodArn` allowed, with
/// the token's identity claims as the context every route of the connection then receives, when
/// the `token` query parameter (browsers cannot set headers on a WebSocket) holds a player token
/// [`verify_player_token`] admits; denied (API Gateway answers 403) otherwise.
pub async fn authorize_websocket(tokens: &PlayerTokens, cache: &KeyCache, event: &Value, now: i64) -> Value {
    let resource = event["methodArn"].as_str().unwrap_or_default();
    let policy = |effect: &str, principal: &str| {
        serde_json::json!({"principalId": principal, "policyDocument": {"Version": "2012-10-17",
            "Statement": [{"Action": "execute-api:Invoke", "Effect": effect, "Resource": resource}]}})
    };
    let Some(token) = event["queryStringParameters"]["token"].as_str().filter(|t| !t.is_empty()) else {
        tracing::info!(reason = "no token query parameter", "refused");
        return policy("Deny", "anonymous");
    };
    let checked = match cached_keys(cache, tokens.jwks_url(), token).await {
        Ok(keys) => verify_player_token(token, &keys, tokens, now),
        Err(e) => Err(e),
    };
    match checked {
        Ok(claims) => {
            let sub = claims.get("sub").cloned().unwrap_or_default();
            let mut answer = policy("Allow", &sub);
            answer["context"] =
                claims.into_iter().filter(|(k, _)| IDENTITY_CLAIMS.contains(&k.as_str())).map(|(k, v)| (k, Value::String(v))).collect();
            answer
        }
        Err(e) => {
            tracing::info!(reason = %e, "refused");
            policy("Deny", "anonymous")
        }
    }
}

/// Runs the WebSocket API's `$connect` authoriser in the Lambda runtime (function `ws-authorizer`).
///
/// # Errors
/// A missing `WORDGAME_JWT_ISSUER` or `WORDGAME_JWT_AUDIENCE`, or the runtime's error.
pub async fn run_websocket_authorizer() -> Result<(), lambda_http::Error> {
    crate::telemetry::init_json();
    let tokens = PlayerTokens::from_env().ok_or("WORDGAME_JWT_ISSUER and WORDGAME_JWT_AUDIENCE must be set")?;
    let (tokens, cache) = (&tokens, &KeyCache::default());
    lambda_http::lambda_runtime::run(lambda_http::service_fn(move |event: lambda_http::LambdaEvent<Value>| async move {
        Ok::<_, lambda_http::Error>(authorize_websocket(tokens, cache, &event.payload, chrono::Utc::now().timestamp()).await)
    }))
    .await
}

/// The admin routes' request authoriser's answer to an HTTP API authoriser event (payload 2.0,
/// simple responses): authorised, with the token's identity claims as the context the handlers
/// read (`auth::claims`), when the admin session cookie holds a valid admin ID token; refused
/// otherwise (no cookie, or a forged, expired, foreign or non-admin token).
pub async fn authorize(config: &OidcConfig, cache: &KeyCache, event: &Value, now: i64) -> Value {
    let from_list = event["cookies"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find_map(|c| crate::auth::cookie(c, crate::auth::ADMIN_COOKIE));
    let from_header = event["headers"]["cookie"].as_str().and_then(|h| crate::auth::cookie(h, crate::auth::ADMIN_COOKIE));
    let Some(token) = from_list.or(from_header) else {
        tracing::info!(reason = "no admin session cookie", "refused");
        return serde_json::json!({"isAuthorized": false});
    };
    match check_token(config, cache, token, now).await {
        Ok(claims) => {
            let keep = ["sub", "name", "preferred_username", "cognito:username", "cognito:groups", "exp"];
            let context: serde_json::Map<String, Value> =
                claims.into_iter().filter(|(k, _)| keep.contains(&k.as_str())).map(|(k, v)| (k, Value::String(v))).collect();
            serde_json::json!({"isAuthorized": true, "context": context})
        }
        Err(e) => {
            tracing::info!(reason = %e, "refused");
            serde_json::json!({"isAuthorized": false})
        }
    }
}

/// Runs the admin routes' request authoriser in the Lambda runtime (function `admin-authorizer`).
///
/// # Errors
/// A missing `WORDGAME_OIDC_*` setting, or the runtime's error.
pub async fn run_authorizer() -> Result<(), lambda_http::Error> {
    crate::telemetry::init_json();
    let config = OidcConfig::from_env().ok_or("WORDGAME_OIDC_DOMAIN, _CLIENT_ID, _REDIRECT_URI and _ISSUER must be set")?;
    let (config, cache) = (&config, &KeyCache::default());
    lambda_http::lambda_runtime::run(lambda_http::service_fn(move |event: lambda_http::LambdaEvent<Value>| async move {
        Ok::<_, lambda_http::Error>(authorize(config, cache, &event.payload, chrono::Utc::now().timestamp()).await)
    }))
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A throwaway RSA key made for these tests only (PKCS#1 DER), and its JWKS.
    const TEST_KEY: &[u8] = include_bytes!("../tests/fixtures/oidc-test-key.der");
    const TEST_JWKS: &str = include_str!("../tests/fixtures/oidc-test-jwks.json");

    fn config() -> OidcConfig {
        OidcConfig {
            domain: "https://auth.example.org".into(),
            client_id: "client-1".into(),
            redirect_uri: "https://api.example.org/_gm/signin".into(),
            issuer: "https://cognito-idp.eu-west-1.amazonaws.com/pool".into(),
        }
    }

    fn signed(header: &Value, claims: &Value) -> String {
        let input = format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let key = ring::signature::RsaKeyPair::from_der(TEST_KEY).unwrap();
        let mut sig = vec![0; key.public().modulus_len()];
        key.sign(&ring::signature::RSA_PKCS1_SHA256, &ring::rand::SystemRandom::new(), input.as_bytes(), &mut sig).unwrap();
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig))
    }

    fn claims(now: i64) -> Value {
        json!({"sub": "3f1c8a0e-0000-4000-8000-000000000001", "iss": config().issuer, "aud": "client-1", "token_use": "id",
               "exp": now + 600, "cognito:groups": ["admin"], "name": "Root"})
    }

    fn header() -> Value {
        json!({"alg": "RS256", "kid": "test-key-1"})
    }

    #[test]
    fn an_admin_id_token_of_the_pool_verifies() {
        let keys = parse_jwks(TEST_JWKS).unwrap();
        let c = verify_id_token(&signed(&header(), &claims(1000)), &keys, &config(), 1000).unwrap();
        assert_eq!((c["name"].as_str(), c["cognito:groups"].as_str()), ("Root", "[admin]"));
    }

    #[test]
    fn every_other_token_is_refused() {
        let keys = parse_jwks(TEST_JWKS).unwrap();
        let now = 1000;
        let with = |f: &dyn Fn(&mut Value)| {
            let mut c = claims(now);
            f(&mut c);
            signed(&header(), &c)
        };
        let cases: Vec<(String, OidcError)> = vec![
            (with(&|c| c["exp"] = json!(now)), OidcError::Expired),
            (with(&|c| c["iss"] = json!("https://evil.example")), OidcError::Foreign),
            (with(&|c| c["aud"] = json!("another-client")), OidcError::Foreign),
            (with(&|c| c["token_use"] = json!("access")), OidcError::Foreign),
            (with(&|c| c["cognito:groups"] = json!(["players"])), OidcError::NotAdmin),
            (with(&|c| drop(c.as_object_mut().unwrap().remove("cognito:groups"))), OidcError::NotAdmin),
            (signed(&json!({"alg": "RS256", "kid": "rotated-away"}), &claims(now)), OidcError::UnknownKey),
            (signed(&json!({"alg": "HS256", "kid": "test-key-1"}), &claims(now)), OidcError::UnknownKey),
            ("a.b".to_string(), OidcError::Malformed),
        ];
        for (token, want) in cases {
            assert_eq!(verify_id_token(&token, &keys, &config(), now), Err(want.clone()), "{want}");
        }
        // A valid token with one claim changed after signing: forged.
        let good = signed(&header(), &claims(now));
        let parts: Vec<&str> = good.split('.').collect();
        let mut c = claims(now);
        c["sub"] = json!("someone-else");
        let forged = format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(c.to_string()), parts[2]);
        assert_eq!(verify_id_token(&forged, &keys, &config(), now), Err(OidcError::Signature));
    }

    #[test]
    fn keys_are_fetched_once_and_again_for_an_unknown_kid() {
        let cache = KeyCache::default();
        let start = Instant::now();
        let fetches = std::cell::Cell::new(0);
        let fetch = || {
            fetches.set(fetches.get() + 1);
            Ok(TEST_JWKS.to_string())
        };
        cache.keys(Some("test-key-1"), start, fetch).unwrap();
        cache.keys(Some("test-key-1"), start + Duration::from_secs(600), fetch).unwrap();
        assert_eq!(fetches.get(), 1, "cached");
        cache.keys(Some("new-key"), start + Duration::from_secs(30), fetch).unwrap();
        assert_eq!(fetches.get(), 1, "an unknown kid refetches at most once a minute");
        cache.keys(Some("new-key"), start + Duration::from_secs(700), fetch).unwrap();
        assert_eq!(fetches.get(), 2, "an unknown kid refetches");
        cache.keys(Some("test-key-1"), start + Duration::from_secs(700 + 3600), fetch).unwrap();
        assert_eq!(fetches.get(), 3, "an hour old");
        let failing = KeyCache::default();
        assert!(failing.keys(None, start, || Err(OidcError::Provider("down".into()))).is_err());
    }

    #[tokio::test]
    async fn the_authoriser_admits_the_cookie_of_an_admin_only() {
        let cache = KeyCache::default();
        cache.keys(None, Instant::now(), || Ok(TEST_JWKS.to_string())).unwrap();
        let now = 1000;
        let good = signed(&header(), &claims(now));
        let event = |cookies: Value| json!({"cookies": cookies, "headers": {}});
        let ok = authorize(&config(), &cache, &event(json!(["other=1", format!("wordgame_admin={good}")])), now).await;
        assert_eq!(ok["isAuthorized"], true);
        assert_eq!((ok["context"]["cognito:groups"].as_str(), ok["context"]["name"].as_str()), (Some("[admin]"), Some("Root")));
        let mut player = claims(now);
        player["cognito:groups"] = json!(["players"]);
        for refused in [
            json!({"headers": {"authorization": format!("Bearer {good}")}}),
            event(json!([format!("wordgame_admin={}", signed(&header(), &player))])),
            event(json!([format!("wordgame_admin={}x", &good[..good.len() - 2])])),
            event(json!(["wordgame_admin="])),
        ] {
            assert_eq!(authorize(&config(), &cache, &refused, now).await, json!({"isAuthorized": false}), "{refused}");
        }
        assert_eq!(
            authorize(&config(), &cache, &event(json!([format!("wordgame_admin={good}")])), now + 600).await["isAuthorized"],
            false,
            "expired"
        );
    }

    fn players() -> PlayerTokens {
        PlayerTokens { issuer: config().issuer, audiences: vec!["client-1".into(), "mobile".into()] }
    }

    #[test]
    fn a_player_token_is_admitted_as_the_jwt_authoriser_admits_it() {
        let keys = parse_jwks(TEST_JWKS).unwrap();
        let now = 1000;
        let mut player = claims(now);
        player["cognito:groups"] = json!(["players"]);
        assert_eq!(verify_player_token(&signed(&header(), &player), &keys, &players(), now).unwrap()["name"], "Root");
        let access = json!({"sub": "s", "iss": config().issuer, "client_id": "mobile", "token_use": "access", "exp": now + 60});
        assert!(verify_player_token(&signed(&header(), &access), &keys, &players(), now).is_ok(), "an access token of a client");
        let with = |f: &dyn Fn(&mut Value)| {
            let mut c = claims(now);
            f(&mut c);
            signed(&header(), &c)
        };
        for (token, want) in [
            (with(&|c| c["aud"] = json!("another-client")), OidcError::Foreign),
            (with(&|c| c["token_use"] = json!("access")), OidcError::Foreign),
            (with(&|c| drop(c.as_object_mut().unwrap().remove("token_use"))), OidcError::Foreign),
            (with(&|c| c["iss"] = json!("https://evil.example")), OidcError::Foreign),
            (with(&|c| c["exp"] = json!(now)), OidcError::Expired),
            (signed(&json!({"alg": "RS256", "kid": "rotated-away"}), &claims(now)), OidcError::UnknownKey),
            (crate::jwt::sign(&claims(now), b"a local key"), OidcError::UnknownKey),
        ] {
            assert_eq!(verify_player_token(&token, &keys, &players(), now), Err(want.clone()), "{want}");
        }
    }

    #[tokio::test]
    async fn the_websocket_authoriser_allows_a_player_token_in_the_query_only() {
        let cache = KeyCache::default();
        cache.keys(None, Instant::now(), || Ok(TEST_JWKS.to_string())).unwrap();
        let now = 1000;
        let arn = "arn:aws:execute-api:eu-west-1:123456789012:abc123/live/$connect";
        let event = |query: Value| json!({"type": "REQUEST", "methodArn": arn, "queryStringParameters": query, "headers": {}});
        let good = signed(&header(), &claims(now));
        let ok = authorize_websocket(&players(), &cache, &event(json!({"token": good})), now).await;
        assert_eq!(ok["policyDocument"]["Statement"][0], json!({"Action": "execute-api:Invoke", "Effect": "Allow", "Resource": arn}));
        assert_eq!(ok["principalId"], claims(now)["sub"]);
        assert_eq!(ok["context"], json!({"sub": claims(now)["sub"], "name": "Root"}), "the identity claims only");
        let mut foreign = claims(now);
        foreign["aud"] = json!("another-client");
        for refused in [
            event(json!({})),
            event(Value::Null),
            event(json!({"token": ""})),
            event(json!({"token": signed(&header(), &foreign)})),
            event(json!({"token": format!("{}x", &good[..good.len() - 2])})),
            event(json!({"token": crate::jwt::demo_token("alice", false, 1, now)})),
        ] {
            let answer = authorize_websocket(&players(), &cache, &refused, now).await;
            assert_eq!(answer["policyDocument"]["Statement"][0]["Effect"], "Deny", "{refused}");
            assert!(answer.get("context").is_none());
        }
    }

    #[tokio::test]
    async fn the_provider_is_called_over_https_only() {
        assert_eq!(https("http://auth.example.org/x", None).await, Err(OidcError::Provider("not an https URL".into())));
    }

    #[test]
    fn the_sign_in_starts_with_a_pkce_challenge_and_its_state() {
        let (verifier, challenge) = pkce(&[7; 32]);
        assert_eq!(verifier.len(), 43);
        assert_eq!(challenge, URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes())));
        let url = config().authorize_url("st8", &challenge);
        assert!(url.starts_with("https://auth.example.org/oauth2/authorize?response_type=code&client_id=client-1&"), "{url}");
        assert!(url.contains("redirect_uri=https%3A%2F%2Fapi.example.org%2F_gm%2Fsignin") && url.ends_with("&code_challenge_method=S256"));
        assert!(signin_cookie("st8", &verifier).contains("Path=/_gm/signin; Max-Age=600; Secure; HttpOnly; SameSite=Lax"));
    }
}
