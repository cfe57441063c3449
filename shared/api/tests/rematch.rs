//! Rematch: the same players, variant and clock with a fresh draw; against robots it starts at
//! once, another human is invited (flagged in their games) and accepts by joining or declines.

use crate::common::{App, Player};
use serde_json::{Value, json};

async fn finished(app: &App, who: Player, opponents: Value, turn_seconds: Option<i32>) -> String {
    let body = json!({"variant": "noi-tu", "opponents": opponents, "turn_seconds": turn_seconds}).to_string();
    let game = app.create_with(who, &body).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let (status, out) = app.call(Some(who), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{out}");
    id
}

async fn listed(app: &App, who: Player, id: &str) -> Option<Value> {
    let (_, page) = app.call(Some(who), "GET", "/games", "").await;
    page["games"].as_array().unwrap().iter().find(|g| g["game_id"] == id).cloned()
}

#[tokio::test]
async fn a_rematch_against_a_robot_starts_at_once_and_is_made_once() {
    let app = App::new().await;
    let ann = Player::new();
    let old = finished(&app, ann, json!([{"robot": "easy"}]), Some(600)).await;
    let (status, game) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_ne!(id, old);
    assert_eq!((game["status"].as_str(), game["variant"].as_str()), (Some("active"), Some("noi-tu")));
    assert!(game["turn_deadline"].is_string(), "the same clock: {game}");
    assert_eq!(game["to_move"], game["your_seat"], "a robot that won the draw has already moved");
    assert!(game["seats"].as_array().unwrap().iter().any(|s| s["robot_level"] == "easy"));
    let (status, again) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    assert_eq!((status, again["game_id"].as_str()), (200, Some(id.as_str())), "asked again: the same rematch");
    assert_eq!(listed(&app, ann, &id).await.unwrap()["rematch_of"], old.as_str());

    let (status, body) = app.call(Some(ann), "POST", &format!("/games/{id}/rematch"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_finished")), "{body}");
    let (status, body) = app.call(Some(Player::new()), "POST", &format!("/games/{old}/rematch"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("not_your_game")));
}

#[tokio::test]
async fn a_human_opponent_is_invited_and_accepts_by_joining_or_declines() {
    let app = App::new().await;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let old = finished(&app, ann, json!([{"account": bob.0}]), Some(60)).await;
    let (status, game) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    assert_eq!(status, 201, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(game["status"], "open");
    assert!(game["turn_deadline"].is_null(), "no clock before the invitation is accepted");
    // Bob sees it waiting for him; Ann does not; the lobby does not list it; nobody else joins.
    let bobs = listed(&app, bob, &id).await.expect("in bob's games");
    assert_eq!((bobs["awaits_you"].as_bool(), bobs["rematch_of"].as_str()), (Some(true), Some(old.as_str())));
    assert_eq!(listed(&app, ann, &id).await.unwrap()["awaits_you"], false);
    let (_, lobby) = app.call(Some(cy), "GET", "/games/open", "").await;
    assert!(lobby["games"].as_array().unwrap().iter().all(|g| g["game_id"] != id.as_str()), "{lobby}");
    let (status, body) = app.call(Some(cy), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_open")));
    let (status, body) = app.call(Some(ann), "POST", &format!("/games/{id}/decline"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_invited")), "the one who asked is not invited");

    let (status, joined) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["status"], "active");
    assert!(joined["turn_deadline"].is_string(), "the clock starts on acceptance");
    assert!(joined["seats"].as_array().unwrap().iter().all(|s| s["invited"] == false));
    assert_eq!(listed(&app, bob, &id).await.unwrap()["awaits_you"], false);
    let (status, body) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("already_seated")));

    // The next one Bob declines: withdrawn, no result; declining again is refused.
    let old = finished(&app, ann, json!([{"account": bob.0}]), None).await;
    let (_, game) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let (status, body) = app.call(Some(cy), "POST", &format!("/games/{id}/decline"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("not_your_game")));
    let (status, declined) = app.call(Some(bob), "POST", &format!("/games/{id}/decline"), "").await;
    assert_eq!((status, declined["status"].as_str(), declined["result"].is_null()), (200, Some("withdrawn"), true), "{declined}");
    let before = app.everything().await;
    let (status, body) = app.call(Some(bob), "POST", &format!("/games/{id}/decline"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_invited")));
    // Joining the declined game is refused as not open, for the invitee and the one who asked.
    for who in [bob, ann] {
        let (status, body) = app.call(Some(who), "POST", &format!("/games/{id}/join"), "").await;
        assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_open")), "{body}");
    }
    assert_eq!(app.everything().await, before);
    // So is joining one its asker withdrew.
    let old = finished(&app, ann, json!([{"account": bob.0}]), None).await;
    let (_, game) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let (status, withdrawn) = app.call(Some(ann), "POST", &format!("/games/{id}/withdraw"), "").await;
    assert_eq!((status, withdrawn["status"].as_str()), (200, Some("withdrawn")), "{withdrawn}");
    let (status, body) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("not_open")), "{body}");
}

#[tokio::test]
async fn an_invitee_accepting_changes_the_view_tag_of_the_one_who_asked() {
    let app = App::new().await;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    app.create(cy, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    // Three seats, so one acceptance leaves the game open: only the seats change.
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}, {"account": cy.0}]}).to_string();
    let game = app.create_with(ann, &body).await;
    let old = game["game_id"].as_str().unwrap().to_string();
    let (status, out) = app.call(Some(ann), "POST", &format!("/games/{old}/resign"), "").await;
    assert_eq!((status, out["game"]["status"].as_str()), (200, Some("finished")), "{out}");
    let (status, game) = app.call(Some(ann), "POST", &format!("/games/{old}/rematch"), "").await;
    assert_eq!(status, 201, "{game}");
    let path = format!("/games/{}", game["game_id"].as_str().unwrap());
    let (status, headers, body) = app.call_with_headers(ann, "GET", &path, &[]).await;
    assert_eq!(status, 200, "{body}");
    let etag = headers["etag"].clone();

    let (status, joined) = app.call(Some(bob), "POST", &format!("{path}/join"), "").await;
    assert_eq!((status, joined["status"].as_str()), (200, Some("open")), "cy is still invited: {joined}");
    let (status, headers, body) = app.call_with_headers(ann, "GET", &path, &[("if-none-match", &etag)]).await;
    assert_eq!(status, 200, "bob's seat changed: not 304");
    assert_ne!(headers["etag"], etag);
    let view: Value = serde_json::from_str(&body).unwrap();
    let bobs = view["seats"].as_array().unwrap().iter().find(|s| s["account_id"] == bob.0.to_string()).cloned().unwrap();
    assert_eq!(bobs["invited"], false, "{view}");
    let (status, _, _) = app.call_with_headers(ann, "GET", &path, &[("if-none-match", &headers["etag"])]).await;
    assert_eq!(status, 304, "the new tag matches while nothing else changes");
}
