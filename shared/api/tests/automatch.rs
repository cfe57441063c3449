//! Auto-match: open a game (the draw runs at once against a placeholder), list, join, attach a
//! robot, with the placeholder's draw rows back-filled.

use crate::common::{App, Player};
use serde_json::{Value, json};

async fn open(app: &App, who: Player, variant: &str) -> Value {
    let (status, view) = app.call(Some(who), "POST", "/games/open", &json!({"variant": variant}).to_string()).await;
    assert_eq!(status, 201, "{view}");
    view
}

/// Withdraws `view`'s game (an open game the opener does not want) and opens another: one
/// account may hold only a few open games of a variant.
async fn reopen(app: &App, who: Player, variant: &str, view: &Value) -> Value {
    let id = view["game_id"].as_str().unwrap();
    let (status, gone) = app.call(Some(who), "POST", &format!("/games/{id}/withdraw"), "").await;
    assert_eq!((status, gone["status"].as_str()), (200, Some("withdrawn")), "{gone}");
    open(app, who, variant).await
}

/// The draw rows of a game: (account id or null, rank, round).
async fn draw_rows(app: &App, id: &str) -> Vec<(Option<uuid::Uuid>, i16, i16)> {
    sqlx::query_as("SELECT account_id, rank, round FROM game_setup_draws WHERE game_id = $1::uuid ORDER BY round, pick_no")
        .bind(id)
        .fetch_all(app.pool())
        .await
        .unwrap()
}

/// Whether the draw's last round was won by `account` (None = the placeholder).
fn won_by(rows: &[(Option<uuid::Uuid>, i16, i16)], account: Option<uuid::Uuid>) -> bool {
    let last = rows.iter().map(|r| r.2).max().unwrap();
    let best = rows.iter().filter(|r| r.2 == last).min_by_key(|r| r.1).unwrap();
    best.0 == account
}

#[tokio::test]
async fn opening_draws_against_a_placeholder_and_seats_the_opener_where_the_draw_says() {
    let app = App::new().await;
    let ann = Player::new();
    let view = open(&app, ann, "erudit").await;
    let id = view["game_id"].as_str().unwrap();
    assert_eq!(view["status"], "open");
    assert_eq!(view["draw"], json!([]), "the draw is shown once the game is active");
    let rows = draw_rows(&app, id).await;
    assert!(rows.iter().any(|r| r.0.is_none()), "the placeholder's rows have no account");
    assert!(rows.iter().any(|r| r.0 == Some(ann.0)));
    let seat = view["your_seat"].as_u64().unwrap();
    assert_eq!(seat == 0, won_by(&rows, Some(ann.0)), "the draw's winner sits at seat 0");
    assert!(view["seats"][1 - seat as usize]["account_id"].is_null());
}

#[tokio::test]
async fn the_lobby_lists_others_open_games_oldest_first() {
    let app = App::new().await;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    let first = open(&app, ann, "scrabble-en").await;
    let second = open(&app, bob, "scrabble-en").await;
    open(&app, bob, "erudit").await;
    let (status, list) = app.call(Some(cy), "GET", "/games/open?variant=scrabble-en", "").await;
    assert_eq!(status, 200);
    let ids: Vec<&Value> = list["games"].as_array().unwrap().iter().map(|g| &g["game_id"]).collect();
    assert_eq!(ids, vec![&first["game_id"], &second["game_id"]]);
    let (_, mine) = app.call(Some(ann), "GET", "/games/open", "").await;
    assert!(mine["games"].as_array().unwrap().iter().all(|g| g["game_id"] != first["game_id"]), "not one's own");
    assert_eq!(mine["games"].as_array().unwrap().len(), 2);
    let (status, bad) = app.call(Some(cy), "GET", "/games/open?variant=chess", "").await;
    assert_eq!((status, bad["error"]["code"].as_str()), (400, Some("unknown_variant")));
}

#[tokio::test]
async fn joining_fills_the_seat_back_fills_the_draw_and_keeps_the_openers_premove() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    // Open until the opener leads, so they can play while waiting.
    let mut view = open(&app, ann, "scrabble-en").await;
    for _ in 0..40 {
        if view["your_seat"] == 0 {
            break;
        }
        view = reopen(&app, ann, "scrabble-en", &view).await;
    }
    assert_eq!(view["your_seat"], 0, "the opener should lead in one of 40 draws");
    let id = view["game_id"].as_str().unwrap().to_string();
    let body = app.best_move(ann, &id).await;
    let (status, pre) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200, "{pre}");
    assert_eq!(pre["game"]["status"], "open");
    let premove = pre["moves"][0].clone();

    let (status, joined) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["status"], "active");
    assert_eq!(joined["your_seat"], 1);
    assert_eq!(joined["to_move"], 1);
    // Bob sees ann's move as any other seat does: an exchange (the best move for a rack that
    // spells nothing) by its count alone.
    let mut seen_by_bob = premove.clone();
    if seen_by_bob["kind"] == "exchange" {
        seen_by_bob.as_object_mut().unwrap().remove("tiles");
    }
    assert_eq!(joined["last_move"], seen_by_bob, "the journal is never re-seated");
    assert!(!joined["draw"].as_array().unwrap().is_empty());
    let rows = draw_rows(&app, &id).await;
    assert!(rows.iter().all(|r| r.0.is_some()), "back-filled");
    assert!(rows.iter().any(|r| r.0 == Some(bob.0)));
    assert!(won_by(&rows, Some(ann.0)));

    let (status, again) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, again["error"]["code"].as_str()), (409, Some("already_seated")));
    let (status, full) = app.call(Some(Player::new()), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, full["error"]["code"].as_str()), (409, Some("not_open")));
}

#[tokio::test]
async fn an_opener_who_does_not_lead_waits_and_cannot_join_their_own_game() {
    let app = App::new().await;
    let ann = Player::new();
    let mut view = open(&app, ann, "scrabble-en").await;
    for _ in 0..40 {
        if view["your_seat"] == 1 {
            break;
        }
        view = reopen(&app, ann, "scrabble-en", &view).await;
    }
    let id = view["game_id"].as_str().unwrap().to_string();
    let (status, own) = app.call(Some(ann), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, own["error"]["code"].as_str()), (409, Some("already_seated")));
    let pass = json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string();
    let (status, refused) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &pass).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("not_your_turn")));
}

#[tokio::test]
async fn racing_joiners_exactly_one_wins() {
    let app = App::new().await;
    let view = open(&app, Player::new(), "erudit").await;
    let id = view["game_id"].as_str().unwrap().to_string();
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (app, id) = (app.clone(), id.clone());
        tasks.push(tokio::spawn(async move { app.call(Some(Player::new()), "POST", &format!("/games/{id}/join"), "").await }));
    }
    let mut wins = 0;
    for t in tasks {
        let (status, answer) = t.await.unwrap();
        match status {
            200 => wins += 1,
            409 => assert_eq!(answer["error"]["code"], "not_open"),
            other => panic!("{other}: {answer}"),
        }
    }
    assert_eq!(wins, 1);
    let seated: i64 = sqlx::query_scalar("SELECT count(*) FROM game_players WHERE game_id = $1::uuid AND account_id IS NOT NULL")
        .bind(&id)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(seated, 2);
}

#[tokio::test]
async fn attaching_a_robot_back_fills_the_draw_and_the_robot_moves_if_it_leads() {
    let app = App::new().await;
    let ann = Player::new();
    let mut saw_robot_open = false;
    for _ in 0..12 {
        let view = open(&app, ann, "scrabble-ru").await;
        let id = view["game_id"].as_str().unwrap().to_string();
        let (status, outcome) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"hard"}"#).await;
        assert_eq!(status, 200, "{outcome}");
        let game = &outcome["game"];
        assert_eq!(game["status"], "active");
        let robot = store::robot_account(store::Level::Hard);
        let rows = draw_rows(&app, &id).await;
        assert!(rows.iter().all(|r| r.0.is_some()));
        assert!(rows.iter().any(|r| r.0 == Some(robot)), "the draw rows name the robot's account");
        if view["your_seat"] == 1 {
            // The robot sits at seat 0: it won the draw and opened in this request.
            assert!(won_by(&rows, Some(robot)));
            assert_eq!(outcome["moves"][0]["seat"], 0);
            assert_eq!(game["to_move"], 1);
            saw_robot_open = true;
        } else {
            assert_eq!(outcome["moves"], json!([]));
        }
        let (status, again) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"easy"}"#).await;
        assert_eq!((status, again["error"]["code"].as_str()), (409, Some("not_open")));
    }
    assert!(saw_robot_open, "in 12 draws the robot led at least once");
    let view = open(&app, ann, "erudit").await;
    let id = view["game_id"].as_str().unwrap();
    let (status, bad) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"genius"}"#).await;
    assert_eq!((status, bad["error"]["code"].as_str()), (400, Some("unknown_robot_level")));
    let (status, stranger) = app.call(Some(Player::new()), "POST", &format!("/games/{id}/robot"), r#"{"level":"easy"}"#).await;
    assert_eq!((status, stranger["error"]["code"].as_str()), (403, Some("not_your_game")));
}
