//! Lambda function that runs the sweep (`service::Service::sweep`) on each scheduled invocation:
//! everything but the entry point lives in the shared `api` crate.

fn main() -> Result<(), lambda_http::Error> {
    api::lambda::main(api::lambda::Function::Sweep)
}
