//! Admin sessions and sign-in codes, through the local gateway's authorisers and the handlers on
//! a real database: sign-out ends a session for good, a sign-in code works once even across a
//! restart, and neither is accepted anywhere but where it belongs.

use crate::common::{App, Player};
use api::gateway::{Incoming, to_lambda};
use api::jwt::{self, TokenUse};
use api::local_auth;
use lambda_http::{Body, Response};
use serde_json::Value;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// What `wordgame serve` answers to `method target` with `headers` and `body`: the gateway's
/// authoriser, then the handler (the sign-in it answers itself).
async fn local(app: &App, method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> Response<Body> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let secret = jwt::dev_secret();
    if path == "/_gm/signin" {
        return local_auth::sign_in(&app.state, query, &secret, now(), "req-signin").await;
    }
    let mut map = http::HeaderMap::new();
    for (k, v) in headers {
        map.append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
    }
    let claims = match local_auth::claims(path, &map, Some(query), &secret, now(), 3000) {
        Ok(claims) => claims,
        Err(e) => return e.response("req-refused"),
    };
    let headers: Vec<(String, String)> = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let incoming = Incoming { method, path, query, headers, body: body.as_bytes(), claims: Some(&claims), request_id: "req-local" };
    let (route, request) = to_lambda(&incoming).expect("a route");
    api::handle(&app.state, route, request).await
}

fn header<'a>(r: &'a Response<Body>, name: &str) -> &'a str {
    r.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
}

fn text(r: &Response<Body>) -> String {
    String::from_utf8_lossy(r.body().as_ref()).into_owned()
}

/// Signs in with a fresh one-time code for admin `root`: the code and the session cookie.
async fn sign_in(app: &App) -> (String, String) {
    let code = jwt::signin_code("root", true, now(), &uuid::Uuid::new_v4().to_string());
    let answer = local(app, "GET", &format!("/_gm/signin?code={code}"), &[], "").await;
    assert_eq!(answer.status(), 303, "{}", text(&answer));
    let cookie = header(&answer, "set-cookie").split(';').next().unwrap().to_string();
    (code, cookie)
}

#[tokio::test]
async fn a_signed_out_session_is_refused_even_by_a_fresh_process() {
    let app = App::new().await;
    let (_, cookie) = sign_in(&app).await;
    let page = local(&app, "GET", "/_gm/", &[("cookie", &cookie)], "").await;
    assert_eq!(page.status(), 200, "{}", text(&page));
    let page = text(&page);
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();

    let out = local(&app, "POST", "/_gm/signout", &[("cookie", &cookie), ("sec-fetch-site", "same-origin")], &format!("csrf={csrf}")).await;
    assert_eq!(out.status(), 200, "{}", text(&out));
    assert!(header(&out, "set-cookie").contains("Max-Age=0"));

    // The browser forgot the cookie; whoever kept a copy is refused, here and after a restart.
    let restarted = App::on_store(store::Store::new(app.pool().clone()), 7);
    for (who, app) in [("this process", &app), ("a fresh process", &restarted)] {
        for target in ["/_gm/", "/_gm/games/00000000-0000-4000-8000-000000000001/timeline.json"] {
            let refused = local(app, "GET", target, &[("cookie", &cookie)], "").await;
            assert_eq!(refused.status(), 401, "{who} {target}");
            let body: Value = serde_json::from_str(&text(&refused)).unwrap();
            assert_eq!(body["error"]["code"], "unauthenticated", "{who}");
        }
    }
    // A new sign-in is a new session.
    let (_, again) = sign_in(&restarted).await;
    assert_eq!(local(&app, "GET", "/_gm/", &[("cookie", &again)], "").await.status(), 200);
}

#[tokio::test]
async fn a_used_signin_code_is_refused_after_a_restart() {
    let app = App::new().await;
    let (code, _) = sign_in(&app).await;
    let target = format!("/_gm/signin?code={code}");
    let again = local(&app, "GET", &target, &[], "").await;
    assert_eq!(again.status(), 401, "a code works once");
    let restarted = App::on_store(store::Store::new(app.pool().clone()), 7);
    let replayed = local(&restarted, "GET", &target, &[], "").await;
    assert_eq!(replayed.status(), 401, "{}", text(&replayed));
    assert!(replayed.headers().get("set-cookie").is_none());
    assert!(text(&replayed).contains("used already"));
}

#[tokio::test]
async fn a_signin_code_or_an_admin_session_is_no_players_token() {
    let app = App::new().await;
    let code = jwt::signin_code("root", true, now(), "code-as-bearer");
    let (_, cookie) = sign_in(&app).await;
    let session = cookie.strip_prefix("wordgame_admin=").unwrap().to_string();
    let me = Player::new();
    let game = app.create(me, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap();
    let before = app.everything().await;
    let connections =
        || async { sqlx::query_scalar::<_, i64>("SELECT count(*) FROM push_connections").fetch_one(app.pool()).await.unwrap() };
    for token in [&code, &session] {
        let bearer = format!("Bearer {token}");
        for (method, target, body) in [
            ("POST", "/games".to_string(), r#"{"variant":"scrabble-en","opponents":[{"robot":"easy"}]}"#),
            ("POST", format!("/games/{id}/resign"), ""),
            ("GET", "/games/open".to_string(), ""),
        ] {
            let answer = local(&app, method, &target, &[("authorization", &bearer)], body).await;
            assert_eq!(answer.status(), 401, "{method} {target}");
        }
        // The push socket takes its token from the query: the gateway refuses before any upgrade.
        let refused = local_auth::claims("/ws", &http::HeaderMap::new(), Some(&format!("token={token}")), &jwt::dev_secret(), now(), 3000);
        assert_eq!(refused.map(|_| ()).unwrap_err().status, 401);
    }
    assert_eq!(app.everything().await, before, "nothing written");
    assert_eq!(connections().await, 0);
    // A player's token is no admin session, even in the admin group; the sign-in code neither.
    for token in [jwt::demo_token("root", true, 1, now()), code.clone()] {
        let answer = local(&app, "GET", "/_gm/", &[("cookie", &format!("wordgame_admin={token}"))], "").await;
        assert_eq!(answer.status(), 401);
    }
    let verified = jwt::verify(&session, &jwt::dev_secret(), now(), TokenUse::AdminSession).unwrap();
    assert_eq!(verified["aud"], "wordgame-admin-session");
}
