//! `wordgame serve` as the README runs it: it starts (with its own PostgreSQL when
//! DATABASE_URL is unset), logs how to sign in on its own port, answers a token holder at the
//! AWS paths, refuses anyone else, and stops cleanly on Ctrl-C; on a taken port it fails before
//! starting anything.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    exchange, request, start_server, start_server_in, start_server_logged, start_server_watched, start_server_with, token,
};

#[test]
fn the_local_gateway_serves_the_api_and_stops_on_ctrl_c() {
    let (mut server, port, dir, serving) = start_server_logged("serve-test");
    // The sign-in command it suggests is for its own port, and a pipe gets no colour codes.
    assert!(serving.contains(&format!("`wordgame token --account root --admin --browser --port {port}`")), "{serving}");
    assert!(!serving.contains('\u{1b}'), "{serving:?}");
    let alice = token("alice", false);
    let auth = format!("Bearer {alice}");
    let (status, body) =
        request(port, "POST", "/games", &[("authorization", &auth)], r#"{"variant":"erudit","opponents":[{"robot":"easy"}]}"#).unwrap();
    assert_eq!(status, 201, "{body}");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(view["seats"][view["your_seat"].as_u64().unwrap() as usize]["display_name"], "alice");
    let id = view["game_id"].as_str().unwrap();
    let (status, _) = request(port, "GET", &format!("/games/{id}/hint?limit=2"), &[("authorization", &auth)], "").unwrap();
    assert_eq!(status, 200);
    let (status, body) = request(port, "GET", &format!("/games/{id}"), &[("authorization", "Bearer forged.token.here")], "").unwrap();
    assert_eq!(status, 401, "{body}");
    let (status, _) = request(port, "GET", &format!("/games/{id}"), &[], "").unwrap();
    assert_eq!(status, 401);

    let child = &mut server.0;
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let stop = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(stop.elapsed() < Duration::from_secs(30), "serve did not stop on Ctrl-C");
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_taken_port_fails_at_once_before_any_database_starts() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = std::env::temp_dir().join(format!("wordgame-port-taken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_wordgame"))
        .args(["serve", "--port", &port.to_string(), "--data-dir", dir.to_str().unwrap()])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&format!("wordgame: cannot listen on 127.0.0.1:{port}: ")), "{stderr}");
    assert!(!dir.exists(), "no PostgreSQL data directory is made");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("PostgreSQL"), "no PostgreSQL is started");
    assert!(took < Duration::from_secs(10), "it took {took:?}");
    drop(taken);
}

/// `serve`'s private PostgreSQL is durable: every game it acknowledged survives a SIGKILL of
/// `serve` (whose watchdog then stops PostgreSQL the way a crash would, without a checkpoint),
/// and a `serve` started at once on the same data directory waits for the old server to stop,
/// then serves them.
#[test]
fn a_killed_serve_loses_no_acknowledged_game_and_a_new_one_starts_at_once() {
    let (mut server, port, dir) = start_server("serve-crash");
    let auth = format!("Bearer {}", token("alice", false));
    let mut games = Vec::new();
    for _ in 0..25 {
        let (status, body) =
            request(port, "POST", "/games", &[("authorization", &auth)], r#"{"variant":"erudit","opponents":[{"robot":"easy"}]}"#).unwrap();
        assert_eq!(status, 201, "{body}");
        let view: serde_json::Value = serde_json::from_str(&body).unwrap();
        games.push((view["game_id"].as_str().unwrap().to_string(), view["move_count"].as_u64().unwrap()));
    }
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (_again, port) = start_server_in(&dir);
    for (id, moves) in &games {
        let (status, body) = request(port, "GET", &format!("/games/{id}"), &[("authorization", &auth)], "").unwrap();
        assert_eq!(status, 200, "game {id} was acknowledged before the kill: {body}");
        let view: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(view["move_count"].as_u64(), Some(*moves));
    }
    drop(_again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// When `serve`'s private PostgreSQL dies (its postmaster killed), `serve` starts it again: the
/// first request after it logs that the database is back is answered, and the time from the kill
/// to that answer is within the bound docs/OPERATIONS.md gives (10 s; the check runs every
/// 0.5 s). Nothing acknowledged before the kill is lost.
#[test]
fn serve_starts_its_private_postgresql_again_when_it_dies() {
    let (server, port, dir, (_, log)) = start_server_watched("serve-heal");
    let auth = format!("Bearer {}", token("alice", false));
    let (status, body) =
        request(port, "POST", "/games", &[("authorization", &auth)], r#"{"variant":"erudit","opponents":[{"robot":"easy"}]}"#).unwrap();
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["game_id"].as_str().unwrap().to_string();
    let pid = std::fs::read_to_string(dir.join("postmaster.pid"))
        .expect("the data directory the test gave")
        .lines()
        .next()
        .unwrap()
        .trim()
        .to_string();
    let killed = Instant::now();
    assert!(Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    let back = log.iter().find(|l| l.contains("private PostgreSQL is back") || l.contains("stopping")).expect("serve logs the restart");
    assert!(back.contains("is back"), "{back}");
    let (status, body) = request(port, "GET", &format!("/games/{id}"), &[("authorization", &auth)], "").unwrap();
    let took = killed.elapsed();
    assert_eq!(status, 200, "the first request after the restart: {body}");
    eprintln!("killed to answered: {took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The time the gateway was down is not charged to a running clock: `serve` writes a heartbeat
/// every second and its next start records the time since the last one as an outage. A real-time
/// game's mover, with `serve` killed for 3 s and started again, is charged the time it was up
/// (within the heartbeat's second).
#[test]
fn a_gateway_restart_charges_no_clock_the_time_it_was_down() {
    let (mut server, port, dir) = start_server("serve-down");
    let auth = format!("Bearer {}", token("alice", false));
    let body = r#"{"variant":"erudit","opponents":[{"robot":"easy"}],"time_control":{"kind":"realtime","initial_seconds":600,"increment_seconds":0,"max_overtime_minutes":1}}"#;
    let created = Instant::now();
    let (status, body) = request(port, "POST", "/games", &[("authorization", &auth)], body).unwrap();
    assert_eq!(status, 201, "{body}");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    let (id, seat) = (view["game_id"].as_str().unwrap().to_string(), view["your_seat"].as_u64().unwrap() as usize);
    let full = view["clock"]["seats"][seat]["remaining_ms"].as_i64().unwrap();
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let killed = Instant::now();
    // The outage itself: the gateway stays down this long (real time is what is measured).
    std::thread::sleep(Duration::from_secs(3));
    let (_again, port) = start_server_in(&dir);
    let down = killed.elapsed();
    let (status, body) = request(port, "GET", &format!("/games/{id}"), &[("authorization", &auth)], "").unwrap();
    let total = created.elapsed();
    assert_eq!(status, 200, "{body}");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    let charged = full - view["clock"]["seats"][seat]["remaining_ms"].as_i64().unwrap();
    let up = total.saturating_sub(down).as_millis() as i64;
    eprintln!("charged {charged} ms of {} ms, the gateway down {} ms", total.as_millis(), down.as_millis());
    assert!(charged <= up + 1_500, "charged {charged} ms, up {up} ms of {total:?}");
    drop(_again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value of header `name` (any case) in a response head.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim()))
}

/// A one-time sign-in URL's path and query from `wordgame token --browser`.
fn signin_path(account: &str, admin: bool, port: u16) -> String {
    let mut args = vec!["token", "--account", account, "--browser"];
    if admin {
        args.push("--admin");
    }
    let port = port.to_string();
    args.extend(["--port", &port]);
    let url = String::from_utf8(Command::new(env!("CARGO_BIN_EXE_wordgame")).args(args).output().unwrap().stdout).unwrap();
    url.trim().strip_prefix(&format!("http://127.0.0.1:{port}")).unwrap().to_string()
}

#[test]
fn the_admin_pages_take_the_session_cookie_and_nothing_else() {
    let (server, port, dir) = start_server("cookie-test");
    let get = |path: &str, headers: &[(&str, &str)]| exchange(port, "GET", path, headers, "").unwrap();

    // Signing in: the one-time code becomes the cookie, once.
    let signin = signin_path("root", true, port);
    let (status, head, _) = get(&signin, &[]);
    assert_eq!(status, 303, "{head}");
    assert_eq!(header(&head, "location"), Some("/_gm"));
    let set = header(&head, "set-cookie").unwrap().to_string();
    assert!(set.contains("; Path=/_gm;") && set.ends_with("Secure; HttpOnly; SameSite=Strict"), "{set}");
    let session = set.split(';').next().unwrap().to_string();
    assert_eq!(get(&signin, &[]).0, 401, "a sign-in code works once");
    let (status, head, _) = get(&signin_path("alice", false, port), &[]);
    assert!(status == 403 && header(&head, "set-cookie").is_none(), "a non-admin's code sets nothing");
    assert_eq!(get("/_gm/signin?code=forged.code.here", &[]).0, 401);

    let (status, head, page) = get("/_gm/", &[("cookie", &session)]);
    assert_eq!(status, 200, "{page}");
    assert_eq!(header(&head, "cache-control"), Some("no-store"));
    assert!(page.contains("id=\"signout\""));

    // Refused: no cookie, the header instead, a forged, an expired or a non-admin's cookie.
    let admin_bearer = format!("Bearer {}", token("root", true));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let expired = api::jwt::sign(
        &serde_json::json!({"sub": api::jwt::demo_account_id("root").to_string(), "exp": now - 10, "cognito:groups": ["admin"]}),
        &api::jwt::dev_secret(),
    );
    let forged = api::jwt::sign(
        &serde_json::json!({"sub": api::jwt::demo_account_id("root").to_string(), "exp": now + 600, "cognito:groups": ["admin"]}),
        b"not the gateway's key",
    );
    let alice_cookie = format!("wordgame_admin={}", api::jwt::admin_session("alice", false, now));
    for (headers, want) in [
        (vec![], 401),
        (vec![("authorization", admin_bearer.as_str())], 401),
        (vec![("cookie", &*format!("wordgame_admin={expired}"))], 401),
        (vec![("cookie", &*format!("wordgame_admin={forged}"))], 401),
        (vec![("cookie", "wordgame_admin=garbage")], 401),
        (vec![("cookie", alice_cookie.as_str())], 403),
    ] {
        let (status, head, body) = get("/_gm/", &headers);
        assert_eq!(status, want, "{headers:?}: {body}");
        assert_eq!(header(&head, "x-content-type-options"), Some("nosniff"), "{headers:?}");
        assert!(!body.contains("<table"), "{headers:?}");
    }
    // The cookie on a player route is no identity there, nor is the session or a sign-in code
    // as a bearer token or on the push socket; a player's token is no admin session.
    assert_eq!(get("/games/open", &[("cookie", &session)]).0, 401);
    assert_eq!(get("/games/open", &[("authorization", &admin_bearer)]).0, 200);
    let session_token = session.strip_prefix("wordgame_admin=").unwrap();
    let code = signin_path("root", true, port).split("code=").nth(1).unwrap().to_string();
    for token in [session_token, code.as_str()] {
        assert_eq!(get("/games/open", &[("authorization", &format!("Bearer {token}"))]).0, 401);
        let upgrade = [
            ("upgrade", "websocket"),
            ("connection", "Upgrade"),
            ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("sec-websocket-version", "13"),
        ];
        assert_eq!(get(&format!("/ws?token={token}"), &upgrade).0, 401);
    }
    assert_eq!(get("/_gm/", &[("cookie", &format!("wordgame_admin={}", token("root", true)))]).0, 401);

    // Signing out needs the page's CSRF token, from the page's own site.
    let csrf = page.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let post = |headers: &[(&str, &str)], body: &str| exchange(port, "POST", "/_gm/signout", headers, body).unwrap();
    for (headers, body) in [
        (vec![("cookie", session.as_str())], String::new()),
        (vec![("cookie", session.as_str())], "csrf=wrong".to_string()),
        (vec![("cookie", session.as_str()), ("sec-fetch-site", "cross-site")], format!("csrf={csrf}")),
        (vec![("cookie", alice_cookie.as_str())], format!("csrf={csrf}")),
    ] {
        let (status, head, _) = post(&headers, &body);
        assert!(status == 403 && header(&head, "set-cookie").is_none(), "{headers:?} {body}: {status}");
    }
    let (status, head, _) = post(&[("cookie", &session), ("sec-fetch-site", "same-origin")], &format!("csrf={csrf}"));
    assert_eq!(status, 200);
    assert!(header(&head, "set-cookie").is_some_and(|c| c.starts_with("wordgame_admin=;") && c.contains("Max-Age=0")), "{head}");
    // Signed out is signed out: the old cookie is refused, and so is the used code after a
    // restart.
    assert_eq!(get("/_gm/", &[("cookie", &session)]).0, 401, "a signed-out session");
    drop(server);
    let (_server, port) = start_server_in(&dir);
    let (status, head, _) = exchange(port, "GET", &signin, &[], "").unwrap();
    assert!(status == 401 && header(&head, "set-cookie").is_none(), "a used code after a restart: {status}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_client_that_stalls_its_body_or_headers_is_cut_off_at_the_read_timeout() {
    use std::io::{Read, Write};
    let (_server, port, dir) = start_server_with("slow-body", &["--read-timeout-seconds", "1"]);
    let auth = format!("Bearer {}", token("alice", false));
    // The headers promise 100 bytes; 10 come, then nothing.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /games HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: {auth}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(br#"{"variant""#).unwrap();
    let started = Instant::now();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let took = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(10), "answered after {took:?}");
    // Headers that never end: the connection is closed.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(b"GET /games HTTP/1.1\r\nhost: 127.0.0.1\r\n").unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    assert!(started.elapsed() < Duration::from_secs(10), "the stalled headers held the connection {:?}", started.elapsed());
    let rest = String::from_utf8_lossy(&rest);
    assert!(rest.is_empty() || rest.starts_with("HTTP/1.1 408"), "{rest}");
    let _ = std::fs::remove_dir_all(&dir);
}
