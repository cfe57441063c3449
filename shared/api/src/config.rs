//! Configuration read once at cold start, and the state every handler borrows.
//!
//! Two database modes: `DATABASE_URL` (local: any PostgreSQL URL), or RDS Proxy with IAM
//! authentication (`DB_PROXY_ENDPOINT`, `DB_NAME`, `DB_USER`, optional `DB_PORT`; the region
//! from `AWS_REGION`): the password is a token signed with the credentials `aws-config` loads,
//! renewed when it is ten minutes old by the wall clock, and the proxy's certificate is verified
//! (`verify-full`, against the roots in [`crate::tls`]). Either way the pool is created once per
//! cold start, connects lazily and holds 1–2 connections (`DB_MAX_CONNECTIONS`, default 2).
//! `DB_APP_USER` names the application role the migrate function grants (see
//! [`store::Store::grant_app_role`]); the API functions log in as it (`DB_USER`).
//!
//! In Lambda the word graphs are files (`LEXICON_DIR`, the lexicon layer's `/opt/lexicon`),
//! which keeps each function's zip small; the local gateway and the tests use the graphs
//! compiled into the binary.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use aws_credential_types::provider::ProvideCredentials;
use engine::{LexiconError, Lexicons, Variant, WordGraph};
use sqlx::postgres::{PgConnectOptions, PgSslMode};
use store::Store;

use crate::iam;

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
    /// Where the word graph files are (`LEXICON_DIR`), if set.
    pub lexicon_dir: Option<PathBuf>,
    /// The application role the migrate function creates and grants (`DB_APP_USER`), if set.
    pub app_user: Option<store::AppRole>,
    /// The sweep's batch (`SWEEP_BATCH`, 1–1000, default 100) and open games' expiry
    /// (`OPEN_GAME_EXPIRY_SECONDS`, one minute to 90 days, default 7 days).
    pub sweep: service::SweepConfig,
    /// Push: the WebSocket API stage's management endpoint (`PUSH_CONNECTIONS_ENDPOINT`), if
    /// moves are pushed to connections (unset or empty: nothing is posted).
    pub push_endpoint: Option<String>,
    /// Push: the EventBridge bus every committed move is published to (`EVENT_BUS_NAME`).
    pub event_bus: Option<String>,
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
        Ok(Config { database, max_connections, lexicon_dir, app_user, sweep, push_endpoint, event_bus: var("EVENT_BUS_NAME") })
    }

    /// The word graphs as files in [`Config::lexicon_dir`], each read and checked against this
    /// build on first use. Checks now that every file is there.
    ///
    /// # Errors
    /// [`ConfigError::Lexicons`] if `LEXICON_DIR` is unset or a file is missing.
    pub fn lexicons(&self) -> Result<Lexicons, ConfigError> {
        let dir = self.lexicon_dir.clone().ok_or_else(|| ConfigError::Lexicons("LEXICON_DIR is not set".into()))?;
        for variant in Variant::ALL {
            let path = graph_path(&dir, variant);
            std::fs::metadata(&path).map_err(|e| ConfigError::Lexicons(format!("{}: {e}", path.display())))?;
        }
        Ok(Lexicons::with_loader(move |variant| {
            let path = graph_path(&dir, variant);
            let unreadable = |e: std::io::Error| LexiconError::Unreadable { variant, reason: format!("{}: {e}", path.display()) };
            #[cfg(unix)]
            return {
                let bytes = mapped(&path).map_err(unreadable)?;
                WordGraph::from_static_bytes(variant, bytes).inspect_err(|_| unmap(bytes))
            };
            #[cfg(not(unix))]
            return WordGraph::from_nodes(variant, read_nodes(&path).map_err(unreadable)?);
        }))
    }

    /// A store over a new, lazily connected pool, for a short task such as applying migrations:
    /// with IAM a token is signed now and not renewed, so call it once per task (the migrate
    /// function does, per invocation) and keep the task under 15 minutes.
    ///
    /// # Errors
    /// [`ConfigError`] if the URL does not parse or no AWS credentials can be had.
    pub async fn store(&self) -> Result<Store, ConfigError> {
        Ok(Store::new(connect_pool(self).await?.0))
    }
}

/// A lazily connected pool for `config`, and with IAM the means to renew its token.
async fn connect_pool(config: &Config) -> Result<(sqlx::PgPool, Option<Arc<IamAuth>>), ConfigError> {
    let pool_options = store::pool_options(config.max_connections, store::PING_AFTER_IDLE);
    match &config.database {
        Database::Url(url) => {
            let pool = pool_options.connect_lazy(url).map_err(|e| ConfigError::Invalid { name: "DATABASE_URL", reason: e.to_string() })?;
            Ok((pool, None))
        }
        Database::IamProxy { endpoint, port, database, user } => {
            let sdk = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
            let auth = IamAuth {
                sdk,
                endpoint: endpoint.clone(),
                port: *port,
                database: database.clone(),
                user: user.clone(),
                made: Mutex::new(SystemTime::now()),
            };
            let pool = pool_options.connect_lazy_with(auth.options().await?);
            Ok((pool, Some(Arc::new(auth))))
        }
    }
}

/// The file at `path`, mapped read-only into memory: a graph is then read in place, its pages
/// shared with the page cache, nothing copied. The mapping is never undone unless
/// [`unmap`]ped: a graph read from it lives as long as the process (a function's graphs do; a
/// layer's files never change while it runs).
#[cfg(unix)]
fn mapped(path: &Path) -> std::io::Result<&'static [u8]> {
    use std::os::fd::AsRawFd;

    let file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
    if len == 0 {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "empty file"));
    }
    // SAFETY: a fresh read-only private mapping of the `len` bytes of an open file (which may
    // be closed once mapped). The slice stays valid until `unmap`, which is called only on a
    // slice nothing borrows any more; nothing writes to it (PROT_READ).
    #[allow(unsafe_code)]
    unsafe {
        let ptr = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0);
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(std::slice::from_raw_parts(ptr.cast::<u8>(), len))
    }
}

/// Undoes [`mapped`]: for bytes whose graph was refused, so nothing borrows them.
#[cfg(unix)]
fn unmap(bytes: &'static [u8]) {
    // SAFETY: `bytes` is a whole mapping made by `mapped`, and its one borrower (the refused
    // graph) is gone.
    #[allow(unsafe_code)]
    unsafe {
        libc::munmap(bytes.as_ptr().cast_mut().cast(), bytes.len());
    }
}

/// The graph file's little-endian nodes, read in one pass through a small buffer straight into
/// the nodes (no copy of the whole file), for [`WordGraph::from_nodes`] to check: where no
/// memory map is had.
#[cfg(not(unix))]
fn read_nodes(path: &Path) -> std::io::Result<Vec<u32>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
    if !len.is_multiple_of(4) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{len} bytes is not a whole number of nodes")));
    }
    let mut nodes = Vec::with_capacity(len / 4);
    let mut buf = vec![0u8; 1 << 16];
    let mut left = len;
    while left > 0 {
        let n = left.min(buf.len());
        file.read_exact(&mut buf[..n])?;
        nodes.extend(buf[..n].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        left -= n;
    }
    Ok(nodes)
}

/// The file holding the word graph of `variant` in `dir`: `<variant id>.kwg`.
pub fn graph_path(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(format!("{}.kwg", variant.id()))
}

/// What handlers share: the service (and through it the pool).
#[derive(Clone)]
pub struct AppState {
    /// The use cases.
    pub service: service::Service,
    /// For RDS Proxy: how to renew the IAM token before it expires.
    iam: Option<Arc<IamAuth>>,
    /// Push in AWS, when configured (the service's notifier; the WebSocket function also posts
    /// its replies through it).
    aws_push: Option<crate::aws_push::AwsPush>,
}

/// The IAM token in use and how to make the next one.
struct IamAuth {
    sdk: aws_config::SdkConfig,
    endpoint: String,
    port: u16,
    database: String,
    user: String,
    /// When the current token was made, by the wall clock: a monotonic clock may stand still
    /// while Lambda freezes the sandbox between invocations, but the token's 15 minutes run on.
    made: Mutex<SystemTime>,
}

/// Renew the token well before its 15 minutes are up.
const TOKEN_RENEWAL: Duration = Duration::from_secs(600);

/// Whether a token made at `made` is due for renewal at `now`: from ten minutes on, and also if
/// the clock went back (its age is then unknown).
fn token_due(made: SystemTime, now: SystemTime) -> bool {
    now.duration_since(made).map_or(true, |age| age >= TOKEN_RENEWAL)
}

/// Connection options to RDS Proxy as `user` with the IAM `token`: TLS verified in full (the
/// chain to `roots_pem`, in Lambda [`crate::tls::PROXY_ROOTS_PEM`], and the endpoint's name),
/// unnamed statements only.
pub fn proxy_options(endpoint: &str, port: u16, database: &str, user: &str, token: &str, roots_pem: &[u8]) -> PgConnectOptions {
    PgConnectOptions::new()
        .host(endpoint)
        .port(port)
        .database(database)
        .username(user)
        .password(token)
        .ssl_mode(PgSslMode::VerifyFull)
        .ssl_root_cert_from_pem(roots_pem.to_vec())
        // Unnamed statements only: a named prepared statement is session state, which would
        // pin the client's session to one database connection in RDS Proxy.
        .statement_cache_capacity(0)
}

impl IamAuth {
    async fn options(&self) -> Result<PgConnectOptions, ConfigError> {
        let provider = self.sdk.credentials_provider().ok_or_else(|| ConfigError::Aws("no credentials provider".into()))?;
        let credentials = provider.provide_credentials().await.map_err(|e| ConfigError::Aws(e.to_string()))?;
        let region = self.sdk.region().ok_or_else(|| ConfigError::Aws("no region (AWS_REGION)".into()))?;
        let token = iam::auth_token(&credentials, region.as_ref(), &self.endpoint, self.port, &self.user, SystemTime::now())
            .map_err(|e| ConfigError::Aws(e.to_string()))?;
        Ok(proxy_options(&self.endpoint, self.port, &self.database, &self.user, &token, crate::tls::PROXY_ROOTS_PEM))
    }
}

impl AppState {
    /// State over a lazily connected pool: nothing touches the database until the first request
    /// (with IAM, the first token is signed here, from local credentials).
    ///
    /// # Errors
    /// [`ConfigError`] if the URL does not parse or no AWS credentials can be had.
    pub async fn connect(config: &Config, lexicons: Arc<Lexicons>) -> Result<AppState, ConfigError> {
        let (pool, iam) = connect_pool(config).await?;
        let mut state = AppState { iam, ..AppState::new(Store::new(pool), lexicons) };
        if config.push_endpoint.is_some() || config.event_bus.is_some() {
            let sdk = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
            let region = sdk.region().map(ToString::to_string).ok_or_else(|| ConfigError::Aws("no region for push".into()))?;
            let credentials = sdk.credentials_provider().ok_or_else(|| ConfigError::Aws("no credentials for push".into()))?;
            let events = config.event_bus.clone().map(|bus| (format!("https://events.{region}.amazonaws.com/"), bus));
            let push =
                crate::aws_push::AwsPush::new(state.service.store().clone(), credentials, &region, config.push_endpoint.as_deref(), events);
            state.service = state.service.with_notifier(Arc::new(push.clone()));
            state.aws_push = Some(push);
        }
        Ok(state)
    }

    /// Push in AWS, if configured.
    pub fn aws_push(&self) -> Option<&crate::aws_push::AwsPush> {
        self.aws_push.as_ref()
    }

    /// State over a store and word graphs, with the system clock and the OS's entropy.
    pub fn new(store: Store, lexicons: Arc<Lexicons>) -> AppState {
        AppState::with_runtime(store, lexicons, service::Runtime::system())
    }

    /// State over a store and word graphs, with the clock, entropy, seeds and ids of `runtime`
    /// (tests pass a hand-moved clock and a seeded source).
    pub fn with_runtime(store: Store, lexicons: Arc<Lexicons>, runtime: service::Runtime) -> AppState {
        AppState { service: service::Service::new(store, games::Families::new(lexicons), runtime), iam: None, aws_push: None }
    }

    /// One sweep ([`service::Service::sweep`]) with `config`, after renewing the database token
    /// if it is due: for the scheduled function and the local server's timer.
    ///
    /// # Errors
    /// The sweep's.
    pub async fn sweep(&self, config: service::SweepConfig) -> Result<service::SweepReport, service::ServiceError> {
        self.renew_credentials().await;
        self.service.sweep(config).await
    }

    /// With IAM authentication, a fresh token for new connections once the current one is ten
    /// minutes old by the wall clock (open connections stay valid).
    pub(crate) async fn renew_credentials(&self) {
        let Some(auth) = &self.iam else { return };
        let due = auth.made.lock().map(|made| token_due(*made, SystemTime::now())).unwrap_or(true);
        if !due {
            return;
        }
        match auth.options().await {
            Ok(options) => {
                self.service.store().pool().set_connect_options(options);
                if let Ok(mut made) = auth.made.lock() {
                    *made = SystemTime::now();
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot renew the database token"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: std::collections::HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| map.get(name).cloned()
    }

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
        let c = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("SWEEP_BATCH", "5"), ("OPEN_GAME_EXPIRY_SECONDS", "3600")]))
            .unwrap();
        assert_eq!(c.sweep, service::SweepConfig { batch: 5, open_expiry: chrono::Duration::hours(1) });
        assert_eq!(Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap().sweep, service::SweepConfig::default());
        for (name, bad) in [("SWEEP_BATCH", "0"), ("SWEEP_BATCH", "x"), ("OPEN_GAME_EXPIRY_SECONDS", "59")] {
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

    #[test]
    fn the_token_is_renewed_by_its_wall_clock_age() {
        let made = SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_400_000);
        assert!(!token_due(made, made));
        assert!(!token_due(made, made + Duration::from_secs(599)));
        assert!(token_due(made, made + TOKEN_RENEWAL));
        // A sandbox frozen for an hour: the wall clock has moved on, whatever a monotonic one says.
        assert!(token_due(made, made + Duration::from_secs(3600)));
        assert!(token_due(made, made - Duration::from_secs(1)), "a clock that went back: age unknown, renew");
        assert!(TOKEN_RENEWAL < iam::TOKEN_LIFETIME);
    }

    #[test]
    fn the_proxy_is_reached_with_its_certificate_verified_in_full() {
        let o = proxy_options(
            "p.proxy-abc.eu-central-1.rds.amazonaws.com",
            5432,
            "wordgame",
            "wordgame_app",
            "token",
            crate::tls::PROXY_ROOTS_PEM,
        );
        assert!(matches!(o.get_ssl_mode(), PgSslMode::VerifyFull));
        assert_eq!(
            (o.get_host(), o.get_port(), o.get_username(), o.get_database()),
            ("p.proxy-abc.eu-central-1.rds.amazonaws.com", 5432, "wordgame_app", Some("wordgame"))
        );
    }

    #[test]
    fn word_graph_files_are_found_checked_and_loaded() {
        let dir = std::env::temp_dir().join(format!("wordgame-lexicons-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config =
            |dir: &Path| Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("LEXICON_DIR", dir.to_str().unwrap())])).unwrap();

        let unset = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap();
        assert!(matches!(unset.lexicons(), Err(ConfigError::Lexicons(m)) if m.contains("LEXICON_DIR")));
        assert!(matches!(config(&dir).lexicons(), Err(ConfigError::Lexicons(m)) if m.contains("scrabble-en.kwg")));

        for variant in Variant::ALL {
            std::fs::write(graph_path(&dir, variant), engine::builtin_graph(variant).to_bytes()).unwrap();
        }
        let lexicons = config(&dir).lexicons().unwrap();
        lexicons.load_all().unwrap();
        let word = engine::lexicon::encode(Variant::Erudit.rules(), "ЁЖ").unwrap();
        assert!(engine::Lexicon::contains(lexicons.get(Variant::Erudit).unwrap(), &word));

        // A graph swapped for another variant's is refused when it is read, naming the variant.
        std::fs::copy(graph_path(&dir, Variant::ScrabbleRu), graph_path(&dir, Variant::Erudit)).unwrap();
        let err = config(&dir).lexicons().unwrap().load_all().unwrap_err();
        assert!(matches!(err, LexiconError::WrongGraph { variant: Variant::Erudit, .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
