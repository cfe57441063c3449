//! The WebSocket API's routes (`$connect`, `$disconnect`, `$default`): everything but the entry
//! point lives in the shared `api` crate (`api::websocket`).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::websocket::run_websocket().await
}
