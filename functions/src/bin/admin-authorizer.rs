//! The `/_gm/*` routes' Lambda request authoriser: everything but the entry point lives in the
//! shared `api` crate (`api::oidc`).

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::AdminAuthorizer)
}
