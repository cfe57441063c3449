//! Every time a player reads is written the same way, RFC 3339 with milliseconds and `Z`,
//! whether the service just computed it (nanoseconds) or read it back from PostgreSQL
//! (microseconds).

use serde_json::Value;

use crate::common::{App, Player};

/// Asserts `v` is a time written as `2025-01-02T03:04:05.678Z`.
fn assert_millis(what: &str, v: &Value) {
    let text = v.as_str().unwrap_or_else(|| panic!("{what} is not a string: {v}"));
    let shape = text.len() == 24 && text.ends_with('Z') && text.as_bytes()[19] == b'.';
    assert!(shape && chrono::DateTime::parse_from_rfc3339(text).is_ok(), "{what}: {text:?} is not RFC 3339 with milliseconds");
}

#[tokio::test]
async fn deadlines_and_activity_times_are_written_with_milliseconds() {
    let app = App::new().await;
    let (me, other) = (Player::new(), Player::new());
    let (status, created) =
        app.call(Some(me), "POST", "/games", r#"{"variant":"scrabble-en","opponents":[{"robot":"easy"}],"turn_seconds":3600}"#).await;
    assert_eq!(status, 201, "{created}");
    assert_millis("a new game's turn_deadline", &created["turn_deadline"]);
    let id = created["game_id"].as_str().unwrap().to_string();
    let (_, read) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    assert_millis("a read game's turn_deadline", &read["turn_deadline"]);
    let body = app.best_move(me, &id).await;
    let (status, moved) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200, "{moved}");
    assert_millis("the deadline after a move", &moved["game"]["turn_deadline"]);

    let (_, mine) = app.call(Some(me), "GET", "/games", "").await;
    let listed = &mine["games"][0];
    assert_millis("my games' turn_deadline", &listed["turn_deadline"]);
    assert_millis("my games' last_activity", &listed["last_activity"]);
    assert_millis("my games' last move", &listed["last_move"]["at"]);

    let (status, opened) = app.call(Some(other), "POST", "/games/open", r#"{"variant":"erudit","turn_seconds":600}"#).await;
    assert_eq!(status, 201, "{opened}");
    let (_, lobby) = app.call(Some(me), "GET", "/games/open", "").await;
    assert_millis("the lobby's created_at", &lobby["games"][0]["created_at"]);
}
