//! Lambda function that applies every pending migration (`store::MIGRATOR`) through the same
//! configuration as the API functions, and answers with the migrations now applied. Invoke it
//! after each deploy (docs: infra/README.md).

use lambda_runtime::{Error, LambdaEvent, service_fn};
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> Result<(), Error> {
    api::telemetry::init_json();
    let config = api::Config::from_env()?;
    let store = config.store().await?;
    let store = &store;
    lambda_runtime::run(service_fn(move |_: LambdaEvent<Value>| async move {
        store.migrate().await.map_err(|e| {
            tracing::error!(error = ?e, "migration failed");
            Error::from(e.to_string())
        })?;
        let applied: Vec<i64> = store.applied_migrations().await.map_err(|e| Error::from(e.to_string()))?;
        tracing::info!(?applied, "migrations applied");
        Ok::<_, Error>(json!({ "applied": applied }))
    }))
    .await
}
