//! What every handler borrows: the service over the store, the families and the runtime (the
//! composition root), and with IAM the token's renewal.

use std::sync::Arc;

use engine::Lexicons;
use store::Store;

use super::database::{IamAuth, connect_pool};
use super::env::{Config, ConfigError};

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
    /// How long a request may take before it is answered `503 unavailable`.
    request_budget: std::time::Duration,
}

impl AppState {
    /// State over a lazily connected pool: nothing touches the database until the first request
    /// (with IAM, the first token is signed here, from local credentials).
    ///
    /// # Errors
    /// [`ConfigError`] if the URL does not parse or no AWS credentials can be had.
    pub async fn connect(config: &Config, lexicons: Arc<Lexicons>) -> Result<AppState, ConfigError> {
        let (pool, iam) = connect_pool(config).await?;
        let mut state = AppState { iam, ..AppState::new(Store::new(pool), lexicons).with_request_budget(config.request_budget) };
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
        AppState {
            service: service::Service::new(store, games::Families::new(lexicons), runtime),
            iam: None,
            aws_push: None,
            request_budget: super::DEFAULT_REQUEST_BUDGET,
        }
    }

    /// The state with each request's time budget `budget` (a configuration's
    /// `request_budget`; [`super::DEFAULT_REQUEST_BUDGET`] until set).
    pub fn with_request_budget(self, budget: std::time::Duration) -> AppState {
        AppState { request_budget: budget, ..self }
    }

    /// How long a request may take before it is answered `503 unavailable`.
    pub fn request_budget(&self) -> std::time::Duration {
        self.request_budget
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
        if let Some(auth) = &self.iam {
            auth.renew(self.service.store().pool()).await;
        }
    }
}
