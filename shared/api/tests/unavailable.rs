//! Database trouble through the handlers, against a private PostgreSQL each test stops, restarts
//! or freezes: with the server down a request is answered `503 unavailable` with `Retry-After`
//! well within a Lambda function's timeout, and after a restart the dead pooled connections
//! cost no request an error (a lost connection is retried once on a fresh one); with the server
//! frozen (SIGSTOP: connections open, nothing answers) a request is answered the same 503 at
//! its budget, and once thawed the service goes on with nothing half-written.

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

/// A private server (its data under a temporary directory named for `tag`) with a migrated
/// database, and the app's state over a pool of 4 on it.
async fn private_server(tag: &str) -> (LocalPostgres, Store, AppState) {
    private_server_on(tag, crate::common::seeded_runtime(crate::common::test_seed())).await
}

/// As [`private_server`], the service on `runtime`.
async fn private_server_on(tag: &str, runtime: service::Runtime) -> (LocalPostgres, Store, AppState) {
    let dir = std::env::temp_dir().join(format!("wordgame-pg-{tag}-{}", std::process::id()));
    let pg = LocalPostgres::start_with(&dir, StartOptions::THROWAWAY).unwrap();
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&pg.url("postgres")).await.unwrap();
    sqlx::query("CREATE DATABASE outage").execute(&mut admin).await.unwrap();
    drop(admin);
    let options = store::connect_options(&pg.url("outage")).unwrap();
    let pool = store::pool_options(4, store::PING_AFTER_IDLE).connect_with(options).await.unwrap();
    let store = Store::new(pool);
    store.migrate().await.unwrap();
    let state = AppState::with_runtime(store.clone(), Arc::new(engine::Lexicons::builtin()), runtime);
    (pg, store, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_answers_a_fast_typed_503_and_a_restart_fails_no_request() {
    let (pg, store, state) = private_server("outage").await;
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

/// Every row a request could write, as one text, to compare before and after.
async fn digest(store: &Store) -> String {
    sqlx::query_scalar(
        "SELECT concat_ws('|',
            (SELECT string_agg(concat_ws(':', game_id, status, move_count, turn_deadline, updated_at), ',' ORDER BY game_id) FROM games),
            (SELECT string_agg(concat_ws(':', game_id, move_no, entry), ',' ORDER BY game_id, move_no) FROM game_moves))",
    )
    .fetch_one(store.pool())
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_database_answers_503_at_the_request_budget_and_loses_nothing() {
    let (pg, store, state) = private_server("frozen").await;
    // A short budget, set as the environment sets it.
    let budget = api::config::request_budget(|name| (name == "REQUEST_BUDGET_MS").then(|| "400".to_string())).unwrap();
    assert_eq!(budget, Duration::from_millis(400));
    let state = state.with_request_budget(budget);
    let timeout: String = sqlx::query_scalar("SHOW statement_timeout").fetch_one(store.pool()).await.unwrap();
    assert_eq!(timeout, format!("{}s", store::STATEMENT_TIMEOUT.as_secs()), "every connection has the statement timeout");

    let ann = Uuid::new_v4();
    let create = json!({"variant": "erudit", "opponents": [{"robot": "easy"}]}).to_string();
    let (status, _, game) = call(&state, ann, "POST", "/games", &create).await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    let moves = game["move_count"].as_u64().unwrap();
    let pass = json!({"expected_move_no": moves, "client_move_id": Uuid::new_v4(), "move": {"kind": "pass"}}).to_string();
    for _ in 0..4 {
        assert_eq!(call(&state, ann, "GET", &format!("/games/{id}"), "").await.0, 200);
    }
    let before = digest(&store).await;

    // Frozen: every request is answered at its budget, well before the pool's acquire timeout.
    pg.freeze().unwrap();
    for (method, path, body) in [("GET", format!("/games/{id}"), ""), ("POST", format!("/games/{id}/moves"), pass.as_str())] {
        let started = Instant::now();
        let (status, retry, answer) = call(&state, ann, method, &path, body).await;
        let took = started.elapsed();
        assert_eq!((status, answer["error"]["code"].as_str(), retry.as_deref()), (503, Some("unavailable"), Some("1")), "{answer}");
        assert!(took >= budget && took < budget + Duration::from_millis(500), "{method} {path} took {took:?}, budget {budget:?}");
    }

    // Thawed: the service answers at once, the refused move was not half-written, and the
    // same move (its client move id) is then played once.
    pg.thaw().unwrap();
    let (status, _, view) = call(&state, ann, "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["move_count"].as_u64(), Some(moves), "{view}");
    assert_eq!(digest(&store).await, before, "the request dropped at its budget wrote nothing");
    let (status, _, played) = call(&state, ann, "POST", &format!("/games/{id}/moves"), &pass).await;
    assert_eq!(status, 200, "{played}");
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM game_moves WHERE game_id = $1::uuid").bind(&id).fetch_one(store.pool()).await.unwrap();
    let count: i32 =
        sqlx::query_scalar("SELECT move_count FROM games WHERE game_id = $1::uuid").bind(&id).fetch_one(store.pool()).await.unwrap();
    assert!(rows > moves as i64 && rows == i64::from(count), "journal rows {rows}, move_count {count}, before {moves}");
    pg.stop();
}

/// The caller's seat's `remaining_ms` in a view.
fn remaining(view: &Value) -> i64 {
    view["clock"]["seats"][view["your_seat"].as_u64().unwrap() as usize]["remaining_ms"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_costs_the_player_to_move_neither_time_nor_the_game() {
    // The service's clock is moved by hand while the database is really frozen (SIGSTOP): a
    // real-time game's mover tries twice across 10 s of outage, a Nối từ player twice across a
    // 4 s stall of a 5 s turn. Neither is charged the outage (within 0.5 s), neither loses.
    let clock = Arc::new(service::ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let runtime = service::Runtime::seeded(clock.clone(), crate::common::test_seed());
    let (pg, store, state) = private_server_on("outage-clock", runtime).await;
    // The tries while frozen are answered at a short budget; the rest (a robot's first move
    // loads its word list) at the usual one. Both share the service and what it noted.
    let quick = state.clone().with_request_budget(Duration::from_millis(400));
    let ann = Uuid::new_v4();
    let realtime = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 1});
    let chain_timer = json!({"kind": "realtime", "turn_seconds": 5});
    for (variant, control, before, outage) in [("erudit", realtime, 5, 10), ("noi-tu", chain_timer, 1, 4)] {
        let body = json!({"variant": variant, "opponents": [{"robot": "easy"}], "time_control": control}).to_string();
        let (status, _, game) = call(&state, ann, "POST", "/games", &body).await;
        assert_eq!(status, 201, "{game}");
        let id = game["game_id"].as_str().unwrap().to_string();
        assert_eq!(game["to_move"], game["your_seat"], "{game}");
        let full = remaining(&game);
        let moves = game["move_count"].as_u64().unwrap();
        let pass = if variant == "noi-tu" {
            let (_, _, hints) = call(&state, ann, "GET", &format!("/games/{id}/hint"), "").await;
            json!({"expected_move_no": moves, "move": {"kind": "word", "word": hints["hints"][0]["word"]}}).to_string()
        } else {
            json!({"expected_move_no": moves, "move": {"kind": "pass"}}).to_string()
        };
        clock.advance(chrono::Duration::seconds(before));
        pg.freeze().unwrap();
        for _ in 0..2 {
            let (status, _, refused) = call(&quick, ann, "POST", &format!("/games/{id}/moves"), &pass).await;
            assert_eq!((status, refused["error"]["code"].as_str()), (503, Some("unavailable")), "{refused}");
            clock.advance(chrono::Duration::milliseconds(outage * 500));
        }
        pg.thaw().unwrap();
        clock.advance(chrono::Duration::milliseconds(200));
        let (status, _, view) = call(&state, ann, "GET", &format!("/games/{id}"), "").await;
        assert_eq!((status, view["status"].as_str()), (200, Some("active")), "{variant}: the outage did not end the game: {view}");
        let charged = full - remaining(&view);
        assert!(
            (charged - before * 1000).abs() <= 500,
            "{variant}: charged {charged} ms for {before} s of play and {outage} s of outage: {view}"
        );
        let (status, _, played) = call(&state, ann, "POST", &format!("/games/{id}/moves"), &pass).await;
        assert_eq!(status, 200, "{variant}: the move after the outage: {played}");
        assert!(played["moves"].as_array().unwrap().iter().all(|m| m["kind"] != "out_of_time" && m["kind"] != "timeout"), "{played}");
    }
    let outages: i64 = sqlx::query_scalar("SELECT count(*) FROM outages WHERE source = 'refused'").fetch_one(store.pool()).await.unwrap();
    assert_eq!(outages, 2, "one outage recorded for each stall");
    pg.stop();
}
