//! Lambda function for `POST /_gm/signout`: clears the admin session cookie given the page's CSRF
//! token; everything but the route lives in the shared `api` crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::Route(api::Route::AdminSignOut))
}
