//! The Lambda entry point every function's `main` calls.

use lambda_http::{Error, Request, service_fn};

use crate::{AppState, Config, Route, handle, telemetry};

/// Serves `route` in the Lambda runtime: tracing, configuration and the pool are set up once
/// per cold start; a bad configuration fails the cold start with a clear message.
///
/// # Errors
/// The configuration error, or the runtime's.
pub async fn run(route: Route) -> Result<(), Error> {
    telemetry::init_json();
    let config = Config::from_env().inspect_err(|e| tracing::error!(error = %e, "bad configuration"))?;
    let state = AppState::connect(&config).await.inspect_err(|e| tracing::error!(error = %e, "cannot set up the database"))?;
    // The word graphs are embedded and read in place: making them ready here costs nothing and
    // keeps the first request from paying for it.
    for variant in engine::Variant::ALL {
        let _ = engine::builtin_graph(variant);
    }
    let state = &state;
    lambda_http::run(service_fn(move |req: Request| async move { Ok::<_, std::convert::Infallible>(handle(state, route, req).await) }))
        .await
}
