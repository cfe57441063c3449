//! Lambda function for `GET /_gm/tournaments/{id}`: everything but the route lives in the shared `api` crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::Route(api::Route::AdminTournament))
}
