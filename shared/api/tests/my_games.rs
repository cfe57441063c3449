//! "My games" (`GET /games`): the caller's games, most recent activity first, filtered by status
//! and turn, paged by a cursor that stays stable while games are added or move; bad filters are
//! typed errors that write nothing.

use std::collections::HashSet;

use crate::common::{App, Player};
use serde_json::{Value, json};

/// Every game `who` lists under `query` (without cursor), `limit` at a time, with `between`
/// run after each page.
async fn all_pages(app: &App, who: Player, query: &str, limit: usize, mut between: impl AsyncFnMut()) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/games?limit={limit}{query}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let (status, page) = app.call(Some(who), "GET", &path, "").await;
        assert_eq!(status, 200, "{page}");
        let games = page["games"].as_array().unwrap();
        assert!(games.len() <= limit);
        out.extend(games.iter().cloned());
        between().await;
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return out,
        }
    }
}

/// A game between `who` and `other` (a human), its id.
async fn versus(app: &App, who: Player, other: Player, variant: &str) -> String {
    let view = app.create(who, variant, &json!([{"account": other.0}]).to_string()).await;
    view["game_id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn my_games_lists_the_callers_games_most_recent_first_with_whose_turn() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let robot_game = app.create(bob, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let chain = versus(&app, ann, bob, "noi-tu").await;
    let tiles = versus(&app, ann, bob, "scrabble-en").await;

    let (status, page) = app.call(Some(ann), "GET", "/games", "").await;
    assert_eq!(status, 200, "{page}");
    let ids: Vec<&str> = page["games"].as_array().unwrap().iter().map(|g| g["game_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [tiles.as_str(), chain.as_str()], "most recent first, only the caller's games");
    assert!(page["next_cursor"].is_null());
    let listed = &page["games"][0];
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{tiles}"), "").await;
    assert_eq!(listed["variant"], "scrabble-en");
    assert_eq!(listed["family"], "tile");
    assert_eq!(listed["status"], "active");
    assert_eq!(listed["your_seat"], view["your_seat"]);
    assert_eq!(listed["to_move"], view["to_move"]);
    assert_eq!(listed["your_turn"], json!(view["to_move"] == view["your_seat"]));
    assert_eq!(listed["seats"].as_array().unwrap().len(), 2);
    assert!(listed["seats"].as_array().unwrap().iter().any(|s| s["account_id"] == json!(bob.0)));
    assert!(listed["last_move"].is_null(), "no move yet");

    // Bob's robot game shows the robot's level and, once it has moved, its last move.
    let (_, bobs) = app.call(Some(bob), "GET", "/games?status=active", "").await;
    let robot_listed = bobs["games"].as_array().unwrap().iter().find(|g| g["game_id"] == robot_game["game_id"]).unwrap().clone();
    assert!(robot_listed["seats"].as_array().unwrap().iter().any(|s| s["robot_level"] == "easy"));
    assert_eq!(robot_listed["your_turn"], true, "a robot never keeps the turn");

    // The one whose turn it is finds the game under turn=mine; the other does not.
    let mover = if view["to_move"] == view["your_seat"] { ann } else { bob };
    let waiter = if mover.0 == ann.0 { bob } else { ann };
    let mine = |p: Value| p["games"].as_array().unwrap().iter().map(|g| g["game_id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert!(mine(app.call(Some(mover), "GET", "/games?turn=mine", "").await.1).contains(&tiles));
    assert!(!mine(app.call(Some(waiter), "GET", "/games?turn=mine", "").await.1).contains(&tiles));

    // The mover plays: the game comes first for both, with its last move, and the turn passes.
    let body = app.best_move(mover, &tiles).await;
    let (status, moved) = app.call(Some(mover), "POST", &format!("/games/{tiles}/moves"), &body).await;
    assert_eq!(status, 200, "{moved}");
    let (_, page) = app.call(Some(waiter), "GET", "/games?turn=mine&status=active", "").await;
    let first = &page["games"][0];
    assert_eq!(first["game_id"], tiles.as_str());
    assert_eq!(first["your_turn"], true);
    assert_eq!(first["last_move"]["seat"], moved["moves"][0]["seat"]);
    assert!(first["last_move"]["kind"].is_string() && first["last_move"]["at"].is_string(), "{first}");
    let scores: Vec<i64> = first["seats"].as_array().unwrap().iter().map(|s| s["score"].as_i64().unwrap()).collect();
    let view_scores: Vec<i64> = moved["game"]["seats"].as_array().unwrap().iter().map(|s| s["score"].as_i64().unwrap()).collect();
    assert_eq!(scores, view_scores);
    assert!(mine(app.call(Some(mover), "GET", "/games?turn=mine", "").await.1).iter().all(|g| g != &tiles));

    // Finished games by status.
    let (status, body) = app.call(Some(ann), "POST", &format!("/games/{chain}/resign"), "").await;
    assert_eq!(status, 200, "{body}");
    let finished = mine(app.call(Some(bob), "GET", "/games?status=finished", "").await.1);
    assert_eq!(finished, vec![chain]);
    let (_, page) = app.call(Some(bob), "GET", "/games?status=finished", "").await;
    assert_eq!(page["games"][0]["to_move"], Value::Null);
    assert_eq!(page["games"][0]["your_turn"], false);
}

#[tokio::test]
async fn paging_is_stable_while_games_are_added_and_move() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let mut before = Vec::new();
    for _ in 0..7 {
        before.push(versus(&app, ann, bob, "noi-tu").await);
    }
    // Page two at a time while new games appear after every page: each game that existed at
    // the start comes exactly once, in order of activity, and the new ones (at the top) never
    // push an old one off or in twice.
    let mut added = Vec::new();
    let listed = all_pages(&app, ann, "", 2, async || added.push(versus(&app, ann, bob, "noi-tu").await)).await;
    let ids: Vec<String> = listed.iter().map(|g| g["game_id"].as_str().unwrap().to_string()).collect();
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "no game twice: {ids:?}");
    let expected: Vec<String> = before.iter().rev().cloned().collect();
    assert_eq!(ids, expected, "every game there was at the start, newest first, none of those added since");
    let times: Vec<&str> = listed.iter().map(|g| g["last_activity"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");

    // A full pass now sees all of them.
    let listed = all_pages(&app, ann, "", 3, async || {}).await;
    assert_eq!(listed.len(), before.len() + added.len());
}

#[tokio::test]
async fn bad_filters_cursors_and_limits_are_typed_errors_that_write_nothing() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    versus(&app, ann, bob, "noi-tu").await;
    let before = app.everything().await;
    for (query, code) in [
        ("status=playing", "unknown_status"),
        ("status=", "unknown_status"),
        ("turn=theirs", "unknown_turn"),
        ("cursor=nonsense", "bad_cursor"),
        ("cursor=1.x", "bad_cursor"),
        ("limit=0", "invalid_query"),
        ("limit=51", "invalid_query"),
        ("limit=ten", "invalid_query"),
    ] {
        let (status, body) = app.call(Some(ann), "GET", &format!("/games?{query}"), "").await;
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some(code)), "{query}: {body}");
    }
    let (status, body) = app.call(None, "GET", "/games", "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("unauthenticated")));
    assert_eq!(app.everything().await, before);
    // A stranger has no games.
    let (status, page) = app.call(Some(Player::new()), "GET", "/games", "").await;
    assert_eq!((status, page["games"].as_array().unwrap().len()), (200, 0));
}
