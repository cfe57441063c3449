//! Games a process keeps between requests, by version: two processes over one database (each
//! keeping its own) play games through, and every view either gives equals the view of a
//! process that keeps nothing and replays the journal.

use crate::common::{App, Player, chain_word};
use serde_json::Value;

/// Another process over `app`'s database, keeping nothing yet.
fn process(app: &App) -> App {
    App::on_store(app.state.service.store().clone(), crate::common::test_seed() ^ 1)
}

/// Asserts that `who` sees game `id` alike from every process given and from a new one.
async fn same_everywhere(apps: &[&App], who: Player, id: &str) -> Value {
    let fresh = process(apps[0]);
    let (status, expected) = fresh.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{expected}");
    // Each process's hints and a fresh one's, while the game's hints last for all of them (each
    // hint takes one, so only the moves are compared).
    let hints_last = expected["hints_left"].as_u64().is_none_or(|left| left >= 2 * apps.len() as u64);
    for app in apps {
        let (_, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
        assert_eq!(view, expected);
    }
    for app in apps.iter().filter(|_| hints_last) {
        let (_, hints) = app.call(Some(who), "GET", &format!("/games/{id}/hint?limit=3"), "").await;
        let (_, fresh_hints) = fresh.call(Some(who), "GET", &format!("/games/{id}/hint?limit=3"), "").await;
        assert_eq!(hints["hints"], fresh_hints["hints"]);
    }
    expected
}

#[tokio::test]
async fn two_processes_playing_one_game_see_what_a_fresh_replay_sees_after_every_move() {
    for variant in ["scrabble-en", "erudit"] {
        let a = App::new().await;
        let b = process(&a);
        let (ann, bob) = (Player::new(), Player::new());
        b.create(bob, variant, r#"[{"robot":"easy"}]"#).await;
        let game = a.create(ann, variant, &format!(r#"[{{"account":"{}"}}]"#, bob.0)).await;
        let id = game["game_id"].as_str().unwrap().to_string();
        let ann_seat = game["your_seat"].as_u64().unwrap();
        let mut moves = 0;
        loop {
            let view = same_everywhere(&[&a, &b], ann, &id).await;
            same_everywhere(&[&a, &b], bob, &id).await;
            if view["status"] == "finished" || moves == 200 {
                break;
            }
            // Ann plays through one process, Bob through the other: each reads the game the
            // other changed.
            let (who, app, other) = if view["to_move"].as_u64() == Some(ann_seat) { (ann, &a, &b) } else { (bob, &b, &a) };
            let body = app.best_move(who, &id).await;
            let (status, outcome) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await;
            assert_eq!(status, 200, "{outcome}");
            // Retried through the other process, the request gets its first answer; the same
            // move under a new key is stale there.
            let (status, retried) = other.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await;
            assert_eq!((status, &retried), (200, &outcome));
            let mut fresh_key: Value = serde_json::from_str(&body).unwrap();
            fresh_key["client_move_id"] = Value::from(uuid::Uuid::new_v4().to_string());
            let (status, stale) = other.call(Some(who), "POST", &format!("/games/{id}/moves"), &fresh_key.to_string()).await;
            assert_eq!((status, stale["error"]["code"].as_str()), (409, Some("stale_move")), "{stale}");
            moves += 1;
        }
        let (_, view) = a.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
        assert_eq!(view["status"], "finished", "{variant}: {view}");
        assert_eq!(a.journal_rows(&id).await, view["move_count"].as_i64().unwrap());
    }
}

#[tokio::test]
async fn robot_replies_kept_by_one_process_are_what_another_replays() {
    let a = App::new().await;
    let b = process(&a);
    let me = Player::new();
    // A chain game against a robot, with the most hints a game allows: its words are written
    // through process a (from the dictionary once the hints are spent).
    let game = a.create_with(me, r#"{"variant":"noi-tu","opponents":[{"robot":"medium"}],"hints":20}"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    for _ in 0..30 {
        let view = same_everywhere(&[&a, &b], me, &id).await;
        if view["status"] == "finished" {
            break;
        }
        let (_, hints) = a.call(Some(me), "GET", &format!("/games/{id}/hint?limit=1"), "").await;
        let word = match hints["hints"].as_array() {
            Some(h) => h.first().map(|h| h["word"].clone()),
            None => chain_word(&view).map(Value::from),
        };
        let mv = match word {
            Some(word) => serde_json::json!({"kind": "word", "word": word}),
            None => serde_json::json!({"kind": "resign"}),
        };
        let body = serde_json::json!({"expected_move_no": view["move_count"], "move": mv}).to_string();
        let (status, outcome) = a.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{outcome}");
    }
    // A tile game against the hard robot, written through process b.
    let game = b.create(me, "scrabble-en", r#"[{"robot":"hard"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    for _ in 0..5 {
        same_everywhere(&[&a, &b], me, &id).await;
        let (status, outcome) = b.call(Some(me), "POST", &format!("/games/{id}/moves"), &b.best_move(me, &id).await).await;
        assert_eq!(status, 200, "{outcome}");
    }
    same_everywhere(&[&a, &b], me, &id).await;
}

#[tokio::test]
async fn a_seat_filled_through_one_process_shows_in_the_game_another_kept() {
    let a = App::new().await;
    let b = process(&a);
    let (ann, bob) = (Player::new(), Player::new());
    // Ann opens through a, which keeps the game; Bob joins through b, which changes its seats
    // and draw; a must read the joined game.
    let (status, opened) = a.call(Some(ann), "POST", "/games/open", r#"{"variant":"scrabble-en"}"#).await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["game_id"].as_str().unwrap().to_string();
    let before = same_everywhere(&[&a, &b], ann, &id).await;
    assert_eq!(before["status"], "open");
    let (status, joined) = b.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!(status, 200, "{joined}");
    let after = same_everywhere(&[&a, &b], ann, &id).await;
    same_everywhere(&[&a, &b], bob, &id).await;
    assert_eq!(after["status"], "active");
    assert_ne!(after["draw"], before["draw"], "the draw now names Bob");
    // And the game plays on through both.
    for _ in 0..4 {
        let view = same_everywhere(&[&a, &b], ann, &id).await;
        let ann_to_move = view["to_move"] == view["your_seat"];
        let (who, app) = if ann_to_move { (ann, &a) } else { (bob, &b) };
        let (status, outcome) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), &app.best_move(who, &id).await).await;
        assert_eq!(status, 200, "{outcome}");
    }
}
