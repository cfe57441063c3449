//! The WebSocket API's `$connect` request authoriser: everything but the entry point lives in the
//! shared `api` crate (`api::oidc`).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::oidc::run_websocket_authorizer().await
}
