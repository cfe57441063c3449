//! What API Gateway does in front of a function, for the local gateway and the tests: match the
//! route, and hand the function an HTTP API (payload 2.0) event carrying the path and query
//! parameters and the JWT authoriser's claims. The event goes through `lambda_http`'s own parser,
//! exactly as in Lambda.

use std::collections::HashMap;

use base64::Engine;
use lambda_http::Request;
use serde_json::{Map, Value, json};

use crate::{ApiError, HttpCode, Route};

/// One incoming HTTP request, as a server received it.
#[derive(Debug, Clone, Default)]
pub struct Incoming<'a> {
    /// The method.
    pub method: &'a str,
    /// The path, without the query.
    pub path: &'a str,
    /// The raw query string, without `?`.
    pub query: &'a str,
    /// Headers (lower-case names).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: &'a [u8],
    /// The verified token's claims, if any.
    pub claims: Option<&'a HashMap<String, String>>,
    /// The request id to report.
    pub request_id: &'a str,
}

/// The longest request target (path and query) API Gateway passes on: its request line limit.
pub const MAX_TARGET: usize = 10 * 1024;

/// Whether `text` holds only what a URI's path or query may (RFC 3986: unreserved and
/// sub-delimiter characters, `:`, `@`, `/`, `?` and percent escapes; other UTF-8 as clients
/// send it unescaped), as API Gateway requires of what it passes on: no space, no control
/// character, none of `"<>\^`{|}`.
fn uri_safe(text: &str) -> bool {
    text.bytes().all(|b| !b.is_ascii() || b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b))
}

/// The route and the Lambda request for `incoming`.
///
/// # Errors
/// 400 `bad_request` for a path or query with a character a URI cannot hold or longer than
/// [`MAX_TARGET`] together (API Gateway refuses those before any function); 404 `no_route` when no
/// route matches the method and path.
pub fn to_lambda(incoming: &Incoming<'_>) -> Result<(Route, Request), ApiError> {
    if incoming.path.len() + incoming.query.len() > MAX_TARGET {
        return Err(ApiError::new(HttpCode::BadRequest, format!("the request target is longer than {MAX_TARGET} bytes")));
    }
    if !uri_safe(incoming.path) || !uri_safe(incoming.query) {
        return Err(ApiError::new(HttpCode::BadRequest, "the path or query holds a character a URI cannot hold"));
    }
    let (route, params) = Route::find(incoming.method, incoming.path)
        .ok_or_else(|| ApiError::new(HttpCode::NoRoute, format!("no route for {} {}", incoming.method, incoming.path)))?;
    let mut query: Map<String, Value> = Map::new();
    for pair in incoming.query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        query.insert(percent_decode(k), Value::String(percent_decode(v)));
    }
    let headers: Map<String, Value> = incoming.headers.iter().map(|(k, v)| (k.to_ascii_lowercase(), Value::String(v.clone()))).collect();
    let (body, base64) = match std::str::from_utf8(incoming.body) {
        Ok(text) => (text.to_string(), false),
        Err(_) => (base64::engine::general_purpose::STANDARD.encode(incoming.body), true),
    };
    let mut context = json!({
        "accountId": "local",
        "apiId": "local",
        "domainName": "localhost",
        "domainPrefix": "localhost",
        "requestId": incoming.request_id,
        "routeKey": format!("{} {}", route.method(), route.path()),
        "stage": "$default",
        "time": "",
        "timeEpoch": 0,
        "http": { "method": incoming.method, "path": incoming.path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "" },
    });
    if let Some(claims) = incoming.claims {
        context["authorizer"] = json!({ "jwt": { "claims": claims, "scopes": null } });
    }
    let event = json!({
        "version": "2.0",
        "routeKey": format!("{} {}", route.method(), route.path()),
        "rawPath": incoming.path,
        "rawQueryString": incoming.query,
        "headers": headers,
        "queryStringParameters": if query.is_empty() { Value::Null } else { Value::Object(query) },
        "pathParameters": if params.is_empty() { Value::Null } else { json!(params) },
        "requestContext": context,
        "body": if incoming.body.is_empty() { Value::Null } else { Value::String(body) },
        "isBase64Encoded": base64,
    });
    let request = lambda_http::request::from_str(&event.to_string()).map_err(|e| ApiError::new(HttpCode::BadRequest, e.to_string()))?;
    Ok((route, request))
}

fn percent_decode(s: &str) -> String {
    let hex = |b: u8| (b as char).to_digit(16);
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_a_uri_cannot_hold_is_a_bad_request_not_a_panic() {
        let long = "a".repeat(70 * 1024);
        let cases = [("/games", "cursor=a b"), ("/games", "x=\u{1}"), ("/games", long.as_str()), ("/games/a b", "")];
        for (path, query) in cases {
            let incoming = Incoming { method: "GET", path, query, ..Incoming::default() };
            let refused = to_lambda(&incoming).map(|_| ()).unwrap_err();
            assert_eq!((refused.status, refused.code), (400, "bad_request"), "{path}?{}", &query[..query.len().min(20)]);
        }
        for query in ["cursor=1.abc&limit=5&x=%20%00", "player=é"] {
            let fine = Incoming { method: "GET", path: "/games", query, ..Incoming::default() };
            assert!(to_lambda(&fine).is_ok(), "{query}");
        }
    }

    #[test]
    fn query_values_are_percent_decoded() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("%D0%96%"), "Ж%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}
