//! Lambda function for `GET /_gm/accounts/{id}`, admins only: everything but the route lives in the shared
//! `api` crate.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::lambda::run(api::Route::AdminAccount).await
}
