//! Configuration read once at cold start, and the state every handler borrows.
//!
//! Two database modes: `DATABASE_URL` (local: any PostgreSQL URL), or RDS Proxy with IAM
//! authentication (`DB_PROXY_ENDPOINT`, `DB_NAME`, `DB_USER`, optional `DB_PORT`; the region
//! from `AWS_REGION`): the password is a token signed with the credentials `aws-config` loads,
//! renewed when it is ten minutes old by the wall clock, and the proxy's certificate is verified
//! (`verify-full`, against the roots in [`crate::tls`]). Either way the pool is created once per
//! cold start, connects lazily and holds 1–2 connections (`DB_MAX_CONNECTIONS`, default 2).
//! Each request has a time budget (`REQUEST_BUDGET_MS`, default 4 s, under the functions' 5–10 s
//! timeouts); past it the request is answered `503 unavailable` (see [`crate::handle`]).
//! `DB_APP_USER` names the application role the migrate function grants (see
//! [`store::Store::grant_app_role`]); the API functions log in as it (`DB_USER`).
//!
//! In Lambda the word graphs are files (`LEXICON_DIR`, the lexicon layer's `/opt/lexicon`),
//! which keeps each function's zip small; the local gateway and the tests use the graphs
//! compiled into the binary.
//!
//! Each concern in a module of its own: the variables read (`env`), the word graph files
//! (`graphs`), the database connection and its IAM tokens (`database`), and the state handlers
//! share, the composition root of the store, the families and the runtime (`state`).

mod database;
mod env;
mod graphs;
mod state;

pub use database::proxy_options;
pub use env::{Config, ConfigError, DEFAULT_REQUEST_BUDGET, Database, request_budget};
pub use graphs::graph_path;
pub use state::AppState;
