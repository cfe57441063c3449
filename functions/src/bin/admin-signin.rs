//! Lambda function for `GET /_gm/signin`, the admin sign-in through the identity provider's hosted
//! UI: everything but the route lives in the shared `api` crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::SignIn)
}
