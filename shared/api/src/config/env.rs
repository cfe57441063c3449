//! The configuration read from the environment (or a test's map), checked once at cold start.

use std::path::PathBuf;
use std::time::Duration;

/// A request's time budget when `REQUEST_BUDGET_MS` is unset: under the shortest function
/// timeout (5 s), so a stalled database is answered with a typed 503, not a Lambda timeout.
pub const DEFAULT_REQUEST_BUDGET: Duration = Duration::from_secs(4);

/// Where the database is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A PostgreSQL URL (local runs, tests).
    Url(String),
    /// RDS Proxy with IAM authentication.
    IamProxy {
        /// The proxy's endpoint host.
        endpoint: String,
        /// Its port.
        port: u16,
        /// The database name.
        database: String,
        /// The database user the role may connect as.
        user: String,
    },
}

/// Configuration from the environment.
#[derive(Debug, Clone)]
pub struct Config {
    /// The database.
    pub database: Database,
    /// Pool size: 1–2 per Lambda instance (each instance serves one request at a time).
    pub max_connections: u32,
    /// With IAM: the PEM file of the roots the database's certificate is verified against
    /// (`DB_CA_FILE`; Profile small connects straight to the cluster, whose certificate an RDS
    /// authority signs); unset, the compiled-in roots of RDS Proxy's ([`crate::tls::PROXY_ROOTS_PEM`]).
    pub db_ca_file: Option<PathBuf>,
    /// Where the word graph files are (`LEXICON_DIR`), if set.
    pub lexicon_dir: Option<PathBuf>,
    /// The application role the migrate function creates and grants (`DB_APP_USER`), if set.
    pub app_user: Option<store::AppRole>,
    /// The sweep's batch (`SWEEP_BATCH`, 1–1000, default 100), run budget
    /// (`SWEEP_BUDGET_SECONDS`, 1–840, default 30) and open games' expiry
    /// (`OPEN_GAME_EXPIRY_SECONDS`, one minute to 90 days, default 7 days).
    pub sweep: service::SweepConfig,
    /// Push: the WebSocket API stage's management endpoint (`PUSH_CONNECTIONS_ENDPOINT`), if
    /// moves are pushed to connections (unset or empty: nothing is posted).
    pub push_endpoint: Option<String>,
    /// Push: the EventBridge bus every committed move is published to (`EVENT_BUS_NAME`).
    pub event_bus: Option<String>,
    /// How long one request may take before it is answered `503 unavailable`
    /// (`REQUEST_BUDGET_MS`, 100–60000, default [`DEFAULT_REQUEST_BUDGET`]).
    pub request_budget: Duration,
    /// The longest the scheduled sweep lets the database sleep when nothing falls due sooner
    /// (`SWEEP_SLEEP_SECONDS`, 0–86400, default 0: it runs at every invocation).
    pub sweep_sleep: chrono::Duration,
}

/// A configuration that cannot work; reported at cold start, not per request.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ConfigError {
    /// A variable is missing.
    #[error("{0} is not set (local runs: DATABASE_URL=postgres://user@host:port/db; AWS: DB_PROXY_ENDPOINT, DB_NAME, DB_USER)")]
    Missing(&'static str),
    /// A variable does not parse.
    #[error("{name} is invalid: {reason}")]
    Invalid {
        /// The variable.
        name: &'static str,
        /// Why.
        reason: String,
    },
    /// The word graphs cannot be had.
    #[error(
        "word graphs: {0} (LEXICON_DIR names the directory `wordgame graphs --out` wrote; in Lambda, /opt/lexicon from the lexicon layer)"
    )]
    Lexicons(String),
    /// AWS credentials or the region could not be had.
    #[error("AWS: {0}")]
    Aws(String),
}

impl Config {
    /// Reads the configuration from the process environment.
    ///
    /// # Errors
    /// [`ConfigError`] naming the variable.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    /// Reads the configuration through `var` (the environment, or a test's map).
    ///
    /// # Errors
    /// [`ConfigError`] naming the variable.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let database = match (var("DATABASE_URL"), var("DB_PROXY_ENDPOINT")) {
            (Some(url), _) => {
                if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
                    return Err(ConfigError::Invalid { name: "DATABASE_URL", reason: "expected a postgres:// URL".into() });
                }
                Database::Url(url)
            }
            (None, Some(endpoint)) => Database::IamProxy {
                endpoint,
                port: match var("DB_PORT") {
                    Some(p) => p.parse().map_err(|_| ConfigError::Invalid { name: "DB_PORT", reason: format!("{p:?} is not a port") })?,
                    None => 5432,
                },
                database: var("DB_NAME").ok_or(ConfigError::Missing("DB_NAME"))?,
                user: var("DB_USER").ok_or(ConfigError::Missing("DB_USER"))?,
            },
            (None, None) => return Err(ConfigError::Missing("DATABASE_URL (or DB_PROXY_ENDPOINT)")),
        };
        let max_connections = match var("DB_MAX_CONNECTIONS") {
            Some(v) => v
                .parse()
                .ok()
                .filter(|n| (1..=16).contains(n))
                .ok_or(ConfigError::Invalid { name: "DB_MAX_CONNECTIONS", reason: format!("{v:?} is not 1..=16") })?,
            None => 2,
        };
        let lexicon_dir = var("LEXICON_DIR").map(PathBuf::from);
        let app_user = match var("DB_APP_USER") {
            Some(name) => {
                Some(store::AppRole::new(&name).map_err(|e| ConfigError::Invalid { name: "DB_APP_USER", reason: e.to_string() })?)
            }
            None => None,
        };
        let mut sweep = service::SweepConfig::default();
        if let Some(v) = var("SWEEP_BATCH") {
            sweep.batch = v
                .parse()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or(ConfigError::Invalid { name: "SWEEP_BATCH", reason: format!("{v:?} is not 1..=1000") })?;
        }
        if let Some(v) = var("SWEEP_BUDGET_SECONDS") {
            let seconds: i64 = v
                .parse()
                .ok()
                .filter(|n| (1..=840).contains(n))
                .ok_or(ConfigError::Invalid { name: "SWEEP_BUDGET_SECONDS", reason: format!("{v:?} is not 1..=840") })?;
            sweep.budget = chrono::Duration::seconds(seconds);
        }
        if let Some(v) = var("OPEN_GAME_EXPIRY_SECONDS") {
            let seconds: i64 = v
                .parse()
                .ok()
                .filter(|n| (60..=90 * 86_400).contains(n))
                .ok_or(ConfigError::Invalid { name: "OPEN_GAME_EXPIRY_SECONDS", reason: format!("{v:?} is not 60..=7776000") })?;
            sweep.open_expiry = chrono::Duration::seconds(seconds);
        }
        // Empty means no posting (the template sets it so when the functions have no route out).
        let push_endpoint = var("PUSH_CONNECTIONS_ENDPOINT").filter(|e| !e.is_empty());
        if let Some(e) = &push_endpoint
            && !e.starts_with("https://")
        {
            return Err(ConfigError::Invalid { name: "PUSH_CONNECTIONS_ENDPOINT", reason: "expected an https:// URL".into() });
        }
        let request_budget = request_budget(&var)?;
        let sweep_sleep = match var("SWEEP_SLEEP_SECONDS") {
            Some(v) => chrono::Duration::seconds(
                v.parse()
                    .ok()
                    .filter(|n| (0..=86_400).contains(n))
                    .ok_or(ConfigError::Invalid { name: "SWEEP_SLEEP_SECONDS", reason: format!("{v:?} is not 0..=86400") })?,
            ),
            None => chrono::Duration::zero(),
        };
        Ok(Config {
            database,
            max_connections,
            db_ca_file: var("DB_CA_FILE").filter(|f| !f.is_empty()).map(PathBuf::from),
            lexicon_dir,
            app_user,
            sweep,
            push_endpoint,
            event_bus: var("EVENT_BUS_NAME"),
            request_budget,
            sweep_sleep,
        })
    }
}

/// The request budget `REQUEST_BUDGET_MS` sets through `var` (milliseconds, 100–60000), else
/// [`DEFAULT_REQUEST_BUDGET`]: for [`Config`], and for the local gateway, which reads no other
/// variable of it.
///
/// # Errors
/// [`ConfigError::Invalid`] when it is not a number in range.
pub fn request_budget(var: impl Fn(&str) -> Option<String>) -> Result<Duration, ConfigError> {
    let Some(v) = var("REQUEST_BUDGET_MS") else { return Ok(DEFAULT_REQUEST_BUDGET) };
    v.parse()
        .ok()
        .filter(|ms| (100..=60_000).contains(ms))
        .map(Duration::from_millis)
        .ok_or(ConfigError::Invalid { name: "REQUEST_BUDGET_MS", reason: format!("{v:?} is not 100..=60000 (milliseconds)") })
}

/// A test's environment: `pairs`, nothing else.
#[cfg(test)]
pub(super) fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: std::collections::HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |name| map.get(name).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_are_read_and_bad_configuration_is_named() {
        let c = Config::from_vars(vars(&[("DATABASE_URL", "postgres://u@h/db")])).unwrap();
        assert_eq!((c.database, c.max_connections), (Database::Url("postgres://u@h/db".into()), 2));
        let c = Config::from_vars(vars(&[
            ("DB_PROXY_ENDPOINT", "p.example"),
            ("DB_NAME", "wordgame"),
            ("DB_USER", "app"),
            ("DB_MAX_CONNECTIONS", "1"),
        ]))
        .unwrap();
        assert_eq!(
            c.database,
            Database::IamProxy { endpoint: "p.example".into(), port: 5432, database: "wordgame".into(), user: "app".into() }
        );
        assert_eq!(c.max_connections, 1);
        assert!(matches!(Config::from_vars(vars(&[])), Err(ConfigError::Missing(_))));
        assert!(matches!(Config::from_vars(vars(&[("DB_PROXY_ENDPOINT", "p")])), Err(ConfigError::Missing("DB_NAME"))));
        assert!(matches!(
            Config::from_vars(vars(&[("DATABASE_URL", "mysql://x")])),
            Err(ConfigError::Invalid { name: "DATABASE_URL", .. })
        ));
        assert!(matches!(
            Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("DB_MAX_CONNECTIONS", "99")])),
            Err(ConfigError::Invalid { name: "DB_MAX_CONNECTIONS", .. })
        ));
        assert!(matches!(
            Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("PUSH_CONNECTIONS_ENDPOINT", "http://x")])),
            Err(ConfigError::Invalid { name: "PUSH_CONNECTIONS_ENDPOINT", .. })
        ));
        let no_egress = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("PUSH_CONNECTIONS_ENDPOINT", "")])).unwrap();
        assert_eq!(no_egress.push_endpoint, None);
        let c = Config::from_vars(vars(&[
            ("DATABASE_URL", "postgres://x"),
            ("SWEEP_BATCH", "5"),
            ("OPEN_GAME_EXPIRY_SECONDS", "3600"),
            ("SWEEP_BUDGET_SECONDS", "20"),
        ]))
        .unwrap();
        assert_eq!(
            c.sweep,
            service::SweepConfig {
                batch: 5,
                open_expiry: chrono::Duration::hours(1),
                budget: chrono::Duration::seconds(20),
                ..service::SweepConfig::default()
            }
        );
        assert_eq!(Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap().sweep, service::SweepConfig::default());
        assert_eq!(Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap().request_budget, DEFAULT_REQUEST_BUDGET);
        let c = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("REQUEST_BUDGET_MS", "250")])).unwrap();
        assert_eq!(c.request_budget, Duration::from_millis(250));
        assert_eq!(c.sweep_sleep, chrono::Duration::zero(), "the sweep sleeps only when told");
        let c = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("SWEEP_SLEEP_SECONDS", "3600")])).unwrap();
        assert_eq!(c.sweep_sleep, chrono::Duration::hours(1));
        for (name, bad) in [
            ("SWEEP_BATCH", "0"),
            ("SWEEP_BATCH", "x"),
            ("OPEN_GAME_EXPIRY_SECONDS", "59"),
            ("REQUEST_BUDGET_MS", "99"),
            ("SWEEP_BUDGET_SECONDS", "0"),
            ("REQUEST_BUDGET_MS", "60001"),
            ("SWEEP_SLEEP_SECONDS", "86401"),
            ("SWEEP_SLEEP_SECONDS", "-1"),
        ] {
            let e = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), (name, bad)])).unwrap_err();
            assert!(matches!(e, ConfigError::Invalid { name: n, .. } if n == name), "{name}={bad}: {e}");
        }
    }

    #[test]
    fn the_application_role_is_read_and_checked() {
        let c = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("DB_APP_USER", "wordgame_app")])).unwrap();
        assert_eq!(c.app_user.as_ref().map(store::AppRole::name), Some("wordgame_app"));
        assert!(Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap().app_user.is_none());
        assert!(matches!(
            Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("DB_APP_USER", "app; DROP TABLE games")])),
            Err(ConfigError::Invalid { name: "DB_APP_USER", .. })
        ));
    }
}
