//! Lambda function that applies every pending migration (`store::MIGRATOR`) as the schema's
//! owner (`DB_USER`), then creates or updates the application role the API functions log in as
//! (`DB_APP_USER`, [`store::Store::grant_app_role`]), and answers with the migrations now
//! applied. The template's custom resource `SchemaMigration` invokes each new version once per
//! deploy, before any API function's new version is published (retrying while the database is
//! not reachable yet); an operator may invoke it by hand at any time, it changes nothing when
//! nothing is pending. Each invocation opens its own pool with a freshly signed IAM token and
//! closes it, so a warm instance invoked long after its cold start does not log in with an
//! expired token.

use lambda_runtime::{Error, LambdaEvent, service_fn};
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> Result<(), Error> {
    api::telemetry::init_json();
    let config = api::Config::from_env()?;
    let config = &config;
    lambda_runtime::run(service_fn(move |_: LambdaEvent<Value>| async move {
        let fail = |what: &'static str| {
            move |e: &dyn std::fmt::Display| {
                tracing::error!(error = %e, "{what}");
                Error::from(format!("{what}: {e}"))
            }
        };
        let store = config.store().await.map_err(|e| fail("cannot set up the database")(&e))?;
        let result = async {
            store.migrate().await.map_err(|e| fail("migration failed")(&format!("{e:?}")))?;
            if let Some(role) = &config.app_user {
                store.grant_app_role(role).await.map_err(|e| fail("cannot grant the application role")(&e))?;
            }
            store.applied_migrations().await.map_err(|e| fail("cannot read the migrations applied")(&e))
        }
        .await;
        store.pool().close().await;
        let applied = result?;
        tracing::info!(?applied, app_role = config.app_user.as_ref().map(store::AppRole::name), "migrations applied");
        Ok::<_, Error>(json!({ "applied": applied, "app_role": config.app_user.as_ref().map(store::AppRole::name) }))
    }))
    .await
}
