//! Time controls through the API, with a clock the test moves by hand: real-time clocks with
//! increment, correspondence banks, overtime penalties at 59 s / 60 s / 61 s, a flag fall that
//! ends the game the same way whoever notices it (a claim, any request, the sweep), submits
//! across a flag fall (a retry, a late move, a race with a claim), robots under a clock, the
//! chain's turn timer, the controls refused, the lobby's filter and expiry, and a game from
//! before time controls.

use std::sync::Arc;

use crate::common::{App, Player};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use service::{Clock, ManualClock, SweepConfig};
use uuid::Uuid;

fn start() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()))
}

fn time(v: &Value) -> Option<DateTime<Utc>> {
    v.as_str().map(|t| t.parse().unwrap())
}

/// A game between `ann` and `bob` (both accept) under `control`: its id and who moves first.
async fn duel(app: &App, ann: Player, bob: Player, variant: &str, control: Value) -> (String, Player, Player) {
    // Bob's account exists once he has played a game.
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let body = json!({"variant": variant, "opponents": [{"account": bob.0}], "time_control": control}).to_string();
    let game = app.create_with(ann, &body).await;
    assert_eq!(game["time_control"], control, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    let (first, second) = if game["to_move"] == game["your_seat"] { (ann, bob) } else { (bob, ann) };
    (id, first, second)
}

async fn view(app: &App, who: Player, id: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

/// `who` passes at the game's move count (with `key` as the client move id, if given).
async fn pass(app: &App, who: Player, id: &str, key: Option<Uuid>) -> (u16, Value) {
    let moves = view(app, who, id).await["move_count"].clone();
    let body = json!({"expected_move_no": moves, "client_move_id": key, "move": {"kind": "pass"}}).to_string();
    app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await
}

fn seat_of(view: &Value, who: Player) -> usize {
    view["seats"].as_array().unwrap().iter().position(|s| s["account_id"] == who.0.to_string()).unwrap()
}

fn remaining(view: &Value, seat: usize) -> i64 {
    view["clock"]["seats"][seat]["remaining_ms"].as_i64().unwrap()
}

const CLOCK: &str = r#"{"kind":"realtime","initial_seconds":600,"increment_seconds":5,"max_overtime_minutes":1}"#;

#[tokio::test]
async fn a_real_time_clock_runs_on_the_mover_adds_the_increment_and_charges_a_robot_its_real_time() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 3).await;
    let (ann, bob) = (Player::new(), Player::new());
    let control: Value = serde_json::from_str(CLOCK).unwrap();
    let (id, first, second) = duel(&app, ann, bob, "scrabble-en", control.clone()).await;
    let v = view(&app, first, &id).await;
    let (a, b) = (seat_of(&v, first), seat_of(&v, second));
    assert_eq!((v["clock"]["running"].as_u64(), time(&v["clock"]["now"])), (Some(a as u64), Some(clock.now())));
    assert_eq!(time(&v["clock"]["flag_at"]), Some(clock.now() + Duration::seconds(660)), "600 s and a minute of overtime");

    clock.advance(Duration::seconds(30));
    let v = view(&app, second, &id).await;
    assert_eq!((remaining(&v, a), remaining(&v, b)), (570_000, 600_000), "only the mover's clock runs");
    assert_eq!(pass(&app, first, &id, None).await.0, 200);
    clock.advance(Duration::seconds(12));
    let v = view(&app, first, &id).await;
    assert_eq!((remaining(&v, a), remaining(&v, b)), (575_000, 588_000), "30 s spent, 5 s added; 12 s running");
    assert_eq!(v["clock"]["seats"][a]["overtime_penalty"], 0);
    assert_eq!(time(&v["turn_deadline"]), time(&v["clock"]["flag_at"]));

    // Against a robot: its clock is charged with its decision time (none, on a clock that
    // stands still), never the thinking delay it asks the client to show.
    let me = Player::new();
    let body = json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}], "time_control": control}).to_string();
    let (status, game) = app.call(Some(me), "POST", "/games", &body).await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    let mine = game["your_seat"].as_u64().unwrap() as usize;
    let robot = 1 - mine;
    let robot_moves = game["move_count"].as_i64().unwrap();
    assert_eq!(remaining(&game, robot), 600_000 + 5_000 * robot_moves);
    clock.advance(Duration::seconds(40));
    let (status, outcome) = pass(&app, me, &id, None).await;
    assert_eq!(status, 200, "{outcome}");
    assert!(outcome["thinking_ms"].as_u64().unwrap() > 0, "{outcome}");
    let v = &outcome["game"];
    assert_eq!(remaining(v, mine), 565_000);
    assert_eq!(remaining(v, robot), 600_000 + 5_000 * (robot_moves + 1), "the robot replied in no time and gained its increment");
    assert_eq!(v["clock"]["running"].as_u64(), Some(mine as u64));
}

#[tokio::test]
async fn a_correspondence_bank_pays_for_long_turns_until_it_is_empty() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 4).await;
    let (ann, bob) = (Player::new(), Player::new());
    let control = json!({"kind": "correspondence", "turn_seconds": 60, "bank_seconds": 100});
    let (id, first, second) = duel(&app, ann, bob, "scrabble-en", control.clone()).await;
    let a = seat_of(&view(&app, first, &id).await, first);
    clock.advance(Duration::seconds(90));
    assert_eq!(pass(&app, first, &id, None).await.0, 200);
    let v = view(&app, first, &id).await;
    assert_eq!(v["clock"]["seats"][a]["bank_ms"], 70_000, "30 s over the limit came from the bank");
    assert_eq!(pass(&app, second, &id, None).await.0, 200);
    let deadline = clock.now() + Duration::seconds(60 + 70);
    assert_eq!(time(&view(&app, first, &id).await["turn_deadline"]), Some(deadline));
    clock.advance(Duration::seconds(129));
    let (status, refused) = app.call(Some(second), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("deadline_not_passed")), "the bank still pays");
    clock.advance(Duration::seconds(1));
    let (status, outcome) = app.call(Some(second), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["moves"][0]["kind"], "timeout", "a tile game loses the turn, not the game");
    assert_eq!(outcome["game"]["status"], "active");
    assert_eq!(outcome["game"]["clock"]["seats"][a]["bank_ms"], 0);
    assert_eq!(time(&outcome["game"]["turn_deadline"]), Some(clock.now() + Duration::seconds(160)), "the other's bank is whole");

    // The chain loses the game when its bank is gone.
    let (id, first, _) = duel(&app, ann, bob, "noi-tu", json!({"kind": "correspondence", "turn_seconds": 30, "bank_seconds": 20})).await;
    clock.advance(Duration::seconds(50));
    let v = view(&app, first, &id).await;
    assert_eq!((v["status"].as_str(), v["result"]["reason"].as_str()), (Some("finished"), Some("timeout")), "{v}");
    assert_eq!(v["result"]["seat"].as_u64(), Some(seat_of(&v, first) as u64));
}

#[tokio::test]
async fn overtime_costs_ten_points_a_started_minute_at_59_60_and_61_seconds() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 5).await;
    let control = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 5});
    for (over, penalty) in [(59, 10), (60, 10), (61, 20)] {
        let (ann, bob) = (Player::new(), Player::new());
        let (id, first, second) = duel(&app, ann, bob, "scrabble-en", control.clone()).await;
        clock.advance(Duration::seconds(60 + over));
        assert_eq!(pass(&app, first, &id, None).await.0, 200);
        let v = view(&app, second, &id).await;
        let a = seat_of(&v, first);
        assert_eq!(v["clock"]["seats"][a]["overtime_penalty"], penalty, "{over} s over");
        // Five more passes end the game (six scoreless turns), each at once.
        let mut who = second;
        while view(&app, who, &id).await["status"] == "active" {
            assert_eq!(pass(&app, who, &id, None).await.0, 200);
            who = if who.0 == first.0 { second } else { first };
        }
        let (status, moves) = app.call(Some(first), "GET", &format!("/games/{id}/moves"), "").await;
        assert_eq!(status, 200, "{moves}");
        let penalties: Vec<(u64, i64)> = moves["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kind"] == "time_penalty")
            .map(|m| (m["seat"].as_u64().unwrap(), m["score"].as_i64().unwrap()))
            .collect();
        assert_eq!(penalties, vec![(a as u64, -penalty)], "{over} s over: {moves}");
        let end = view(&app, first, &id).await;
        let settled = end["result"]["adjustments"][a].as_i64().unwrap();
        assert_eq!(end["seats"][a]["score"].as_i64().unwrap(), settled - penalty, "the penalty comes off the final score");
    }
}

#[tokio::test]
async fn a_flag_fall_ends_the_game_the_same_way_whether_a_claim_a_request_or_the_sweep_notices_it() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 6).await;
    let control = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 1});
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(duel(&app, Player::new(), Player::new(), "erudit", control.clone()).await);
    }
    let flag = clock.now() + Duration::seconds(120);
    assert_eq!(time(&view(&app, games[0].1, &games[0].0).await["clock"]["flag_at"]), Some(flag));
    clock.advance(Duration::seconds(119));
    let (status, refused) = app.call(Some(games[0].2), "POST", &format!("/games/{}/timeout", games[0].0), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("deadline_not_passed")), "a second early");

    clock.advance(Duration::seconds(6));
    let (status, claimed) = app.call(Some(games[0].2), "POST", &format!("/games/{}/timeout", games[0].0), "").await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["moves"][0]["kind"], "out_of_time");
    clock.advance(Duration::seconds(45));
    let seen = view(&app, games[1].1, &games[1].0).await;
    assert_eq!(seen["status"], "finished", "a view records the fall: {seen}");
    clock.advance(Duration::seconds(50));
    let report = app.state.service.sweep(SweepConfig::default()).await.unwrap();
    assert_eq!(report.timed_out.iter().map(ToString::to_string).collect::<Vec<_>>(), vec![games[2].0.clone()]);

    for (id, flagged, other) in &games {
        let v = view(&app, *other, id).await;
        let seat = seat_of(&v, *flagged) as u64;
        assert_eq!(v["result"]["reason"], "timeout", "{v}");
        assert_eq!((v["result"]["seat"].as_u64(), v["result"]["winners"].clone()), (Some(seat), json!([1 - seat])));
        assert_eq!(v["last_move"]["kind"], "out_of_time");
        assert_eq!(v["clock"]["running"], Value::Null);
        let (finished, played): (DateTime<Utc>, DateTime<Utc>) = sqlx::query_as(
            "SELECT g.finished_at, m.played_at FROM games g JOIN game_moves m ON m.game_id = g.game_id AND m.move_no = g.move_count - 1
             WHERE g.game_id = $1::uuid",
        )
        .bind(id)
        .fetch_one(app.pool())
        .await
        .unwrap();
        assert_eq!((finished, played), (flag, flag), "recorded as of the fall, whoever noticed it and when");
    }
}

#[tokio::test]
async fn a_submit_after_the_flag_fell_is_time_over_and_a_retry_of_an_earlier_one_gets_its_answer() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 8).await;
    let control = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 0});
    let (id, first, second) = duel(&app, Player::new(), Player::new(), "scrabble-ru", control.clone()).await;
    clock.advance(Duration::seconds(10));
    let key = Uuid::new_v4();
    let (status, answer) = pass(&app, first, &id, Some(key)).await;
    assert_eq!(status, 200, "{answer}");

    clock.advance(Duration::seconds(61));
    let late = Uuid::new_v4();
    let body = json!({"expected_move_no": 1, "client_move_id": late, "move": {"kind": "pass"}}).to_string();
    let (status, refused) = app.call(Some(second), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("time_over")), "{refused}");
    assert_eq!(app.journal_rows(&id).await, 2, "the pass and the fall, not the late move");
    let (status, again) = app.call(Some(second), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!((status, again["error"]["code"].as_str()), (409, Some("time_over")), "a retry is refused the same way");
    // A retry of the move made in time gets its first answer, unchanged.
    let first_body = json!({"expected_move_no": 0, "client_move_id": key, "move": {"kind": "pass"}}).to_string();
    let (status, replayed) = app.call(Some(first), "POST", &format!("/games/{id}/moves"), &first_body).await;
    assert_eq!((status, &replayed), (200, &answer));

    // A submit racing a claim past the fall: the fall is recorded once, the move never.
    for seed in 0..3 {
        let (id, mover, other) = duel(&app, Player::new(), Player::new(), "scrabble-en", control.clone()).await;
        clock.advance(Duration::seconds(61));
        let body = json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string();
        let path = format!("/games/{id}/moves");
        let claim_path = format!("/games/{id}/timeout");
        let (submitted, claimed) =
            tokio::join!(app.call(Some(mover), "POST", &path, &body), app.call(Some(other), "POST", &claim_path, ""));
        assert_eq!((submitted.0, submitted.1["error"]["code"].as_str()), (409, Some("time_over")), "race {seed}: {submitted:?}");
        assert!(claimed.0 == 200 || claimed.1["error"]["code"] == "game_over", "race {seed}: {claimed:?}");
        let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM game_moves WHERE game_id = $1::uuid ORDER BY move_no")
            .bind(&id)
            .fetch_all(app.pool())
            .await
            .unwrap();
        assert_eq!(kinds, ["out_of_time"], "race {seed}");
    }
}

#[tokio::test]
async fn the_chains_turn_timer_loses_the_game_on_a_view_and_refuses_the_late_word() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 9).await;
    let me = Player::new();
    let body = json!({"variant": "noi-tu", "opponents": [{"robot": "easy"}], "time_control": {"kind": "realtime", "turn_seconds": 20}});
    let (status, game) = app.call(Some(me), "POST", "/games", &body.to_string()).await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(time(&game["clock"]["flag_at"]), Some(clock.now() + Duration::seconds(20)));
    assert_eq!(remaining(&game, game["your_seat"].as_u64().unwrap() as usize), 20_000);
    clock.advance(Duration::seconds(21));
    let v = view(&app, me, &id).await;
    assert_eq!((v["status"].as_str(), v["result"]["reason"].as_str()), (Some("finished"), Some("timeout")), "{v}");
    let word = json!({"expected_move_no": game["move_count"], "move": {"kind": "word", "word": "học sinh"}}).to_string();
    let (status, refused) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &word).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("time_over")));
}

/// Opens the game `body` asks for as `who`: its id.
async fn open(app: &App, who: Player, body: Value) -> String {
    let (status, game) = app.call(Some(who), "POST", "/games/open", &body.to_string()).await;
    assert_eq!(status, 201, "{game}");
    game["game_id"].as_str().unwrap().to_string()
}

/// The lobby as `who` sees it, games of a control of `kind`: each game's id and kind.
async fn lobby(app: &App, who: Player, kind: &str) -> Vec<(String, Value)> {
    let (status, page) = app.call(Some(who), "GET", &format!("/games/open?time_control={kind}"), "").await;
    assert_eq!(status, 200, "{page}");
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["game_id"].as_str().unwrap().to_string(), g["time_control"]["kind"].clone()))
        .collect()
}

#[tokio::test]
async fn controls_are_checked_filtered_in_the_lobby_and_a_real_time_open_game_expires_in_fifteen_minutes() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 10).await;
    let (ann, bob) = (Player::new(), Player::new());
    for (variant, control) in [
        ("noi-tu", json!({"kind": "realtime", "initial_seconds": 600})),
        ("erudit", json!({"kind": "realtime", "turn_seconds": 20})),
        ("erudit", json!({"kind": "realtime", "initial_seconds": 30})),
        ("erudit", json!({"kind": "realtime", "initial_seconds": 600, "max_overtime_minutes": 11})),
        ("erudit", json!({"kind": "correspondence", "turn_seconds": 60, "bank_seconds": 2_592_001})),
        ("noi-tu", json!({"kind": "realtime", "turn_seconds": 4})),
        ("erudit", json!({"kind": "blitz"})),
        ("erudit", json!({"kind": "none", "turn_seconds": 60})),
        ("erudit", json!("realtime")),
    ] {
        let body = json!({"variant": variant, "opponents": [{"robot": "easy"}], "time_control": control}).to_string();
        let before = app.everything().await;
        let (status, refused) = app.call(Some(ann), "POST", "/games", &body).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (400, Some("bad_time_control")), "{body}: {refused}");
        assert_eq!(app.everything().await, before, "{body}: nothing written");
    }
    let both = json!({"variant": "erudit", "time_control": {"kind": "none"}, "turn_seconds": 60}).to_string();
    assert_eq!(app.call(Some(ann), "POST", "/games/open", &both).await.1["error"]["code"], "bad_time_control");

    let live = open(&app, ann, json!({"variant": "erudit", "time_control": serde_json::from_str::<Value>(CLOCK).unwrap()})).await;
    let post = open(&app, ann, json!({"variant": "erudit", "turn_seconds": 86_400})).await;
    assert_eq!(lobby(&app, bob, "realtime").await, vec![(live.clone(), json!("realtime"))]);
    assert_eq!(lobby(&app, bob, "correspondence").await, vec![(post.clone(), json!("correspondence"))]);
    assert_eq!(lobby(&app, bob, "none").await, vec![]);
    assert_eq!(app.call(Some(bob), "GET", "/games/open?time_control=fast", "").await.1["error"]["code"], "bad_time_control");

    clock.advance(Duration::minutes(15) + Duration::seconds(1));
    let report = app.state.service.sweep(SweepConfig::default()).await.unwrap();
    assert_eq!(report.expired.iter().map(ToString::to_string).collect::<Vec<_>>(), vec![live], "the correspondence one waits 7 days");
}

#[tokio::test]
async fn a_game_from_before_time_controls_keeps_its_turn_limit() {
    let clock = start();
    let app = App::with_clock(clock.clone(), 11).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}], "turn_seconds": 60}).to_string();
    let game = app.create_with(ann, &body).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let (mover, other) = if game["to_move"] == game["your_seat"] { (ann, bob) } else { (bob, ann) };
    assert_eq!(pass(&app, mover, &id, None).await.0, 200);
    // As the release before wrote it: no control, no start, no commit times.
    sqlx::query("UPDATE games SET time_control = NULL, started_at = NULL WHERE game_id = $1::uuid")
        .bind(&id)
        .execute(app.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE game_moves SET played_at = NULL WHERE game_id = $1::uuid").bind(&id).execute(app.pool()).await.unwrap();
    let v = view(&app, other, &id).await;
    assert_eq!(v["time_control"], json!({"kind": "correspondence", "turn_seconds": 60, "bank_seconds": 0}));
    assert_eq!(time(&v["clock"]["flag_at"]), time(&v["turn_deadline"]), "{v}");
    clock.advance(Duration::seconds(60));
    let (status, outcome) = app.call(Some(mover), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!((outcome["moves"][0]["kind"].as_str(), outcome["game"]["status"].as_str()), (Some("timeout"), Some("active")));
    assert_eq!(time(&outcome["game"]["turn_deadline"]), Some(clock.now() + Duration::seconds(60)));
}
