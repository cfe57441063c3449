//! The HTTP layer shared by every Lambda function and by the local gateway (`wordgame serve`):
//! the route table, identity from the JWT authoriser's claims, request parsing, the one mapping
//! from errors to status codes and machine-readable codes, JSON tracing, and configuration.
//!
//! A handler never returns `Err` to the Lambda runtime (that would be an invocation error, not
//! an HTTP answer): every failure becomes `{"error": {"code", "message", "details",
//! "request_id"}}`, and every answer names its request in `x-request-id`.

mod admin;
pub mod auth;
pub mod aws_push;
pub mod config;
mod error;
pub mod gateway;
mod handlers;
pub mod https;
pub mod iam;
pub mod jwt;
pub mod lambda;
pub mod local_auth;
pub mod oidc;
pub mod push;
mod requests;
mod response;
pub mod routes;
pub mod telemetry;
pub mod tls;
pub mod web;
pub mod websocket;

pub use admin::security_headers as admin_security_headers;
pub use config::{AppState, Config, ConfigError, Database};
pub use error::{ApiError, HttpCode};
pub use handlers::{ANALYSIS_BUDGET, handle};
pub use routes::Route;

/// The allocator of every binary built on this crate (the Lambda functions and `wordgame`):
/// mimalloc, which serves a request's many small, short-lived allocations (JSON, the journal,
/// the view) with less CPU than the system allocator: about 5% more submits per second in the
/// service benchmark (docs/BENCHMARKS.md, "Service").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
