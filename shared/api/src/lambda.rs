//! The Lambda entry point every function's `main` calls.

use std::sync::Arc;

use lambda_http::aws_lambda_events::apigw::ApiGatewayWebsocketProxyRequest;
use lambda_http::{Error, Request, service_fn};

use crate::{AppState, Config, Route, handle, telemetry};

/// Serves `route` in the Lambda runtime: tracing, configuration and the pool are set up once per
/// cold start, and a bad configuration (a missing graph file included) fails it with a clear
/// message. What a game's family needs is loaded on its first use and kept for the instance's
/// life: one variant's word graph (from `LEXICON_DIR`, checked against this build) for a tile
/// game, the chain's dictionary for a Nối từ game; a route or family that needs neither never
/// pays for them.
///
/// # Errors
/// The configuration error, or the runtime's.
pub async fn run(route: Route) -> Result<(), Error> {
    let (_, _, state) = cold_start().await?;
    let state = &state;
    lambda_http::run(service_fn(move |req: Request| async move { Ok::<_, std::convert::Infallible>(handle(state, route, req).await) }))
        .await
}

/// Serves the WebSocket API's routes in the Lambda runtime (function `ws`): the state as
/// [`run`] sets it up, a message's reply posted to its connection.
///
/// # Errors
/// The configuration error (push must be configured: `PUSH_CONNECTIONS_ENDPOINT`), or the
/// runtime's.
async fn run_websocket() -> Result<(), Error> {
    let (_, _, state) = cold_start().await?;
    let push = state.aws_push().cloned().ok_or("PUSH_CONNECTIONS_ENDPOINT must be set for the WebSocket function")?;
    let (state, push) = (&state, &push);
    lambda_http::lambda_runtime::run(service_fn(move |event: lambda_http::LambdaEvent<ApiGatewayWebsocketProxyRequest>| async move {
        let outcome = crate::websocket::handle_websocket(state, &event.payload).await;
        if let (Some(reply), Some(id)) = (&outcome.reply, event.payload.request_context.connection_id.as_deref()) {
            crate::websocket::reply_to(push, id, reply).await;
        }
        Ok::<serde_json::Value, Error>(serde_json::json!({ "statusCode": outcome.status }))
    }))
    .await
}

/// A cold start's set-up of every function that uses the database: JSON tracing, the
/// configuration from the environment, the word graphs and the state over a lazy pool, a
/// failure logged.
///
/// # Errors
/// The configuration error, or why the pool cannot be set up.
async fn cold_start() -> Result<(Config, Arc<engine::Lexicons>, AppState), Error> {
    telemetry::init_json();
    let config = Config::from_env().inspect_err(|e| tracing::error!(error = %e, "bad configuration"))?;
    let lexicons = Arc::new(config.lexicons().inspect_err(|e| tracing::error!(error = %e, "bad configuration"))?);
    let state =
        AppState::connect(&config, lexicons.clone()).await.inspect_err(|e| tracing::error!(error = %e, "cannot set up the database"))?;
    Ok((config, lexicons, state))
}

/// Serves `GET /_gm/signin` (function `admin-signin`): the sign-in needs the identity provider,
/// not the database, so it runs outside the VPC with no pool.
///
/// # Errors
/// The runtime's.
pub async fn run_sign_in() -> Result<(), Error> {
    telemetry::init_json();
    lambda_http::run(service_fn(|req: Request| async move {
        let request_id = telemetry::request_id(&req);
        let mut response =
            crate::admin::sign_in(&req, crate::oidc::OidcConfig::from_env()).await.unwrap_or_else(|e| e.response(&request_id));
        telemetry::answer_headers(response.headers_mut(), &request_id);
        crate::admin::security_headers(&mut response);
        Ok::<_, std::convert::Infallible>(response)
    }))
    .await
}

/// Runs the scheduled sweep in the Lambda runtime: each invocation (EventBridge Scheduler, every
/// minute) is one [`AppState::sweep`] with the configuration's batch and expiry, answered with
/// what it did; a failure fails the invocation (and is logged), so the next minute retries.
/// With `SWEEP_SLEEP_SECONDS` set, the database may sleep ([`service::SweepSleep`]): an
/// invocation before the next thing falls due answers `{"asleep_until": …}` without touching
/// it, and after a run the pool is closed, so no idle connection of the sweep's keeps a paused
/// database awake (the next run connects afresh).
///
/// # Errors
/// The configuration error, or the runtime's.
pub async fn run_sweep() -> Result<(), Error> {
    let (config, lexicons, state) = cold_start().await?;
    let awake = tokio::sync::Mutex::new((Some(state), service::SweepSleep::at_most(config.sweep_sleep)));
    let (config, lexicons, awake) = (&config, &lexicons, &awake);
    lambda_http::lambda_runtime::run(service_fn(move |_: lambda_http::LambdaEvent<serde_json::Value>| async move {
        let mut held = awake.lock().await;
        let (state, sleep) = &mut *held;
        let now = chrono::Utc::now();
        if sleep.asleep(now) {
            return Ok::<_, Error>(serde_json::json!({ "asleep_until": sleep.until() }));
        }
        let state = match state {
            Some(state) => state,
            None => state.insert(AppState::connect(config, lexicons.clone()).await?),
        };
        let report = state.sweep(config.sweep).await.inspect_err(|e| tracing::error!(error = %e, "sweep failed"))?;
        sleep.after(now, &report);
        if sleep.until().is_some() {
            state.service.store().pool().close().await;
            held.0 = None;
        }
        Ok(serde_json::to_value(&report)?)
    }))
    .await
}

/// What a function binary serves: one of the API's routes or one of the other entry points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// A route of the HTTP API ([`run`]).
    Route(Route),
    /// The admin sign-in ([`run_sign_in`]).
    SignIn,
    /// The scheduled sweep ([`run_sweep`]).
    Sweep,
    /// The admin pages' cookie authoriser ([`crate::oidc::run_authorizer`]).
    AdminAuthorizer,
    /// The WebSocket API's `$connect` authoriser ([`crate::oidc::run_websocket_authorizer`]).
    WebSocketAuthorizer,
    /// The WebSocket API's routes ([`crate::websocket::handle_websocket`], each reply posted to its connection).
    WebSocket,
    /// The web app and the variants ([`crate::web::run`]): public, no database.
    Web,
}

/// A function binary's whole `main`: a Tokio runtime (as `#[tokio::main]` builds it) running
/// `function`'s loop. Compiled here, once: a binary that awaited the loop itself would compile
/// the whole request path (every async function's state machine) again, about 20 CPU-seconds
/// for each of the 27 release binaries.
///
/// # Errors
/// The runtime's, or the loop's.
#[inline(never)]
pub fn main(function: Function) -> Result<(), Error> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(async move {
        match function {
            Function::Route(route) => run(route).await,
            Function::SignIn => run_sign_in().await,
            Function::Sweep => run_sweep().await,
            Function::AdminAuthorizer => crate::oidc::run_authorizer().await,
            Function::WebSocketAuthorizer => crate::oidc::run_websocket_authorizer().await,
            Function::WebSocket => run_websocket().await,
            Function::Web => crate::web::run().await,
        }
    })
}
