//! The Lambda entry point every function's `main` calls.

use std::sync::Arc;

use lambda_http::{Error, Request, service_fn};

use crate::{AppState, Config, ConfigError, Route, handle, telemetry};

/// Serves `route` in the Lambda runtime: tracing, configuration, the word graphs (from
/// `LEXICON_DIR`) and the pool are set up once per cold start; a bad configuration fails the
/// cold start with a clear message.
///
/// # Errors
/// The configuration error, or the runtime's.
pub async fn run(route: Route) -> Result<(), Error> {
    telemetry::init_json();
    let config = Config::from_env().inspect_err(|e| tracing::error!(error = %e, "bad configuration"))?;
    let lexicons = config.lexicons().inspect_err(|e| tracing::error!(error = %e, "bad configuration"))?;
    // Routes that judge or make moves read their word graphs now, so no request pays for it and
    // a bad layer fails the cold start; the others never read them.
    if route.judges_moves() {
        lexicons
            .load_all()
            .map_err(|e| ConfigError::Lexicons(e.to_string()))
            .inspect_err(|e| tracing::error!(error = %e, "cannot load the word graphs"))?;
    }
    let state =
        AppState::connect(&config, Arc::new(lexicons)).await.inspect_err(|e| tracing::error!(error = %e, "cannot set up the database"))?;
    let state = &state;
    lambda_http::run(service_fn(move |req: Request| async move { Ok::<_, std::convert::Infallible>(handle(state, route, req).await) }))
        .await
}
