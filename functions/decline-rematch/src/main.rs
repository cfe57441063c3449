//! Lambda function for `POST /games/{id}/decline`: everything but the route lives in the shared `api` crate.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::lambda::run(api::Route::DeclineRematch).await
}
