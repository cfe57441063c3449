//! Configuration read once at cold start, and the state every handler borrows.

use std::sync::Arc;

use sqlx::postgres::PgPoolOptions;
use store::Store;

/// Configuration from the environment.
#[derive(Debug, Clone)]
pub struct Config {
    /// The PostgreSQL URL.
    pub database_url: String,
    /// Pool size: 1–2 per Lambda instance (each instance serves one request at a time).
    pub max_connections: u32,
}

/// A configuration that cannot work; reported at cold start, not per request.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ConfigError {
    /// A variable is missing.
    #[error("{0} is not set (for local runs: DATABASE_URL=postgres://user@host:port/db)")]
    Missing(&'static str),
    /// A variable does not parse.
    #[error("{name} is invalid: {reason}")]
    Invalid {
        /// The variable.
        name: &'static str,
        /// Why.
        reason: String,
    },
}

impl Config {
    /// Reads `DATABASE_URL` and `DB_MAX_CONNECTIONS` (default 2).
    ///
    /// # Errors
    /// [`ConfigError`] naming the variable.
    pub fn from_env() -> Result<Config, ConfigError> {
        let database_url = std::env::var("DATABASE_URL").map_err(|_| ConfigError::Missing("DATABASE_URL"))?;
        if !database_url.starts_with("postgres://") && !database_url.starts_with("postgresql://") {
            return Err(ConfigError::Invalid { name: "DATABASE_URL", reason: "expected a postgres:// URL".into() });
        }
        let max_connections = match std::env::var("DB_MAX_CONNECTIONS") {
            Ok(v) => v
                .parse()
                .ok()
                .filter(|n| (1..=16).contains(n))
                .ok_or(ConfigError::Invalid { name: "DB_MAX_CONNECTIONS", reason: format!("{v:?} is not 1..=16") })?,
            Err(_) => 2,
        };
        Ok(Config { database_url, max_connections })
    }
}

/// What handlers share: the service (and through it the pool).
#[derive(Clone)]
pub struct AppState {
    /// The use cases.
    pub service: service::Service,
}

impl AppState {
    /// State over a lazily connected pool: nothing touches the network until the first request.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] if the URL does not parse.
    pub fn connect_lazy(config: &Config) -> Result<AppState, ConfigError> {
        let pool = PgPoolOptions::new()
            .max_connections(config.max_connections)
            .connect_lazy(&config.database_url)
            .map_err(|e| ConfigError::Invalid { name: "DATABASE_URL", reason: e.to_string() })?;
        Ok(AppState::new(Store::new(pool)))
    }

    /// State over a store, with the system clock.
    pub fn new(store: Store) -> AppState {
        AppState { service: service::Service::new(store, Arc::new(service::SystemClock)) }
    }
}
