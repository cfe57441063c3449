//! The local gateway's development sign-in, for the web app: `GET /_dev/accounts` lists the
//! demo accounts and `POST /_dev/token` with `{"account": "alice"}` mints the token `wordgame
//! token --account alice` prints. Only `wordgame serve` answers these: they are not in the route
//! table, so no Lambda function serves them and no deployment has them.

use api::{ApiError, HttpCode, jwt};
use serde_json::json;

/// The demo accounts `serve` creates at start-up (`wordgame token --account alice`).
pub const DEMO_ACCOUNTS: [&str; 3] = ["alice", "bob", "director"];

/// Days a token minted here lasts, as `wordgame token`'s default.
const TOKEN_DAYS: i64 = 30;

/// The answer to a `/_dev/*` request, or `None` when `path` is not one; named `request_id`
/// (`x-request-id`, and in an error's body) as every answer of the local gateway.
pub fn answer(
    method: &hyper::Method,
    path: &str,
    body: &[u8],
    now: i64,
    request_id: &str,
) -> Option<lambda_http::Response<lambda_http::Body>> {
    let json = |value: serde_json::Value| {
        let mut response = lambda_http::Response::builder()
            .status(200)
            .header("content-type", "application/json")
            .header("cache-control", "no-store")
            .body(lambda_http::Body::Text(value.to_string()))
            .expect("static headers");
        api::telemetry::answer_headers(response.headers_mut(), request_id);
        response
    };
    match (method, path) {
        (&hyper::Method::GET, "/_dev/accounts") => {
            let accounts: Vec<_> =
                DEMO_ACCOUNTS.iter().map(|name| json!({"name": name, "account_id": jwt::demo_account_id(name)})).collect();
            Some(json(json!({ "accounts": accounts })))
        }
        (&hyper::Method::POST, "/_dev/token") => {
            #[derive(serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            struct TokenBody {
                account: String,
            }
            let asked =
                serde_json::from_slice::<TokenBody>(body).map_err(|e| ApiError::new(HttpCode::InvalidBody, e.to_string())).and_then(|b| {
                    DEMO_ACCOUNTS
                        .into_iter()
                        .find(|name| *name == b.account)
                        .ok_or_else(|| ApiError::new(HttpCode::InvalidBody, format!("not a demo account: one of {DEMO_ACCOUNTS:?}")))
                });
            Some(match asked {
                // The account named `director` may run tournaments.
                Ok(name) => json(
                    json!({ "token": jwt::demo_token_in(name, if name == "director" { &["director"] } else { &[] }, TOKEN_DAYS, now) }),
                ),
                Err(e) => e.response(request_id),
            })
        }
        _ if path.starts_with("/_dev/") => {
            Some(ApiError::new(HttpCode::NoRoute, format!("no route for {method} {path}")).response(request_id))
        }
        _ => None,
    }
}
