//! Bad input gets the right status and code and writes nothing; concurrent submits append
//! exactly one move; retries are idempotent; real API Gateway events reach the handlers.

use crate::common::{App, Player};
use api::{AppState, Route, handle};
use serde_json::{Value, json};
use uuid::Uuid;

async fn game_vs_robot(app: &App, me: Player) -> String {
    app.create(me, "scrabble-en", r#"[{"robot":"hard"}]"#).await["game_id"].as_str().unwrap().to_string()
}

/// Who, method, path, body, expected status and code.
type Case = (Option<Player>, &'static str, String, String, u16, &'static str);

async fn snapshot(app: &App, id: &str) -> (i64, Value) {
    let row: (i32, String) =
        sqlx::query_as("SELECT move_count, status FROM games WHERE game_id = $1::uuid").bind(id).fetch_one(app.pool()).await.unwrap();
    (app.journal_rows(id).await, json!([row.0, row.1]))
}

#[tokio::test]
async fn bad_requests_get_their_status_and_code_and_change_nothing() {
    let app = App::new().await;
    let me = Player::new();
    let id = game_vs_robot(&app, me).await;
    let stranger = Player::new();
    let before = snapshot(&app, &id).await;
    let n = before.1[0].as_i64().unwrap();
    let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    let rack: Vec<String> = view["your_rack"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
    let missing = ('A'..='Z').map(String::from).find(|l| !rack.contains(l)).unwrap();
    let moves = format!("/games/{id}/moves");
    let play = |placements: Value| json!({"expected_move_no": n, "move": {"kind": "play", "placements": placements}}).to_string();
    let big = format!(r#"{{"expected_move_no":0,"move":{{"kind":"pass"}},"pad":"{}"}}"#, "x".repeat(70 * 1024));
    let cases: Vec<Case> = vec![
        (Some(me), "POST", moves.clone(), "{not json".into(), 400, "malformed_json"),
        (Some(me), "POST", moves.clone(), "".into(), 400, "malformed_json"),
        (Some(me), "POST", moves.clone(), r#"{"expected_move_no":"zero","move":{"kind":"pass"}}"#.into(), 400, "invalid_body"),
        (Some(me), "POST", moves.clone(), r#"{"expected_move_no":0,"move":{"kind":"teleport"}}"#.into(), 400, "invalid_body"),
        (Some(me), "POST", moves.clone(), r#"{"expected_move_no":0,"move":{"kind":"pass"},"cheat":true}"#.into(), 400, "invalid_body"),
        (Some(me), "POST", moves.clone(), play(json!([{"square": "P8", "letter": "A"}])), 422, "off_board"),
        (
            Some(me),
            "POST",
            moves.clone(),
            play(json!([{"square": "H8", "letter": "Ж"}, {"square": "I8", "letter": "A"}])),
            422,
            "letter_not_in_alphabet",
        ),
        (
            Some(me),
            "POST",
            moves.clone(),
            play(json!([{"square": "A1", "letter": missing}, {"square": "B1", "letter": missing}])),
            422,
            "tile_not_on_rack",
        ),
        (Some(me), "POST", moves.clone(), json!({"expected_move_no": 3, "move": {"kind": "pass"}}).to_string(), 409, "stale_move"),
        (Some(me), "POST", moves.clone(), big, 413, "body_too_large"),
        (Some(stranger), "POST", moves.clone(), json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string(), 403, "not_your_game"),
        // A stranger may watch a robot game (GET /games/{id}: the spectator's view), never act in it.
        (Some(stranger), "GET", format!("/games/{id}/hint"), String::new(), 403, "not_your_game"),
        (None, "POST", moves.clone(), json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string(), 401, "unauthenticated"),
        (Some(me), "GET", format!("/games/{}", Uuid::new_v4()), String::new(), 404, "not_found"),
        (Some(me), "GET", "/games/not-a-uuid".into(), String::new(), 400, "invalid_game_id"),
        (Some(me), "GET", format!("/games/{id}/hint?limit=99"), String::new(), 400, "invalid_query"),
        (Some(me), "POST", format!("/games/{id}/timeout"), String::new(), 422, "deadline_not_passed"),
        (Some(me), "POST", "/games".into(), r#"{"variant":"chess","opponents":[{"robot":"easy"}]}"#.into(), 400, "unknown_variant"),
        (Some(me), "POST", "/games".into(), r#"{"variant":"erudit","opponents":[]}"#.into(), 400, "bad_opponents"),
        (Some(me), "POST", "/games".into(), r#"{"variant":"erudit","opponents":[{"robot":"genius"}]}"#.into(), 400, "unknown_robot_level"),
        (
            Some(me),
            "POST",
            "/games".into(),
            r#"{"variant":"erudit","opponents":[{"robot":"easy"}],"turn_seconds":1}"#.into(),
            400,
            "bad_turn_seconds",
        ),
        (
            Some(me),
            "POST",
            "/games".into(),
            format!(r#"{{"variant":"erudit","opponents":[{{"account":"{}"}}]}}"#, Uuid::new_v4()),
            404,
            "account_not_found",
        ),
        (Some(me), "DELETE", format!("/games/{id}"), String::new(), 404, "no_route"),
    ];
    for (who, method, path, body, status, code) in cases {
        let (got, answer) = app.call(who, method, &path, &body).await;
        assert_eq!(
            (got, answer["error"]["code"].as_str()),
            (status, Some(code)),
            "{method} {path} {}: {answer}",
            &body[..body.len().min(80)]
        );
        assert!(answer["error"]["message"].is_string());
        assert_eq!(snapshot(&app, &id).await, before, "{method} {path} wrote something");
    }
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(app.pool()).await.unwrap();
    assert_eq!(games, 1, "no refused create left a game behind");
}

#[tokio::test]
async fn twenty_concurrent_submits_append_exactly_one_move() {
    let app = App::new().await;
    let me = Player::new();
    let id = game_vs_robot(&app, me).await;
    let body: Value = serde_json::from_str(&app.best_move(me, &id).await).unwrap();
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (app, id) = (app.clone(), id.clone());
        let mut body = body.clone();
        body["client_move_id"] = json!(Uuid::new_v4());
        tasks.push(tokio::spawn(async move { app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body.to_string()).await }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        let (status, answer) = t.await.unwrap();
        if status != 200 {
            assert_eq!(answer["error"]["code"], "stale_move", "{answer}");
        }
        statuses.push(status);
    }
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 409).count(), 19);
    let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    let mine: i64 = sqlx::query_scalar("SELECT count(*) FROM game_moves WHERE game_id = $1::uuid AND seat = $2")
        .bind(&id)
        .bind(view["your_seat"].as_i64().unwrap() as i16)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(mine, 1);
}

#[tokio::test]
async fn a_retried_submit_returns_the_first_result_and_writes_nothing() {
    let app = App::new().await;
    let me = Player::new();
    let id = game_vs_robot(&app, me).await;
    let body = app.best_move(me, &id).await;
    let opening = app.journal_rows(&id).await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (app, id, body) = (app.clone(), id.clone(), body.clone());
        tasks.push(tokio::spawn(async move { app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        let (status, answer) = t.await.unwrap();
        assert_eq!(status, 200, "{answer}");
        answers.push(answer["moves"].clone());
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "every retry sees the same moves");
    let rows = app.journal_rows(&id).await - opening;
    assert_eq!(rows as usize, answers[0].as_array().unwrap().len());
}

#[tokio::test]
async fn a_real_api_gateway_event_reaches_the_handler() {
    let app = App::new().await;
    let state: &AppState = &app.state;
    let sub = Uuid::new_v4();
    let event = include_str!("fixtures/apigw_v2_create_game.json").replace("SUB-PLACEHOLDER", &sub.to_string());
    let request = lambda_http::request::from_str(&event).unwrap();
    let response = handle(state, Route::CreateGame, request).await;
    assert_eq!(response.status().as_u16(), 201);
    let view: Value = serde_json::from_slice(response.body().as_ref()).unwrap();
    let me = &view["seats"][view["your_seat"].as_u64().unwrap() as usize];
    assert_eq!(me["account_id"], sub.to_string());
    assert_eq!(me["display_name"], "ann");
    let without_authoriser = include_str!("fixtures/apigw_v2_no_authorizer.json");
    let response = handle(state, Route::GetGame, lambda_http::request::from_str(without_authoriser).unwrap()).await;
    assert_eq!(response.status().as_u16(), 401);
}
