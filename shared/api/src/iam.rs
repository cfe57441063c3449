//! IAM authentication for RDS Proxy: a short-lived token (a SigV4-presigned `connect` URL,
//! valid 15 minutes) is the password. It is signed locally with the credentials `aws-config`
//! loads (in Lambda: the function role's); nothing about the database password reaches the
//! function.

use std::time::{Duration, SystemTime};

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{SignableBody, SignableRequest, SignatureLocation, SigningSettings, sign};
use aws_sigv4::sign::v4;

/// How long a token is valid.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(900);

/// A token could not be made.
#[derive(Debug, Clone, thiserror::Error)]
#[error("cannot sign an RDS IAM token: {0}")]
pub struct TokenError(pub String);

/// The RDS IAM auth token for `user` at `host:port` in `region`, signed with `credentials` at
/// `time`.
///
/// # Errors
/// [`TokenError`] if the request cannot be signed.
pub fn auth_token(
    credentials: &Credentials,
    region: &str,
    host: &str,
    port: u16,
    user: &str,
    time: SystemTime,
) -> Result<String, TokenError> {
    let err = |e: &dyn std::fmt::Display| TokenError(e.to_string());
    let identity = credentials.clone().into();
    let mut settings = SigningSettings::default();
    settings.signature_location = SignatureLocation::QueryParams;
    settings.expires_in = Some(TOKEN_LIFETIME);
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name("rds-db")
        .time(time)
        .settings(settings)
        .build()
        .map_err(|e| err(&e))?
        .into();
    let url = format!("https://{host}:{port}/?Action=connect&DBUser={user}");
    let signable = SignableRequest::new("GET", &url, std::iter::empty(), SignableBody::Bytes(&[])).map_err(|e| err(&e))?;
    let (instructions, _) = sign(signable, &params).map_err(|e| err(&e))?.into_parts();
    let mut request = http::Request::builder().uri(&url).body(()).map_err(|e| err(&e))?;
    instructions.apply_to_request_http1x(&mut request);
    Ok(request.uri().to_string().trim_start_matches("https://").to_string())
}

/// The headers that sign a request to an AWS service (SigV4 in the `Authorization` header):
/// `method url` with `headers` (already including `host`) and `body`, for `service` in
/// `region`, with `credentials` at `time`.
///
/// # Errors
/// [`TokenError`] if the request cannot be signed.
pub fn signed_headers(
    credentials: &Credentials,
    region: &str,
    service: &str,
    (method, url): (&str, &str),
    headers: &[(&str, &str)],
    body: &[u8],
    time: SystemTime,
) -> Result<Vec<(String, String)>, TokenError> {
    let err = |e: &dyn std::fmt::Display| TokenError(e.to_string());
    let identity = credentials.clone().into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name(service)
        .time(time)
        .settings(SigningSettings::default())
        .build()
        .map_err(|e| err(&e))?
        .into();
    let signable = SignableRequest::new(method, url, headers.iter().copied(), SignableBody::Bytes(body)).map_err(|e| err(&e))?;
    let (instructions, _) = sign(signable, &params).map_err(|e| err(&e))?.into_parts();
    let mut request = http::Request::builder().method(method).uri(url).body(()).map_err(|e| err(&e))?;
    instructions.apply_to_request_http1x(&mut request);
    Ok(request.headers().iter().map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or_default().to_string())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_a_presigned_connect_url_without_the_scheme() {
        let creds = Credentials::new("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", Some("session".into()), None, "test");
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_400_000);
        let token = auth_token(&creds, "eu-central-1", "proxy.example", 5432, "wordgame_app", time).unwrap();
        assert!(token.starts_with("proxy.example:5432/?Action=connect&DBUser=wordgame_app&"), "{token}");
        for part in [
            "X-Amz-Algorithm=AWS4-HMAC-SHA256",
            "X-Amz-Credential=AKIDEXAMPLE%2F20251129%2Feu-central-1%2Frds-db%2Faws4_request",
            "X-Amz-Expires=900",
            "X-Amz-Security-Token=session",
            "X-Amz-Signature=",
        ] {
            assert!(token.contains(part), "{part} missing in {token}");
        }
        assert_eq!(token, auth_token(&creds, "eu-central-1", "proxy.example", 5432, "wordgame_app", time).unwrap(), "deterministic");
        assert!(!token.contains("wJalrXUtnFEMI"), "the secret key never appears");
    }
}
