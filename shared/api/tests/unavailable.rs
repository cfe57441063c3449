//! Database trouble through the handlers, against a private PostgreSQL this test stops and
//! restarts: with the server down a request is answered `503 unavailable` with `Retry-After`
//! well within a Lambda function's timeout, and after a restart the dead pooled connections
//! cost no request an error (a lost connection is retried once on a fresh one).
//!
//! Its own test binary: the pool's "connections are suspect" state is per process.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use api::gateway::{Incoming, to_lambda};
use api::{AppState, handle};
use serde_json::{Value, json};
use store::Store;
use store::local::{LocalPostgres, StartOptions};
use uuid::Uuid;

/// One request as `who`: status, `Retry-After`, JSON body.
async fn call(state: &AppState, who: Uuid, method: &str, path: &str, body: &str) -> (u16, Option<String>, Value) {
    let claims = HashMap::from([("sub".to_string(), who.to_string()), ("name".to_string(), "Ann".to_string())]);
    let incoming = Incoming { method, path, body: body.as_bytes(), claims: Some(&claims), request_id: "t", ..Incoming::default() };
    let (route, request) = to_lambda(&incoming).unwrap();
    let response = handle(state, route, request).await;
    let retry = response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    (response.status().as_u16(), retry, serde_json::from_slice(response.body().as_ref()).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_answers_a_fast_typed_503_and_a_restart_fails_no_request() {
    let dir = std::env::temp_dir().join(format!("wordgame-pg-outage-{}", std::process::id()));
    let pg = LocalPostgres::start_with(&dir, StartOptions::THROWAWAY).unwrap();
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&pg.url("postgres")).await.unwrap();
    sqlx::query("CREATE DATABASE outage").execute(&mut admin).await.unwrap();
    drop(admin);
    let pool = store::pool_options(4, store::PING_AFTER_IDLE).connect(&pg.url("outage")).await.unwrap();
    let store = Store::new(pool);
    store.migrate().await.unwrap();
    let state = AppState::with_runtime(
        store.clone(),
        Arc::new(engine::Lexicons::builtin()),
        crate::common::seeded_runtime(crate::common::test_seed()),
    );
    let ann = Uuid::new_v4();
    let create = json!({"variant": "erudit", "opponents": [{"robot": "easy"}]}).to_string();
    let (status, _, game) = call(&state, ann, "POST", "/games", &create).await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    // Warm the pool: several connections sit idle, alive.
    for _ in 0..4 {
        assert_eq!(call(&state, ann, "GET", &format!("/games/{id}"), "").await.0, 200);
    }

    // A restart between two requests: every pooled connection is dead, yet no request fails.
    pg.stop();
    pg.restart().unwrap();
    for i in 0..6 {
        let (status, _, view) = call(&state, ann, "GET", &format!("/games/{id}"), "").await;
        assert_eq!(status, 200, "request {i} after the restart: {view}");
    }

    // Down: a typed 503 with Retry-After, in about the acquire timeout, for reads and writes.
    pg.stop();
    for (method, path, body) in [("GET", format!("/games/{id}"), String::new()), ("POST", "/games".to_string(), create.clone())] {
        let started = Instant::now();
        let (status, retry, answer) = call(&state, ann, method, &path, &body).await;
        let took = started.elapsed();
        assert_eq!((status, answer["error"]["code"].as_str(), retry.as_deref()), (503, Some("unavailable"), Some("1")), "{answer}");
        assert!(took < store::ACQUIRE_TIMEOUT * 2 + Duration::from_secs(1), "{method} {path} took {took:?}");
    }
    pg.restart().unwrap();
    let (status, _, _) = call(&state, ann, "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200);
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(store.pool()).await.unwrap();
    assert_eq!(games, 1, "the refused create wrote nothing");
    pg.stop();
}
