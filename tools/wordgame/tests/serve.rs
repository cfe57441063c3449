//! `wordgame serve` as the README runs it: it starts (with its own PostgreSQL when
//! DATABASE_URL is unset), answers a token holder at the AWS paths, refuses anyone else, and
//! stops cleanly on Ctrl-C.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The server process, stopped hard if the test fails before stopping it itself.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill").args(["-INT", &self.0.id().to_string()]).status();
            std::thread::sleep(Duration::from_secs(2));
            let _ = self.0.kill();
        }
    }
}

fn request(port: u16, method: &str, path: &str, token: Option<&str>, body: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let auth = token.map(|t| format!("authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(stream, "{method} {path} HTTP/1.1\r\nhost: localhost\r\n{auth}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_string()))
}

#[test]
fn the_local_gateway_serves_the_api_and_stops_on_ctrl_c() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = std::env::temp_dir().join(format!("wordgame-serve-test-{}", std::process::id()));
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_wordgame"))
            .args(["serve", "--port", &port.to_string(), "--data-dir", dir.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let child = &mut server.0;
    let started = Instant::now();
    while request(port, "GET", "/games", None, "").is_none() {
        assert!(started.elapsed() < Duration::from_secs(60), "serve did not come up");
        assert!(child.try_wait().unwrap().is_none(), "serve exited early");
        std::thread::sleep(Duration::from_millis(100));
    }
    let token =
        String::from_utf8(Command::new(env!("CARGO_BIN_EXE_wordgame")).args(["token", "--account", "alice"]).output().unwrap().stdout)
            .unwrap();
    let (status, body) =
        request(port, "POST", "/games", Some(token.trim()), r#"{"variant":"erudit","opponents":[{"robot":"easy"}]}"#).unwrap();
    assert_eq!(status, 201, "{body}");
    let view: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(view["seats"][view["your_seat"].as_u64().unwrap() as usize]["display_name"], "alice");
    let id = view["game_id"].as_str().unwrap();
    let (status, _) = request(port, "GET", &format!("/games/{id}/hint?limit=2"), Some(token.trim()), "").unwrap();
    assert_eq!(status, 200);
    let (status, body) = request(port, "GET", &format!("/games/{id}"), Some("forged.token.here"), "").unwrap();
    assert_eq!(status, 401, "{body}");
    let (status, _) = request(port, "GET", &format!("/games/{id}"), None, "").unwrap();
    assert_eq!(status, 401);

    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let stop = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(stop.elapsed() < Duration::from_secs(30), "serve did not stop on Ctrl-C");
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
