//! Lambda function for `POST /tournaments/{id}/enter`: everything but the route lives in the shared `api` crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::Route(api::Route::EnterTournament))
}
