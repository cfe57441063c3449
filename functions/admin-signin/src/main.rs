//! Lambda function for `GET /_gm/signin`, the admin sign-in through the identity provider's hosted
//! UI: everything but the route lives in the shared `api` crate.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::lambda::run_sign_in().await
}
