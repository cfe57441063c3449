//! The sweep, with a clock the test moves by hand: timed games past their deadline get their
//! timeout recorded by the same rules as a claim (the tile game's turn passes, the chain game is
//! lost), open games nobody joined within the expiry are withdrawn, each once (a second sweep
//! finds nothing); a backlog of hundreds drains in one run, batch after batch, the longest
//! overdue first, unless the run's budget ends it first, and what is left is reported; each run
//! says when the next thing falls due.

use std::sync::Arc;

use crate::common::{App, Player};
use chrono::{DateTime, Duration};
use serde_json::{Value, json};
use service::{ManualClock, SweepConfig};

fn config(batch: usize) -> SweepConfig {
    SweepConfig { batch, open_expiry: Duration::hours(1), ..SweepConfig::default() }
}

async fn timed(app: &App, who: Player, other: Player, variant: &str) -> String {
    let body = json!({"variant": variant, "opponents": [{"account": other.0}], "turn_seconds": 60}).to_string();
    let game = app.create_with(who, &body).await;
    game["game_id"].as_str().unwrap().to_string()
}

async fn view(app: &App, who: Player, id: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

#[tokio::test]
async fn the_sweep_records_timeouts_and_expires_open_games_once_each() {
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 7).await;
    let svc = &app.state.service;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let tiles = timed(&app, ann, bob, "scrabble-en").await;
    let chain = timed(&app, ann, bob, "noi-tu").await;
    let untimed = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await["game_id"].as_str().unwrap().to_string();
    let (status, open) = app.call(Some(cy), "POST", "/games/open", r#"{"variant":"erudit","turn_seconds":60}"#).await;
    assert_eq!(status, 201, "{open}");
    let open = open["game_id"].as_str().unwrap().to_string();

    let nothing = svc.sweep(config(10)).await.unwrap();
    assert!(nothing.timed_out.is_empty() && nothing.expired.is_empty(), "{nothing:?}");

    // Past the deadline: both timed games get their timeout, by the claim's rules.
    clock.advance(Duration::seconds(60));
    let before = view(&app, ann, &tiles).await;
    let report = svc.sweep(config(10)).await.unwrap();
    let mut timed_out: Vec<String> = report.timed_out.iter().map(ToString::to_string).collect();
    timed_out.sort();
    let mut expected = vec![tiles.clone(), chain.clone()];
    expected.sort();
    assert_eq!(timed_out, expected, "{report:?}");
    assert!(report.expired.is_empty(), "the open game is not an hour old");
    let after = view(&app, ann, &tiles).await;
    assert_eq!(after["last_move"]["kind"], "timeout");
    assert_eq!(after["last_move"]["seat"], before["to_move"]);
    assert_ne!(after["to_move"], before["to_move"], "the tile game's turn passed on");
    assert_eq!(after["status"], "active");
    let lost = view(&app, ann, &chain).await;
    assert_eq!((lost["status"].as_str(), lost["result"]["reason"].as_str()), (Some("finished"), Some("timeout")));
    assert_eq!(view(&app, ann, &untimed).await["move_count"], 0, "an untimed game never times out");

    // At once again: nothing is due, nothing is written.
    let digest = app.everything().await;
    let again = svc.sweep(config(10)).await.unwrap();
    assert!(again.timed_out.is_empty() && again.expired.is_empty(), "{again:?}");
    assert_eq!(app.everything().await, digest, "idempotent");

    // An hour on: the open game nobody joined is withdrawn (no result); the tile game times out
    // again, one game per run with a batch of one.
    clock.advance(Duration::hours(1));
    let first = svc.sweep(config(1)).await.unwrap();
    assert_eq!(first.timed_out.len() + first.expired.len(), 2, "one of each kind: {first:?}");
    assert_eq!(first.expired.iter().map(ToString::to_string).collect::<Vec<_>>(), std::slice::from_ref(&open));
    let gone = view(&app, cy, &open).await;
    assert_eq!((gone["status"].as_str(), gone["result"].is_null()), (Some("withdrawn"), true));
    let (status, refused) = app.call(Some(Player::new()), "POST", &format!("/games/{open}/join"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("not_open")));
    let second = svc.sweep(config(1)).await.unwrap();
    assert!(second.timed_out.is_empty() && second.expired.is_empty(), "{second:?}");
}

/// Each run reports when the next thing falls due, as of its start: none when nothing waits, an
/// open game's expiry, a timed game's turn deadline when it comes first. What lets the sweep of
/// Profile small leave the database asleep until then (`service::SweepSleep`).
#[tokio::test]
async fn the_sweep_reports_when_the_next_thing_falls_due() {
    let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
    let clock = Arc::new(ManualClock::new(start));
    let app = App::with_clock(clock.clone(), 7).await;
    let svc = &app.state.service;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    assert_eq!(svc.sweep(config(10)).await.unwrap().next_due, None, "nothing waits");

    let (status, open) = app.call(Some(cy), "POST", "/games/open", r#"{"variant":"erudit","turn_seconds":600}"#).await;
    assert_eq!(status, 201, "{open}");
    assert_eq!(svc.sweep(config(10)).await.unwrap().next_due, Some(start + Duration::hours(1)), "the open game's expiry");

    clock.advance(Duration::minutes(5));
    let (status, me) = app.call(Some(bob), "GET", "/me", "").await;
    assert_eq!(status, 200, "bob's account: {me}");
    let tiles = timed(&app, ann, bob, "scrabble-en").await;
    let deadline: DateTime<chrono::Utc> = view(&app, ann, &tiles).await["turn_deadline"].as_str().unwrap().parse().unwrap();
    assert!(deadline < start + Duration::hours(1), "{deadline}");
    assert_eq!(svc.sweep(config(10)).await.unwrap().next_due, Some(deadline), "the turn's deadline comes first");
}

#[tokio::test]
async fn a_game_that_moved_before_the_sweep_reached_it_is_left_alone() {
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 9).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let id = timed(&app, ann, bob, "scrabble-en").await;
    clock.advance(Duration::seconds(61));
    // The other player claims first; the sweep then finds the renewed deadline not passed.
    let game = view(&app, ann, &id).await;
    let other = if game["to_move"] == game["your_seat"] { bob } else { ann };
    let (status, claimed) = app.call(Some(other), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{claimed}");
    let rows = app.journal_rows(&id).await;
    let report = app.state.service.sweep(config(10)).await.unwrap();
    assert!(report.timed_out.is_empty(), "{report:?}");
    assert_eq!(app.journal_rows(&id).await, rows);
}

#[tokio::test]
async fn one_run_clears_a_backlog_of_hundreds_of_overdue_games_longest_overdue_first() {
    const GAMES: usize = 300;
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 11).await;
    let svc = &app.state.service;
    // Four pairs of players, each under the cap on an account's unfinished games.
    let pairs: Vec<(Player, Player)> = (0..4).map(|_| (Player::new(), Player::new())).collect();
    for (_, bob) in &pairs {
        app.create(*bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    }
    // Deadlines a second apart, in the order the games are made.
    let mut games = Vec::new();
    for n in 0..GAMES {
        let (ann, bob) = pairs[n % pairs.len()];
        games.push(timed(&app, ann, bob, "noi-tu").await);
        clock.advance(Duration::seconds(1));
    }
    clock.advance(Duration::minutes(2));
    let ids = |report: &service::SweepReport| report.timed_out.iter().map(ToString::to_string).collect::<Vec<_>>();

    // A run whose budget is spent after its first batch stops there and reports the rest.
    let first = svc.sweep(SweepConfig { budget: Duration::zero(), ..config(50) }).await.unwrap();
    assert_eq!(ids(&first), games[..50], "the longest overdue first");
    assert_eq!(first.backlog, (GAMES - 50) as u64);
    // One run with its budget clears the whole backlog, batch after batch, oldest first.
    let rest = svc.sweep(config(50)).await.unwrap();
    assert_eq!(ids(&rest), games[50..]);
    assert_eq!((rest.backlog, rest.skipped), (0, 0));
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM games WHERE status = 'active' AND turn_deadline IS NOT NULL")
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
}
