//! The timed paths above the engine, with a clock the test moves by hand: timeout claims, the
//! deadline renewed after every move (robots' included), a move after the deadline refused;
//! and creation made deterministic by a seeded runtime.

use std::sync::Arc;

use crate::common::{App, Player};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use service::{Clock, ManualClock};

fn start() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()))
}

fn deadline(view: &Value) -> Option<DateTime<Utc>> {
    view["turn_deadline"].as_str().map(|t| t.parse().unwrap())
}

#[tokio::test]
async fn a_timeout_is_refused_before_the_deadline_and_recorded_after_it() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 1).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let game =
        app.create_with(ann, &format!(r#"{{"variant":"scrabble-en","opponents":[{{"account":"{}"}}],"turn_seconds":60}}"#, bob.0)).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(deadline(&game), Some(clock.now() + Duration::seconds(60)));
    let ann_moves = game["to_move"] == game["your_seat"];
    let (mover, other) = if ann_moves { (ann, bob) } else { (bob, ann) };

    clock.advance(Duration::seconds(59));
    let (status, refused) = app.call(Some(other), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("deadline_not_passed")), "{refused}");

    clock.advance(Duration::seconds(1));
    let late = json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string();
    let (status, refused) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &late).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("deadline_passed")), "at the deadline itself it has passed");
    assert_eq!(app.journal_rows(&id).await, 0);

    let (status, outcome) = app.call(Some(other), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["moves"][0]["kind"], "timeout");
    assert_ne!(outcome["game"]["to_move"], outcome["moves"][0]["seat"], "the turn passed on");
    assert_eq!(deadline(&outcome["game"]), Some(clock.now() + Duration::seconds(60)), "the next turn's deadline starts now");
}

#[tokio::test]
async fn the_deadline_is_renewed_after_the_robot_replies() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 2).await;
    let me = Player::new();
    let (status, game) =
        app.call(Some(me), "POST", "/games", r#"{"variant":"scrabble-en","opponents":[{"robot":"hard"}],"turn_seconds":300}"#).await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(deadline(&game), Some(clock.now() + Duration::seconds(300)));
    clock.advance(Duration::seconds(100));
    let body = app.best_move(me, &id).await;
    let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["moves"].as_array().unwrap().len(), 2, "the robot replied");
    assert_eq!(deadline(&outcome["game"]), Some(clock.now() + Duration::seconds(300)));

    // My turn runs out: I can claim my own timeout, the robot replies at once, and a fresh
    // deadline starts.
    clock.advance(Duration::seconds(300));
    let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(view["to_move"], view["your_seat"]);
    let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["moves"][0]["kind"], "timeout");
    assert_eq!(outcome["moves"].as_array().unwrap().len(), 2);
    assert_eq!(outcome["game"]["to_move"], view["your_seat"]);
    assert_eq!(deadline(&outcome["game"]), Some(clock.now() + Duration::seconds(300)));
}

#[tokio::test]
async fn a_seeded_runtime_creates_the_same_game_twice() {
    let mut games = Vec::new();
    for _ in 0..2 {
        let app = App::with_clock(start(), 42).await;
        let game = app.create(Player::new(), "erudit", r#"[{"robot":"medium"}]"#).await;
        let draw: Vec<Value> = game["draw"].as_array().unwrap().iter().map(|d| json!([d["round"], d["letter"], d["rank"]])).collect();
        games.push((game["game_id"].clone(), game["your_rack"].clone(), game["your_seat"].clone(), draw, game["move_count"].clone()));
    }
    assert_eq!(games[0], games[1]);
}
