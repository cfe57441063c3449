//! Whole games through the HTTP handlers against a real PostgreSQL.

use crate::common::{App, Player};

#[tokio::test]
async fn a_game_against_a_robot_is_played_to_the_end() {
    let app = App::new().await;
    let me = Player::new();
    let game = app.create(me, "scrabble-en", r#"[{"robot":"hard"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(game["your_rack"].as_array().unwrap().len(), 7);
    let my_seat = game["your_seat"].clone();
    let robot_seat = 1 - my_seat.as_u64().unwrap() as usize;
    assert_eq!(game["seats"][robot_seat]["kind"], "robot");
    assert_eq!(game["to_move"], my_seat, "a robot that won the draw has already opened");
    let mut robot_moves = 0;
    for _ in 0..200 {
        let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
        if view["status"] == "finished" {
            break;
        }
        assert_eq!(view["to_move"], my_seat, "after my move the robot has already replied");
        let body = app.best_move(me, &id).await;
        let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{outcome}");
        let moves = outcome["moves"].as_array().unwrap();
        assert_eq!(moves[0]["seat"], my_seat);
        robot_moves += moves.len() - 1;
        if moves.len() > 1 {
            assert!(outcome["thinking_ms"].as_u64().unwrap() > 0);
        }
    }
    let (status, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200);
    assert_eq!(view["status"], "finished", "{view}");
    assert!(view["result"]["winners"].as_array().is_some_and(|w| !w.is_empty()));
    assert!(robot_moves >= 5);
    assert_eq!(app.journal_rows(&id).await, view["move_count"].as_i64().unwrap());
    let (status, body) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &app_best_pass(&view)).await;
    assert_eq!((status, body["error"]["code"].as_str()), (422, Some("game_over")));
}

fn app_best_pass(view: &serde_json::Value) -> String {
    serde_json::json!({"expected_move_no": view["move_count"], "move": {"kind": "pass"}}).to_string()
}

#[tokio::test]
async fn two_humans_alternate_and_a_resignation_ends_the_game() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    // Bob's account comes into being when he first plays.
    app.create(bob, "erudit", r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, "erudit", &format!(r#"[{{"account":"{}"}}]"#, bob.0)).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(game["no_repeat_words"], true);
    let ann_seat = game["your_seat"].as_u64().unwrap();
    for _ in 0..10 {
        let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
        let ann_to_move = view["to_move"].as_u64() == Some(ann_seat);
        let (who, other) = if ann_to_move { (ann, bob) } else { (bob, ann) };
        let body = app.best_move(other, &id).await;
        let (status, refused) = app.call(Some(other), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("not_your_turn")), "{refused}");
        let body = app.best_move(who, &id).await;
        let (status, outcome) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{outcome}");
        assert_eq!(outcome["moves"].as_array().unwrap().len(), 1, "no robot here");
    }
    let (_, ann_view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    let (_, bob_view) = app.call(Some(bob), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(ann_view["board"], bob_view["board"]);
    assert_ne!(ann_view["your_rack"], bob_view["your_rack"], "each sees only their own rack");
    assert_eq!(ann_view["your_seat"], ann_seat);
    assert_eq!(bob_view["your_seat"], 1 - ann_seat);
    let (status, outcome) = app.call(Some(bob), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["game"]["status"], "finished");
    assert_eq!(outcome["game"]["result"]["reason"], "resigned");
    assert_eq!(outcome["game"]["result"]["winners"], serde_json::json!([ann_seat]));
}

#[tokio::test]
async fn preview_scores_exactly_what_submit_then_scores() {
    let app = App::new().await;
    let me = Player::new();
    let game = app.create(me, "scrabble-ru", r#"[{"robot":"medium"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let body = app.best_move(me, &id).await;
    let submit: serde_json::Value = serde_json::from_str(&body).unwrap();
    let before = app.journal_rows(&id).await;
    let (status, preview) =
        app.call(Some(me), "POST", &format!("/games/{id}/preview"), &serde_json::json!({"move": submit["move"]}).to_string()).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(app.journal_rows(&id).await, before, "a preview writes nothing");
    let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200);
    if submit["move"]["kind"] == "play" {
        assert_eq!(outcome["moves"][0]["score"], preview["score"]["total"]);
        assert_eq!(outcome["moves"][0]["words"], preview["score"]["words"]);
    }
}

#[tokio::test]
async fn the_draw_is_recorded_and_its_winner_sits_at_seat_zero() {
    let app = App::new().await;
    let me = Player::new();
    for opponents in [r#"[{"robot":"hard"}]"#, r#"[{"robot":"easy"},{"robot":"medium"},{"robot":"hard"}]"#] {
        let game = app.create(me, "scrabble-en", opponents).await;
        let draw = game["draw"].as_array().unwrap();
        let seats = game["seats"].as_array().unwrap();
        assert!(draw.len() >= seats.len());
        // The last round's best rank is unique: whoever drew it sits at seat 0.
        let last_round = draw.iter().map(|d| d["round"].as_i64().unwrap()).max().unwrap();
        let last: Vec<&serde_json::Value> = draw.iter().filter(|d| d["round"].as_i64() == Some(last_round)).collect();
        let best = last.iter().min_by_key(|d| d["rank"].as_i64().unwrap()).unwrap();
        assert_eq!(last.iter().filter(|d| d["rank"] == best["rank"]).count(), 1);
        assert_eq!(best["account_id"], seats[0]["account_id"]);
        for d in draw {
            assert!(seats.iter().any(|s| s["account_id"] == d["account_id"]), "every draw row names a seated account, robots included");
            assert_eq!(d["blank"], d["rank"] == -1);
        }
        let id = game["game_id"].as_str().unwrap();
        let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM game_setup_draws WHERE game_id = $1::uuid")
            .bind(id)
            .fetch_one(app.pool())
            .await
            .unwrap();
        assert_eq!(rows as usize, draw.len());
    }
}
