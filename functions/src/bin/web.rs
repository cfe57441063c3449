//! Lambda function for `GET /`, `GET /web/{id}` and `GET /variants`: the player web app and the
//! variants' tables, public and without a database; everything else lives in the shared `api`
//! crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::Web)
}
