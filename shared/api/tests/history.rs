//! What a reconnecting client needs: `GET /games/{id}/moves?after=N` (the journal as the
//! caller's seat may see it: another seat's exchange only as a count), the finished game's
//! leftover racks and settlement, and `ETag` / `If-None-Match` on the game view.

use crate::common::{App, Player};
use serde_json::{Value, json};

/// A tile game between two humans, and who leads.
async fn duel(app: &App) -> (String, Player, Player) {
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let view = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let id = view["game_id"].as_str().unwrap().to_string();
    let leader = if view["your_seat"] == 0 { ann } else { bob };
    let other = if leader.0 == ann.0 { bob } else { ann };
    (id, leader, other)
}

async fn submit(app: &App, who: Player, id: &str, body: &str) -> Value {
    let (status, out) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), body).await;
    assert_eq!(status, 200, "{out}");
    out
}

#[tokio::test]
async fn the_journal_from_any_move_hides_only_what_the_seat_may_not_see() {
    let app = App::new().await;
    let (id, leader, other) = duel(&app).await;
    // The leader plays its best word; a rack with none would exchange, which the two seats rightly
    // see differently, so it passes instead (seen alike by both).
    let first = app.best_move(leader, &id).await;
    let first =
        if first.contains(r#""kind":"play""#) { first } else { json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string() };
    submit(&app, leader, &id, &first).await;
    // The other seat exchanges two tiles: it sees which, the leader only how many.
    let (_, view) = app.call(Some(other), "GET", &format!("/games/{id}"), "").await;
    let rack = view["your_rack"].as_array().unwrap();
    let tiles: Vec<Value> = rack[..2].iter().map(|t| if t == "?" { json!("blank") } else { json!({"letter": t}) }).collect();
    let exchange = json!({"expected_move_no": 1, "move": {"kind": "exchange", "tiles": tiles}}).to_string();
    submit(&app, other, &id, &exchange).await;

    let (status, mine) = app.call(Some(other), "GET", &format!("/games/{id}/moves"), "").await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!((mine["move_count"].as_u64(), mine["status"].as_str()), (Some(2), Some("active")));
    assert_eq!(mine["moves"].as_array().unwrap().len(), 2);
    assert_eq!(mine["moves"][1]["kind"], "exchange");
    assert_eq!(mine["moves"][1]["count"], 2);
    assert_eq!(mine["moves"][1]["tiles"].as_array().unwrap().len(), 2, "one's own exchange in full");

    let (_, theirs) = app.call(Some(leader), "GET", &format!("/games/{id}/moves?after=1"), "").await;
    assert_eq!(theirs["moves"].as_array().unwrap().len(), 1, "after=1: from move 1 on");
    assert_eq!(theirs["moves"][0]["move_no"], 1);
    assert_eq!(theirs["moves"][0]["count"], 2);
    assert!(theirs["moves"][0].get("tiles").is_none(), "another seat's exchange only as a count: {theirs}");
    // The first move is the same for both, and the same as the view's last move at the time.
    let (_, all) = app.call(Some(leader), "GET", &format!("/games/{id}/moves?after=0"), "").await;
    assert_eq!(all["moves"][0], mine["moves"][0]);
    let (_, none) = app.call(Some(leader), "GET", &format!("/games/{id}/moves?after=2"), "").await;
    assert_eq!(none["moves"], json!([]));
    let (_, past) = app.call(Some(leader), "GET", &format!("/games/{id}/moves?after=99"), "").await;
    assert_eq!(past["moves"], json!([]));

    let before = app.everything().await;
    for (who, query, status, code) in
        [(leader, "?after=-1", 400, "invalid_query"), (leader, "?after=x", 400, "invalid_query"), (Player::new(), "", 404, "not_found")]
    {
        let (s, body) = app.call(Some(who), "GET", &format!("/games/{id}/moves{query}"), "").await;
        assert_eq!((s, body["error"]["code"].as_str()), (status, Some(code)), "{query}: {body}");
    }
    let (s, body) = app.call(Some(leader), "GET", &format!("/games/{}/moves", uuid::Uuid::new_v4()), "").await;
    assert_eq!((s, body["error"]["code"].as_str()), (404, Some("not_found")));
    assert_eq!(app.everything().await, before, "reads write nothing");
}

#[tokio::test]
async fn a_finished_game_shows_every_seats_leftover_rack_and_the_settlement() {
    let app = App::new().await;
    let (id, leader, other) = duel(&app).await;
    let (_, before) = app.call(Some(other), "GET", &format!("/games/{id}"), "").await;
    let other_rack = before["your_rack"].clone();
    let (status, out) = app.call(Some(leader), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{out}");
    let (_, view) = app.call(Some(leader), "GET", &format!("/games/{id}"), "").await;
    let result = &view["result"];
    assert_eq!(result["reason"], "resigned");
    let racks = result["racks"].as_array().unwrap();
    assert_eq!(racks.len(), 2);
    let other_seat = 1 - view["your_seat"].as_u64().unwrap() as usize;
    assert_eq!(racks[other_seat], other_rack, "the opponent's leftover tiles, now shown");
    assert_eq!(racks[view["your_seat"].as_u64().unwrap() as usize], view["your_rack"]);
    assert_eq!(result["adjustments"].as_array().unwrap().len(), 2);

    // The chain has no racks.
    let ann = Player::new();
    let chain = app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let cid = chain["game_id"].as_str().unwrap();
    let (status, out) = app.call(Some(ann), "POST", &format!("/games/{cid}/resign"), "").await;
    assert_eq!(status, 200, "{out}");
    assert!(out["game"]["result"]["racks"].is_null(), "{out}");
}

#[tokio::test]
async fn the_game_view_answers_304_while_nothing_moved() {
    let app = App::new().await;
    let (id, leader, other) = duel(&app).await;
    let path = format!("/games/{id}");
    let (status, headers, body) = app.call_with_headers(other, "GET", &path, &[]).await;
    assert_eq!(status, 200, "{body}");
    let etag = headers["etag"].clone();
    assert!(etag.starts_with("\"0-active-"), "{etag}");
    let (status, headers, body) = app.call_with_headers(other, "GET", &path, &[("if-none-match", &etag)]).await;
    assert_eq!((status, body.as_str(), headers["etag"].as_str()), (304, "", etag.as_str()));
    // A stranger learns nothing from a conditional read either: an invitation is private.
    let (status, _, body) = app.call_with_headers(Player::new(), "GET", &path, &[("if-none-match", &etag)]).await;
    assert_eq!(status, 404, "{body}");

    // The leader plays its best word; a rack with none would exchange, which the two seats rightly
    // see differently, so it passes instead (seen alike by both).
    let first = app.best_move(leader, &id).await;
    let first =
        if first.contains(r#""kind":"play""#) { first } else { json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string() };
    submit(&app, leader, &id, &first).await;
    let (status, headers, body) = app.call_with_headers(other, "GET", &path, &[("if-none-match", &etag)]).await;
    assert_eq!(status, 200, "a move changes the tag");
    assert!(headers["etag"].starts_with("\"1-active-"), "{}", headers["etag"]);
    let second = headers["etag"].clone();
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["move_count"], 1);
    let (status, _, _) = app.call_with_headers(other, "GET", &path, &[("if-none-match", &format!("{etag}, {second}"))]).await;
    assert_eq!(status, 304, "any of the listed tags");
    let (status, out) = app.call(Some(other), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{out}");
    let (status, headers, _) = app.call_with_headers(other, "GET", &path, &[("if-none-match", &second)]).await;
    assert_eq!(status, 200);
    assert!(headers["etag"].starts_with("\"2-finished-"), "the status is in the tag: {}", headers["etag"]);
}

#[tokio::test]
async fn answers_for_a_seat_are_private_and_revalidated_and_tags_compare_weakly() {
    let app = App::new().await;
    let (id, leader, _) = duel(&app).await;
    for path in [format!("/games/{id}"), format!("/games/{id}/moves"), format!("/games/{id}/hint"), "/games".to_string()] {
        let (status, headers, body) = app.call_with_headers(leader, "GET", &path, &[]).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(headers["cache-control"], "private, no-cache", "{path}");
        assert_eq!(headers["vary"], "Authorization", "{path}");
    }
    let path = format!("/games/{id}");
    let (_, headers, _) = app.call_with_headers(leader, "GET", &path, &[]).await;
    let (status, headers, _) = app.call_with_headers(leader, "GET", &path, &[("if-none-match", &headers["etag"])]).await;
    assert_eq!((status, headers["cache-control"].as_str(), headers["vary"].as_str()), (304, "private, no-cache", "Authorization"));

    // If-None-Match compares weakly and takes a list of tags.
    let etag = headers["etag"].clone();
    for (sent, expected) in [
        (format!("W/{etag}"), 304),
        (format!("\"0-active-0000000000000000\", W/{etag}"), 304),
        (format!("\"0-active-0000000000000000\",{etag}"), 304),
        ("*".to_string(), 304),
        ("W/\"0-active-0000000000000000\"".to_string(), 200),
        (etag.trim_end_matches('"').to_string(), 200),
    ] {
        let (status, headers, _) = app.call_with_headers(leader, "GET", &path, &[("if-none-match", &sent)]).await;
        assert_eq!((status, headers["etag"].as_str()), (expected, etag.as_str()), "If-None-Match: {sent}");
    }
}
