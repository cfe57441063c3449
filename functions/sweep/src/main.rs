//! Lambda function that runs the sweep (`service::Service::sweep`) on each scheduled invocation:
//! everything but the entry point lives in the shared `api` crate.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::lambda::run_sweep().await
}
