//! The admin replay routes: admins only, the page escapes user text, and the timeline, GCG and
//! account page agree with the game.

mod common;

use common::{App, Player};
use serde_json::Value;

/// A finished game between `me` (with a hostile display name) and a robot.
async fn finished_game(app: &App, me: Player) -> String {
    let game = app.create(me, "scrabble-en", r#"[{"robot":"hard"}]"#).await;
    // The name a token gave at sign-up (an account is renamed only when it creates, opens or
    // joins a game).
    sqlx::query("UPDATE accounts SET display_name = '<script>alert(1)</script>' WHERE account_id = $1")
        .bind(me.0)
        .execute(app.pool())
        .await
        .unwrap();
    let id = game["game_id"].as_str().unwrap().to_string();
    for _ in 0..6 {
        let body = app.best_move(me, &id).await;
        let (status, _) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200);
    }
    let (status, _) = app.call(Some(me), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200);
    id
}

#[tokio::test]
async fn only_admins_see_the_admin_routes() {
    let app = App::new().await;
    let me = Player::new();
    let id = finished_game(&app, me).await;
    for path in [
        format!("/_gm/games/{id}"),
        format!("/_gm/games/{id}/timeline.json"),
        format!("/_gm/games/{id}.gcg"),
        format!("/_gm/accounts/{}", me.0),
    ] {
        let (status, _, body) = app.raw(Some(me), false, "GET", &path, "").await;
        assert_eq!(status, 403, "{path}");
        assert!(body.contains("\"forbidden\"") && !body.contains("alert"), "{path}: {body}");
        let (status, _, _) = app.raw(None, false, "GET", &path, "").await;
        assert_eq!(status, 401, "{path}");
    }
}

#[tokio::test]
async fn the_replay_page_renders_the_game_and_escapes_names() {
    let app = App::new().await;
    let (me, admin) = (Player::new(), Player::new());
    let id = finished_game(&app, me).await;
    let (status, content_type, page) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}"), "").await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/html"));
    assert!(!page.contains("<script>alert(1)</script>"), "a display name must never become markup");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;") || page.contains("&#60;script&#62;"), "the name shows as text");
    assert!(page.contains(&format!("href=\"/_gm/accounts/{}\"", me.0)));
    for needle in [
        "id=\"sq-A1\" class=\"sq tw\"",
        "id=\"sq-H8\" class=\"sq dw\"",
        "<th>O</th>",
        "<th>15</th>",
        "id=\"next\"",
        "id=\"rack-1\"",
        "Round 1:",
    ] {
        assert!(page.contains(needle), "missing {needle}");
    }
    let embedded = page.split("<script type=\"application/json\" id=\"timeline\">").nth(1).unwrap().split("</script>").next().unwrap();
    let data: Value = serde_json::from_str(embedded).unwrap();
    let (status, _, json) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    assert_eq!(status, 200);
    let timeline: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(data, timeline, "the page embeds exactly the timeline");
    let steps = timeline["timeline"]["steps"].as_array().unwrap();
    let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(steps.len() as u64, view["move_count"].as_u64().unwrap() + 1);
    let last = steps.last().unwrap();
    let scores: Vec<Value> = view["seats"].as_array().unwrap().iter().map(|s| s["score"].clone()).collect();
    assert_eq!(last["scores"].as_array().unwrap(), &scores);
    assert!(steps[1]["move"]["drawn"].is_array());
}

#[tokio::test]
async fn the_gcg_and_the_account_page_describe_the_game() {
    let app = App::new().await;
    let (me, admin) = (Player::new(), Player::new());
    let id = finished_game(&app, me).await;
    let (status, content_type, gcg) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}.gcg"), "").await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/plain; charset=utf-8"));
    assert!(gcg.starts_with("#character-encoding UTF-8\n#player1 "), "{gcg}");
    assert!(gcg.lines().filter(|l| l.starts_with('>')).count() >= 6, "{gcg}");
    let (status, _, page) = app.raw(Some(admin), true, "GET", &format!("/_gm/accounts/{}", me.0), "").await;
    assert_eq!(status, 200);
    assert!(page.contains(&format!("/_gm/games/{id}")) && !page.contains("<script>alert"));
    let (status, _, _) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{}", uuid::Uuid::new_v4()), "").await;
    assert_eq!(status, 404);
}
