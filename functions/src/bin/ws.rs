//! The WebSocket API's routes (`$connect`, `$disconnect`, `$default`): everything but the entry
//! point lives in the shared `api` crate (`api::websocket`).

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::WebSocket)
}
