//! Schema conformance: every route's real answers (successes and errors, both families) are
//! validated against docs/openapi.yaml by the test client (`crate::common::schema`, which every API
//! test goes through); this test reaches every route of `api::Route::ALL` and checks that each
//! was validated, and that the validator refuses what the document does not allow.

use crate::common::schema::{check_response, checked, document, validate};
use crate::common::{App, Player};
use api::Route;
use serde_json::json;
use std::collections::HashMap;

#[tokio::test]
async fn every_route_answers_as_the_document_says() {
    let clock = std::sync::Arc::new(service::ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 3).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let tile = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let id = tile["game_id"].as_str().unwrap().to_string();
    let chain = app.create(ann, "noi-tu", r#"[{"robot":"medium"}]"#).await;
    let cid = chain["game_id"].as_str().unwrap().to_string();
    let leader = if tile["to_move"] == tile["your_seat"] { ann } else { bob };
    let other = if leader.0 == ann.0 { bob } else { ann };

    let best = app.best_move(leader, &id).await;
    let mv: serde_json::Value = serde_json::from_str(&best).unwrap();
    let calls: Vec<(Player, &str, String, String)> = vec![
        (ann, "GET", "/games".into(), String::new()),
        (ann, "GET", "/games?status=active&turn=mine&limit=1".into(), String::new()),
        (ann, "GET", "/games?status=nope".into(), String::new()),
        (ann, "GET", format!("/games/{id}"), String::new()),
        (ann, "GET", format!("/games/{cid}"), String::new()),
        (Player::new(), "GET", format!("/games/{id}"), String::new()),
        (ann, "GET", format!("/games/{}", uuid::Uuid::new_v4()), String::new()),
        (ann, "GET", "/games/not-a-uuid".into(), String::new()),
        (leader, "POST", format!("/games/{id}/preview"), json!({"move": mv["move"]}).to_string()),
        (leader, "GET", format!("/games/{id}/hint?limit=2"), String::new()),
        (ann, "GET", format!("/games/{cid}/hint?limit=2"), String::new()),
        (leader, "POST", format!("/games/{id}/moves"), best.clone()),
        (leader, "POST", format!("/games/{id}/moves"), best),
        (other, "POST", format!("/games/{id}/moves"), r#"{"expected_move_no":0,"move":{"kind":"pass"}}"#.into()),
        (other, "POST", format!("/games/{id}/moves"), "{".into()),
        (ann, "GET", format!("/games/{id}/moves?after=0"), String::new()),
        (ann, "POST", format!("/games/{id}/timeout"), String::new()),
        (ann, "POST", format!("/games/{cid}/resign"), String::new()),
        (ann, "POST", format!("/games/{cid}/rematch"), String::new()),
        (ann, "POST", format!("/games/{cid}/rematch"), String::new()),
        (ann, "POST", format!("/games/{id}/rematch"), String::new()),
        (ann, "POST", format!("/games/{id}/decline"), String::new()),
        (ann, "POST", "/games/open".into(), r#"{"variant":"erudit"}"#.into()),
        (bob, "GET", "/games/open?limit=5".into(), String::new()),
        (ann, "POST", "/games".into(), r#"{"variant":"chess","opponents":[{"robot":"easy"}]}"#.into()),
    ];
    for (who, method, path, body) in &calls {
        app.call(Some(*who), method, path, body).await;
    }
    // The lobby game: joined by bob; another withdrawn; a third filled by a robot.
    let (_, lobby) = app.call(Some(bob), "GET", "/games/open", "").await;
    let open = lobby["games"][0]["game_id"].as_str().unwrap().to_string();
    app.call(Some(bob), "POST", &format!("/games/{open}/join"), "").await;
    app.call(Some(bob), "POST", &format!("/games/{open}/join"), "").await;
    let (_, second) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"noi-tu"}"#).await;
    app.call(Some(ann), "POST", &format!("/games/{}/withdraw", second["game_id"].as_str().unwrap()), "").await;
    let (_, third) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"scrabble-ru"}"#).await;
    app.call(Some(ann), "POST", &format!("/games/{}/robot", third["game_id"].as_str().unwrap()), r#"{"level":"easy"}"#).await;
    // The invitation bob declines.
    let (_, finished) = app.call(Some(bob), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(finished["game"]["status"], "finished");
    let (_, rematch) = app.call(Some(ann), "POST", &format!("/games/{id}/rematch"), "").await;
    app.call(Some(bob), "POST", &format!("/games/{}/decline", rematch["game_id"].as_str().unwrap()), "").await;
    // A timeout claimed past the deadline.
    let body = json!({"variant": "noi-tu", "opponents": [{"account": bob.0}], "turn_seconds": 60}).to_string();
    let timed = app.create_with(ann, &body).await;
    clock.advance(chrono::Duration::seconds(61));
    let (status, _) = app.call(Some(ann), "POST", &format!("/games/{}/timeout", timed["game_id"].as_str().unwrap()), "").await;
    assert_eq!(status, 200);
    // A challenge under a challenge rule: a play laid (any word), challenged by the next seat.
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}], "challenge_rule": "single"}).to_string();
    let ruled = app.create_with(ann, &body).await;
    let rid = ruled["game_id"].as_str().unwrap().to_string();
    let (first, second) = if ruled["to_move"] == ruled["your_seat"] { (ann, bob) } else { (bob, ann) };
    let play = app.best_move(first, &rid).await;
    app.call(Some(first), "POST", &format!("/games/{rid}/moves"), &play).await;
    let (status, body) = app.call(Some(second), "POST", &format!("/games/{rid}/challenge"), r#"{"expected_move_no":1}"#).await;
    assert_eq!(status, 200, "{body}");
    app.call(Some(second), "POST", &format!("/games/{rid}/challenge"), r#"{"expected_move_no":2}"#).await;
    // A rated game to its end, then the ratings' routes.
    let body = json!({"variant": "erudit", "opponents": [{"account": bob.0}], "rated": true}).to_string();
    let rated = app.create_with(ann, &body).await;
    let rated_id = rated["game_id"].as_str().unwrap().to_string();
    let (lead, follow) = if rated["to_move"] == rated["your_seat"] { (ann, bob) } else { (bob, ann) };
    for who in [lead, follow, lead, follow] {
        let play = app.best_move(who, &rated_id).await;
        app.call(Some(who), "POST", &format!("/games/{rated_id}/moves"), &play).await;
    }
    // A rated game has no hints, so its moves were exchanges, which may have ended it already.
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{rated_id}"), "").await;
    if view["status"] == "active" {
        let (status, body) = app.call(Some(ann), "POST", &format!("/games/{rated_id}/resign"), "").await;
        assert_eq!(status, 200, "{body}");
    }
    // Analyses: a finished tile game, a finished chain game, and one not over (refused).
    for game in [&rated_id, &cid, &rid] {
        app.call(Some(ann), "GET", &format!("/games/{game}/analysis"), "").await;
    }
    for path in [
        "/me".to_string(),
        format!("/accounts/{}/ratings", bob.0),
        "/ratings/leaderboard?variant=erudit&speed=correspondence".to_string(),
        "/ratings/leaderboard?variant=erudit".to_string(),
        "/games/live".to_string(),
        "/games/live?variant=scrabble-ru&limit=1".to_string(),
        "/games/live?tournament_id=x".to_string(),
    ] {
        app.call(Some(ann), "GET", &path, "").await;
    }
    // The settings, and a stranger watching a robot game (the spectator's view and journal).
    app.call(Some(bob), "PUT", "/me/settings", r#"{"spectating":"always"}"#).await;
    app.call(Some(bob), "PUT", "/me/settings", r#"{"spectating":"sometimes"}"#).await;
    app.call(Some(bob), "GET", &format!("/games/{}", third["game_id"].as_str().unwrap()), "").await;
    app.call(Some(bob), "GET", &format!("/games/{}/moves", third["game_id"].as_str().unwrap()), "").await;
    // A tournament: created, its players registered, a round paired, started and drawn by
    // hand, a forfeit, the export, the close; and a director's call by a player.
    let sub = ann.0.to_string();
    let director = [("sub", sub.as_str()), ("name", "Ann"), ("cognito:groups", "[director]")];
    let body = json!({"name": "Cup", "variant": "erudit", "pairing": "swiss", "rounds": 1}).to_string();
    let (status, t) = app.call_claims(&director, "POST", "/tournaments", &body).await;
    assert_eq!(status, 201, "{t}");
    let tid = t["tournament_id"].as_str().unwrap().to_string();
    for who in [ann, bob, ann] {
        app.call_claims(&director, "POST", &format!("/tournaments/{tid}/players"), &json!({"account_id": who.0}).to_string()).await;
        app.call(Some(who), "POST", &format!("/tournaments/{tid}/enter"), "").await;
    }
    // Bob takes his entry back before the start, and enters again.
    app.call(Some(bob), "POST", &format!("/tournaments/{tid}/leave"), "").await;
    app.call(Some(bob), "POST", &format!("/tournaments/{tid}/enter"), "").await;
    app.call(Some(bob), "POST", &format!("/tournaments/{tid}/rounds"), "").await;
    app.call_claims(&director, "POST", &format!("/tournaments/{tid}/rounds"), "").await;
    let (_, t) = app.call_claims(&director, "POST", &format!("/tournaments/{tid}/rounds/1/start"), "").await;
    let game = t["pairings"][0]["tables"][0]["game_id"].as_str().unwrap().to_string();
    for who in [ann, bob] {
        let (status, view) = app.call(Some(who), "POST", &format!("/games/{game}/draw"), "{}").await;
        assert_eq!(status, 200, "{view}");
    }
    app.call(Some(ann), "POST", &format!("/games/{game}/draw"), "").await;
    app.call(Some(ann), "GET", &format!("/tournaments/{tid}"), "").await;
    app.call(Some(ann), "GET", "/tournaments?mine=true", "").await;
    let body = json!({"round": 1, "table": 1, "side": "first"}).to_string();
    app.call_claims(&director, "POST", &format!("/tournaments/{tid}/forfeits"), &body).await;
    let (status, _, _) = app.raw(Some(ann), false, "GET", &format!("/tournaments/{tid}/export"), "").await;
    assert_eq!(status, 200);
    app.call(Some(bob), "POST", &format!("/tournaments/{tid}/leave"), "").await;
    app.call(Some(bob), "POST", &format!("/tournaments/{tid}/withdraw"), &json!({"account_id": bob.0}).to_string()).await;
    app.call_claims(&director, "POST", &format!("/tournaments/{tid}/close"), "").await;
    // 304 and the admin pages.
    let (_, headers, _) = app.call_with_headers(ann, "GET", &format!("/games/{id}"), &[]).await;
    app.call_with_headers(ann, "GET", &format!("/games/{id}"), &[("if-none-match", &headers["etag"])]).await;
    for path in [
        format!("/_gm/games/{id}"),
        format!("/_gm/games/{id}.gcg"),
        format!("/_gm/games/{cid}/timeline.json"),
        format!("/_gm/accounts/{}", ann.0),
        "/_gm?variant=noi-tu&status=finished".to_string(),
        format!("/_gm/tournaments/{tid}"),
        format!("/_gm/tournaments/{tid}.t"),
    ] {
        let (status, _, body) = app.raw(Some(ann), true, "GET", &path, "").await;
        assert_eq!(status, 200, "{path}: {body}");
    }
    // Signing out with the page's CSRF token; the sign-in, with no identity provider configured
    // here, answers its documented 404 (its redirects need the provider).
    let admin = HashMap::from([("sub".to_string(), ann.0.to_string()), ("cognito:groups".to_string(), "[admin]".to_string())]);
    let session = "a-session-token";
    let (cookie, form) = (format!("{}={session}", api::auth::ADMIN_COOKIE), format!("csrf={}", api::auth::csrf_token(session)));
    let (status, _, body) = app.raw_request(Some(&admin), "POST", "/_gm/signout", &[("cookie", &cookie)], &form).await;
    assert_eq!(status, 200, "sign-out: {body}");
    let (status, _, _) = app.raw(None, false, "GET", "/_gm/signin", "").await;
    assert_eq!(status, 404);
    // The web app and the variants, to anyone.
    for (path, expected) in [
        ("/", 200),
        ("/web/app.js", 200),
        ("/web/clock.js", 200),
        ("/web/i18n.js", 200),
        ("/web/app.css", 200),
        ("/web/config.json", 200),
        ("/web/x.js", 404),
        ("/variants", 200),
    ] {
        let (status, _, body) = app.raw(None, false, "GET", path, "").await;
        assert_eq!(status, expected, "{path}: {body}");
    }

    let seen = checked();
    for route in Route::ALL {
        let success = |s: &u16| if route == Route::AdminSignIn { *s == 404 } else { (200..300).contains(s) };
        let ok = seen.iter().any(|(m, p, s)| m == route.method() && p == route.path() && success(s));
        assert!(ok, "{} {} was never answered with a success here", route.method(), route.path());
    }
    assert!(seen.iter().any(|(_, _, s)| *s == 304), "the 304 answer was validated");
    assert!(seen.iter().filter(|(_, _, s)| *s >= 400).count() >= 8, "errors are validated too: {seen:?}");
}

#[test]
fn undocumented_answers_are_refused() {
    assert!(check_response("GET", "/games", 418, "application/json", "{}").unwrap_err().contains("not documented"));
    assert!(check_response("PUT", "/games", 200, "application/json", "{}").is_err());
    assert!(check_response("GET", "/games", 200, "application/json", r#"{"games":[]}"#).unwrap_err().contains("next_cursor"));
    assert!(check_response("GET", "/games", 200, "text/plain", "x").unwrap_err().contains("content type"));
}
#[test]
fn the_validator_refuses_what_the_schema_does_not_allow() {
    let doc = document();
    let schema = &doc["components"]["schemas"]["MyGamesPage"];
    let ok = json!({"games": [], "next_cursor": null});
    assert!(validate(doc, schema, &ok, "$").is_ok());
    for bad in [
        json!({"games": []}),
        json!({"games": [], "next_cursor": 3}),
        json!({"games": [], "next_cursor": null, "extra": 1}),
        json!({"games": [{"game_id": "x"}], "next_cursor": null}),
    ] {
        assert!(validate(doc, schema, &bad, "$").is_err(), "{bad}");
    }
}
