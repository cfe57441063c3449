//! `wordgame serve` as the README runs it: it starts (with its own PostgreSQL when
//! DATABASE_URL is unset), answers a token holder at the AWS paths, refuses anyone else, and
//! stops cleanly on Ctrl-C.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{request, start_server, start_server_in, token};

#[test]
fn the_local_gateway_serves_the_api_and_stops_on_ctrl_c() {
    let (mut server, port, dir) = start_server("serve-test");
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
