//! The admin replay routes: admins only, the page escapes user text, and the timeline, GCG and
//! account page agree with the game.

use std::collections::HashMap;

use crate::common::{App, Player};
use api::gateway::{Incoming, to_lambda};
use lambda_http::{Body, Response};
use serde_json::Value;

/// The whole response to `GET path` as `who` (in the admin group if `admin`), headers and all.
async fn get(app: &App, who: Option<Player>, admin: bool, path: &str) -> Response<Body> {
    let claims: Option<HashMap<String, String>> = who.map(|p| {
        let mut c = HashMap::from([("sub".to_string(), p.0.to_string())]);
        if admin {
            c.insert("cognito:groups".to_string(), "[admin]".to_string());
        }
        c
    });
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let incoming = Incoming { method: "GET", path, query, claims: claims.as_ref(), request_id: "test", ..Incoming::default() };
    let (route, request) = to_lambda(&incoming).expect("an admin route");
    api::handle(&app.state, route, request).await
}

fn header<'a>(r: &'a Response<Body>, name: &str) -> &'a str {
    r.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
}

/// The security headers every admin response carries, whatever its status.
fn assert_secured(r: &Response<Body>, what: &str) {
    assert_eq!(header(r, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(r, "cache-control"), "no-store", "{what}");
    assert_eq!(header(r, "x-frame-options"), "DENY", "{what}");
    let csp = header(r, "content-security-policy");
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'none'"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{what}: {csp}");
}

fn text(r: &Response<Body>) -> String {
    String::from_utf8_lossy(r.body().as_ref()).into_owned()
}

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
async fn every_admin_response_carries_the_security_headers() {
    let app = App::new().await;
    let (me, admin) = (Player::new(), Player::new());
    let id = finished_game(&app, me).await;
    let paths = [
        format!("/_gm/games/{id}"),
        format!("/_gm/games/{id}/timeline.json"),
        format!("/_gm/games/{id}.gcg"),
        format!("/_gm/accounts/{}", me.0),
        format!("/_gm/games/{}", uuid::Uuid::new_v4()),
        "/_gm/?player=%3Cscript%3E".to_string(),
        "/_gm/?status=nope".to_string(),
    ];
    for path in &paths {
        for (who, is_admin) in [(Some(admin), true), (Some(me), false), (None, false)] {
            let r = get(&app, who, is_admin, path).await;
            assert_secured(&r, &format!("{path} ({}, admin {is_admin})", r.status()));
        }
    }
    // A page's script and style run under its own nonce, and only they do.
    for path in &paths[..1] {
        let r = get(&app, Some(admin), true, path).await;
        let csp = header(&r, "content-security-policy").to_string();
        let nonce = csp.split("'nonce-").nth(1).unwrap().split('\'').next().unwrap().to_string();
        assert!(nonce.len() >= 32, "{csp}");
        let page = text(&r);
        assert_eq!(page.matches(&format!("nonce=\"{nonce}\"")).count(), 2, "one style, one script");
        assert_eq!(page.matches("<script").count(), 2, "the nonced script and the JSON data block");
        assert!(!page.contains(" onclick=") && !page.contains(" style=\""), "no inline handlers or styles");
        let again = get(&app, Some(admin), true, path).await;
        assert_ne!(header(&again, "content-security-policy"), csp, "a fresh nonce per response");
    }
}

#[tokio::test]
async fn the_replay_page_tells_how_the_game_ended() {
    let app = App::new().await;
    let (me, admin) = (Player::new(), Player::new());
    let id = finished_game(&app, me).await;
    let page = text(&get(&app, Some(admin), true, &format!("/_gm/games/{id}")).await);
    let result = page.split("id=\"result\"").nth(1).expect("a result section").split("</section>").next().unwrap();
    assert!(
        result.contains("&lt;script&gt;alert(1)&lt;/script&gt; resigned")
            || result.contains("&#60;script&#62;alert(1)&#60;/script&#62; resigned"),
        "{result}"
    );
    assert!(result.contains("wins"), "{result}");
    assert!(result.contains("<th>settlement</th>") && result.contains("class=\"winner\""), "{result}");
    assert!(result.contains("to the winner") && result.contains("won "), "{result}");
    for needle in ["id=\"sq-H8\" class=\"sq dw star\"", "id=\"legend\"", "triple word", "double letter", "centre"] {
        assert!(page.contains(needle), "missing {needle}");
    }
    // The log gives every play its GCG coordinate and word: "plays 8H WORD for 24".
    let log = page.split("<ol id=\"log\">").nth(1).unwrap().split("</ol>").next().unwrap();
    let play = log.lines().find(|l| l.contains(" plays ")).expect("a play in the log");
    let after = play.split(" plays ").nth(1).unwrap();
    let coord = after.split(' ').next().unwrap();
    assert!(
        coord.len() >= 2 && (coord.starts_with(|c: char| c.is_ascii_digit()) != coord.ends_with(|c: char| c.is_ascii_digit())),
        "{play}"
    );
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
        "id=\"sq-H8\" class=\"sq dw star\"",
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

/// The game ids the list page links to, in order.
fn listed(page: &str) -> Vec<String> {
    let table = page.split("<table id=\"games\">").nth(1).unwrap().split("</table>").next().unwrap();
    table.split("<tr><td><a href=\"/_gm/games/").skip(1).map(|s| s.split('"').next().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_game_list_finds_games_by_variant_status_and_player() {
    let app = App::new().await;
    let (me, other, admin) = (Player::new(), Player::new(), Player::new());
    let finished = finished_game(&app, me).await;
    let chain = app.create(other, "noi-tu", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    sqlx::query("UPDATE accounts SET display_name = 'Zoë 50%_off' WHERE account_id = $1").bind(other.0).execute(app.pool()).await.unwrap();

    let (status, content_type, page) = app.raw(Some(admin), true, "GET", "/_gm", "").await;
    assert_eq!((status, content_type.starts_with("text/html")), (200, true));
    let all = listed(&page);
    assert_eq!(all.len(), 2, "{page}");
    assert_eq!(all[0], chain, "most recent first");
    assert!(page.contains(&format!("href=\"/_gm/accounts/{}\"", me.0)) && page.contains(&format!("href=\"/_gm/accounts/{}\"", other.0)));
    assert!(!page.contains("<script>alert(1)</script>"), "names are escaped in the list");

    let find = |query: &'static str| {
        let app = app.clone();
        async move {
            let (status, _, page) = app.raw(Some(admin), true, "GET", &format!("/_gm/?{query}"), "").await;
            assert_eq!(status, 200, "{query}: {page}");
            (listed(&page), page)
        }
    };
    assert_eq!(find("variant=noi-tu").await.0, [chain.as_str()]);
    assert_eq!(find("variant=scrabble-en&status=finished").await.0, [finished.as_str()]);
    assert_eq!(find("status=active").await.0, [chain.as_str()]);
    assert_eq!(find("player=zO%C3%AB").await.0, [chain.as_str()], "part of a name, any case");
    assert_eq!(find("player=50%25_").await.0, [chain.as_str()], "LIKE wildcards match themselves");
    assert_eq!(find("player=5_%25").await.0, Vec::<String>::new(), "`_` and `%` are not wildcards");
    let by_id = app.raw(Some(admin), true, "GET", &format!("/_gm/?player={}", me.0), "").await.2;
    assert_eq!(listed(&by_id), [finished.as_str()], "an account id");
    assert_eq!(find("variant=&status=&player=").await.0.len(), 2, "empty filters are no filters");

    // HTML and SQL in a filter: no match, nothing injected, the value shown back as text.
    let (games, page) = find("player=%27%20OR%20%271%27%3D%271").await;
    assert!(games.is_empty(), "SQL in a filter is a name to look for: {games:?}");
    assert!(page.contains("value=\"&#39; OR &#39;1&#39;=&#39;1\""), "{page}");
    let (games, page) = find("player=%22%3E%3Cscript%3Ealert(2)%3C%2Fscript%3E").await;
    assert!(games.is_empty());
    assert!(!page.contains("<script>alert(2)") && page.contains("value=\"&#34;&#62;&#60;script&#62;alert(2)"), "{page}");
    let digest = app.everything().await;
    for (query, code) in [
        ("status=finished%27%20OR%201%3D1", "invalid_query"),
        ("variant=%3Cb%3E", "unknown_variant"),
        ("cursor=1%27%3B%20DROP%20TABLE%20games", "bad_cursor"),
    ] {
        let (status, content_type, body) = app.raw(Some(admin), true, "GET", &format!("/_gm/?{query}"), "").await;
        assert_eq!(status, 400, "{query}");
        // A JSON error (never rendered as a page: nosniff, and a policy allowing nothing).
        assert!(content_type.starts_with("application/json") && body.contains(&format!("\"{code}\"")), "{query}: {body}");
    }
    assert_eq!(app.everything().await, digest, "refused filters change nothing");
    let (status, _, _) = app.raw(Some(me), false, "GET", "/_gm", "").await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn the_game_list_pages_through_every_game_keeping_its_filters() {
    let app = App::new().await;
    let admin = Player::new();
    let mut created = Vec::new();
    for _ in 0..service::ADMIN_GAMES_PAGE + 3 {
        let who = Player::new();
        created.push(app.create(who, "scrabble-en", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string());
    }
    app.create(Player::new(), "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let (_, _, first) = app.raw(Some(admin), true, "GET", "/_gm/?variant=scrabble-en", "").await;
    let page_one = listed(&first);
    assert_eq!(page_one.len(), service::ADMIN_GAMES_PAGE);
    let next = first
        .split("id=\"next-page\" href=\"")
        .nth(1)
        .expect("a next page")
        .split('"')
        .next()
        .unwrap()
        .replace("&#38;", "&")
        .replace("&amp;", "&");
    assert!(next.starts_with("/_gm?variant=scrabble-en&status=&player=&cursor="), "{next}");
    let (status, _, second) = app.raw(Some(admin), true, "GET", &next, "").await;
    assert_eq!(status, 200, "{second}");
    let page_two = listed(&second);
    assert_eq!(page_two.len(), 3, "the rest, and not the chain game");
    assert!(!second.contains("id=\"next-page\""), "the last page has no next");
    let mut seen: Vec<String> = page_one.into_iter().chain(page_two).collect();
    seen.sort();
    created.sort();
    assert_eq!(seen, created, "every game once");
}

#[tokio::test]
async fn a_game_played_out_shows_its_settlement_and_its_gcg_reads_back() {
    let app = App::new().await;
    let (me, admin) = (Player::new(), Player::new());
    let game = app.create(me, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    for _ in 0..200 {
        let (_, view) = app.call(Some(me), "GET", &format!("/games/{id}"), "").await;
        if view["status"] != "active" {
            break;
        }
        let body = app.best_move(me, &id).await;
        let (status, answer) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
    }
    let (_, _, json) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    let data: Value = serde_json::from_str(&json).unwrap();
    let outcome = &data["outcome"];
    assert_ne!(outcome["reason"], "resigned", "{outcome}");
    let adjustments: Vec<i64> = outcome["adjustments"].as_array().unwrap().iter().map(|a| a.as_i64().unwrap()).collect();
    assert!(adjustments.iter().any(|a| *a != 0), "a played-out game settles racks: {outcome}");
    let finals: Vec<i64> = data["timeline"]["steps"].as_array().unwrap().last().unwrap()["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();

    // The page names every seat's moves, settlement and final score: nothing folded silently.
    let page = text(&get(&app, Some(admin), true, &format!("/_gm/games/{id}")).await);
    let result = page.split("id=\"result\"").nth(1).unwrap().split("</section>").next().unwrap();
    for (seat, (adj, total)) in adjustments.iter().zip(&finals).enumerate() {
        let row = format!("<td>{}</td><td>{adj:+}</td><td class=\"final\">{total}</td>", total - adj);
        assert!(result.contains(&row), "seat {seat}: {row} in {result}");
    }

    // The GCG's settlement lines in the common form, and every total read back.
    let gcg = text(&get(&app, Some(admin), true, &format!("/_gm/games/{id}.gcg")).await);
    let rec = engine::gcg::read::read(&gcg).unwrap_or_else(|e| panic!("{e}\n{gcg}"));
    assert_eq!(rec.id.as_ref().map(|i| i.1.as_str()), Some(id.as_str()));
    assert_eq!(rec.lexicon.as_deref(), Some("ENABLE2K"));
    let mut last = vec![0i64; finals.len()];
    for e in &rec.events {
        last[e.player] = i64::from(e.total);
    }
    assert_eq!(last, finals, "{gcg}");
    let end: Vec<&str> = gcg.lines().filter(|l| l.starts_with('>') && l.contains('(')).collect();
    let racks = data["timeline"]["steps"].as_array().unwrap().last().unwrap()["racks"].as_array().unwrap().clone();
    let holding = racks.iter().filter(|r| !r.as_array().unwrap().is_empty()).count();
    let went_out = usize::from(outcome["reason"] == "went_out");
    assert_eq!(end.len(), went_out + holding, "one line for the seat that went out, one per rack left: {gcg}");
    if outcome["reason"] == "went_out" {
        let out = outcome["seat"].as_u64().unwrap() as usize;
        assert!(end[0].starts_with(&format!(">p{}: (", out + 1)), "{gcg}");
        assert!(end[1..].iter().all(|l| l.split_whitespace().nth(2).is_some_and(|t| t.starts_with('('))), "{gcg}");
    }
}

/// An API Gateway event for `GET /_gm` as the admin routes' request authoriser passes it on:
/// the cookie, and the authoriser's context (`groups`) instead of JWT claims.
fn authorised_admin_event(sub: &str, groups: &str) -> lambda_http::Request {
    let mut event: Value = serde_json::from_str(include_str!("fixtures/apigw_v2_create_game.json")).unwrap();
    event["routeKey"] = "GET /_gm".into();
    event["rawPath"] = "/_gm".into();
    event["cookies"] = serde_json::json!(["wordgame_admin=eyJraWQiOiJ4In0.e30.x"]);
    event["headers"].as_object_mut().unwrap().remove("authorization");
    event["body"] = Value::Null;
    let ctx = &mut event["requestContext"];
    ctx["routeKey"] = "GET /_gm".into();
    ctx["http"]["method"] = "GET".into();
    ctx["http"]["path"] = "/_gm".into();
    ctx["authorizer"] = serde_json::json!({"lambda": {"sub": sub, "name": "Root", "cognito:groups": groups, "exp": "1764403600"}});
    lambda_http::request::from_str(&event.to_string()).unwrap()
}

#[tokio::test]
async fn the_request_authorisers_context_is_the_admins_identity() {
    let app = App::new().await;
    let me = Player::new();
    let id = finished_game(&app, me).await;
    let sub = Player::new().0.to_string();
    let response = api::handle(&app.state, api::Route::AdminGames, authorised_admin_event(&sub, "[admin]")).await;
    assert_eq!(response.status(), 200);
    assert!(text(&response).contains(&format!("href=\"/_gm/games/{id}\"")));
    assert!(text(&response).contains("id=\"signout\""), "the page offers sign-out with the session's token");
    let response = api::handle(&app.state, api::Route::AdminGames, authorised_admin_event(&sub, "[players]")).await;
    assert_eq!(response.status(), 403);
    assert_secured(&response, "a non-admin's context");
}
