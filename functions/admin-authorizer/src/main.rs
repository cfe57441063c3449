//! The `/_gm/*` routes' Lambda request authoriser: everything but the entry point lives in the
//! shared `api` crate (`api::oidc`).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::oidc::run_authorizer().await
}
