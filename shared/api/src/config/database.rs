//! The database connection: a lazily connected pool for a URL, or for RDS Proxy with an IAM
//! token renewed by its wall-clock age.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use aws_credential_types::provider::ProvideCredentials;
use sqlx::postgres::{PgConnectOptions, PgSslMode};
use store::Store;

use super::env::{Config, ConfigError, Database};
use crate::iam;

impl Config {
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
pub(super) async fn connect_pool(config: &Config) -> Result<(sqlx::PgPool, Option<Arc<IamAuth>>), ConfigError> {
    let pool_options = store::pool_options(config.max_connections, store::PING_AFTER_IDLE);
    match &config.database {
        Database::Url(url) => {
            let options = store::connect_options(url).map_err(|e| ConfigError::Invalid { name: "DATABASE_URL", reason: e.to_string() })?;
            let pool = pool_options.connect_lazy_with(options);
            Ok((pool, None))
        }
        Database::IamProxy { endpoint, port, database, user } => {
            let roots = match &config.db_ca_file {
                Some(file) => {
                    let invalid =
                        |reason: String| ConfigError::Invalid { name: "DB_CA_FILE", reason: format!("{}: {reason}", file.display()) };
                    let pem = std::fs::read(file).map_err(|e| invalid(e.to_string()))?;
                    match crate::tls::pem_certificates(&pem) {
                        Some(certs) if !certs.is_empty() => pem,
                        _ => return Err(invalid("no certificate in it".into())),
                    }
                }
                None => crate::tls::PROXY_ROOTS_PEM.to_vec(),
            };
            let sdk = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
            let auth = IamAuth {
                sdk,
                roots,
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

/// The IAM token in use and how to make the next one.
pub(super) struct IamAuth {
    sdk: aws_config::SdkConfig,
    endpoint: String,
    port: u16,
    database: String,
    user: String,
    /// The roots the server's certificate is verified against, PEM.
    roots: Vec<u8>,
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

/// Connection options to RDS Proxy (or, in Profile small, the cluster) as `user` with the IAM
/// `token`: TLS verified in full (the chain to `roots_pem`: in Lambda
/// [`crate::tls::PROXY_ROOTS_PEM`], or `DB_CA_FILE`'s RDS authorities; and the endpoint's name),
/// unnamed statements only. No session settings travel in the startup message (the proxy
/// might pin, or refuse, a session that sends them): the application role carries the
/// statement timeout as its default, set by the migrate function ([`store::Store::grant_app_role`]).
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
    /// New connections of `pool` log in with a fresh token once the current one is ten minutes
    /// old by the wall clock (open connections stay valid); a failure is logged and the old
    /// token kept.
    pub(super) async fn renew(&self, pool: &sqlx::PgPool) {
        let due = self.made.lock().map(|made| token_due(*made, SystemTime::now())).unwrap_or(true);
        if !due {
            return;
        }
        match self.options().await {
            Ok(options) => {
                pool.set_connect_options(options);
                if let Ok(mut made) = self.made.lock() {
                    *made = SystemTime::now();
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot renew the database token"),
        }
    }

    async fn options(&self) -> Result<PgConnectOptions, ConfigError> {
        let provider = self.sdk.credentials_provider().ok_or_else(|| ConfigError::Aws("no credentials provider".into()))?;
        let credentials = provider.provide_credentials().await.map_err(|e| ConfigError::Aws(e.to_string()))?;
        let region = self.sdk.region().ok_or_else(|| ConfigError::Aws("no region (AWS_REGION)".into()))?;
        let token = iam::auth_token(&credentials, region.as_ref(), &self.endpoint, self.port, &self.user, SystemTime::now())
            .map_err(|e| ConfigError::Aws(e.to_string()))?;
        Ok(proxy_options(&self.endpoint, self.port, &self.database, &self.user, &token, &self.roots))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A `DB_CA_FILE` that cannot be read, or holds no certificate, stops the cold start with
    /// its name: a function never connects trusting nothing, or the wrong roots.
    #[tokio::test]
    async fn a_roots_file_that_is_missing_or_empty_is_a_configuration_error() {
        let empty = std::env::temp_dir().join(format!("wordgame-no-roots-{}.pem", std::process::id()));
        std::fs::write(&empty, "no certificate here\n").unwrap();
        for file in [std::path::PathBuf::from("/nonexistent/rds-ca.pem"), empty.clone()] {
            let vars = [
                ("DB_PROXY_ENDPOINT", "c.cluster-abc.us-east-1.rds.amazonaws.com"),
                ("DB_NAME", "wordgame"),
                ("DB_USER", "wordgame_app"),
                ("DB_CA_FILE", file.to_str().unwrap()),
            ];
            let config = Config::from_vars(|name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())).unwrap();
            assert_eq!(config.db_ca_file.as_deref(), Some(file.as_path()));
            let refused = connect_pool(&config).await.err().expect("refused");
            assert!(matches!(refused, ConfigError::Invalid { name: "DB_CA_FILE", .. }), "{refused}");
        }
        let _ = std::fs::remove_file(empty);
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
}
