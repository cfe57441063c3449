//! Helpers for tests that run the `wordgame` binary: a server that is always stopped, and a
//! minimal HTTP/1.1 client over a TCP stream (loopback only).
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process stopped (Ctrl-C, then kill) when dropped, so a failing test leaves nothing
/// running.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill").args(["-INT", &self.0.id().to_string()]).status();
            let stop = Instant::now();
            while self.0.try_wait().ok().flatten().is_none() && stop.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// A free port on 127.0.0.1.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One HTTP request; the status and the body, or `None` if nothing answers.
pub fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Option<(u16, String)> {
    exchange(port, method, path, headers, body).map(|(status, _, body)| (status, body))
}

/// As [`request`], with the answer's head too: status, head and body.
pub fn exchange(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Option<(u16, String, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    write!(stream, "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n{extra}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).ok()?;
    // Read the head, then exactly the body the head announces (some servers keep the
    // connection open despite `connection: close`).
    let mut answer = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        answer.extend_from_slice(&buf[..n]);
    };
    let raw_head = String::from_utf8_lossy(&answer[..head_end]).into_owned();
    let head = raw_head.to_ascii_lowercase();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let length = head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse::<usize>().ok());
    match length {
        Some(n) => {
            while answer.len() < head_end + n {
                let got = stream.read(&mut buf).ok()?;
                if got == 0 {
                    break;
                }
                answer.extend_from_slice(&buf[..got]);
            }
        }
        None => {
            let _ = stream.read_to_end(&mut answer);
        }
    }
    let body = String::from_utf8_lossy(&answer[head_end..]).into_owned();
    let body = if head.contains("transfer-encoding: chunked") { dechunk(&body) } else { body };
    Some((status, raw_head, body))
}

/// A chunked HTTP/1.1 body's content.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// `wordgame serve` on a free port with its own PostgreSQL under a temporary directory; waits
/// until it answers.
pub fn start_server(tag: &str) -> (Guard, u16, std::path::PathBuf) {
    start_server_with(tag, &[])
}

/// As [`start_server`], with more arguments for `serve`.
pub fn start_server_with(tag: &str, args: &[&str]) -> (Guard, u16, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("wordgame-{tag}-{}", std::process::id()));
    let (guard, port, _) = spawn_server(&dir, false, args, &[]);
    (guard, port, dir)
}

/// `wordgame serve` on a free port with its PostgreSQL data in `dir`; waits until it answers.
/// Its play is repeatable (`--seed`, printed for a failing test): the seed comes from the
/// directory's name (less this process's id) and how often it was started, so a restarted server
/// makes no id an earlier start made.
pub fn start_server_in(dir: &std::path::Path) -> (Guard, u16) {
    let (guard, port, _) = spawn_server(dir, false, &[], &[]);
    (guard, port)
}

/// As [`start_server`], with these environment variables set for `serve`.
pub fn start_server_with_env(tag: &str, env: &[(&str, &str)]) -> (Guard, u16, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("wordgame-{tag}-{}", std::process::id()));
    let (guard, port, _) = spawn_server(&dir, false, &[], env);
    (guard, port, dir)
}

/// As [`start_server`], with the line `serve` logged when it began serving, read from its
/// standard output as a pipe (the rest of its output is read and dropped).
pub fn start_server_logged(tag: &str) -> (Guard, u16, std::path::PathBuf, String) {
    let (guard, port, dir, (serving, _)) = start_server_watched(tag);
    (guard, port, dir, serving)
}

/// As [`start_server`], with the line `serve` logged when it began serving and a channel of
/// every line it logs after it.
pub fn start_server_watched(tag: &str) -> (Guard, u16, std::path::PathBuf, (String, std::sync::mpsc::Receiver<String>)) {
    let dir = std::env::temp_dir().join(format!("wordgame-{tag}-{}", std::process::id()));
    let (guard, port, log) = spawn_server(&dir, true, &[], &[]);
    (guard, port, dir, log.expect("a piped log"))
}

/// `wordgame serve` on a port the system picks (`--port 0`: no other process can be given it
/// between choosing and binding) with its data in `dir`, `args` and the environment variables
/// `env`; its port read from the line it logs once listening; with `log`, that "serving" line and
/// a channel of every line after it.
fn spawn_server(
    dir: &std::path::Path,
    log: bool,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Guard, u16, Option<(String, std::sync::mpsc::Receiver<String>)>) {
    static STARTS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let starts = {
        let mut all = STARTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        all.push(dir.to_path_buf());
        all.iter().filter(|d| d.as_path() == dir).count() as u64
    };
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().replace(&std::process::id().to_string(), "");
    let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)) ^ starts;
    eprintln!("wordgame serve --seed {seed} (data {})", dir.display());
    let child = Command::new(env!("CARGO_BIN_EXE_wordgame"))
        .args(["serve", "--port", "0", "--data-dir", dir.to_str().unwrap(), "--seed", &seed.to_string()])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut guard = Guard(child);
    let out = guard.0.stdout.take().expect("a piped log");
    let (tx, rx) = std::sync::mpsc::channel();
    // Read to the end, so the server never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(out)).map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let until = Instant::now() + Duration::from_secs(60);
    let serving = loop {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.contains("serving") => break line,
            Ok(_) => {}
            Err(_) => {
                let exited = guard.0.try_wait().ok().flatten();
                panic!("serve did not log that it is serving within 60 s (exited: {exited:?})")
            }
        }
    };
    let port = port_of(&serving);
    (guard, port, log.then_some((serving, rx)))
}

/// The port in serve's "serving" line (`http://127.0.0.1:PORT/`).
fn port_of(serving: &str) -> u16 {
    let at = serving.find("http://127.0.0.1:").unwrap_or_else(|| panic!("no address in {serving:?}")) + "http://127.0.0.1:".len();
    let digits: String = serving[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("no port in {serving:?}"))
}

/// A development token from `wordgame token`.
pub fn token(account: &str, admin: bool) -> String {
    let mut args = vec!["token", "--account", account];
    if admin {
        args.push("--admin");
    }
    String::from_utf8(Command::new(env!("CARGO_BIN_EXE_wordgame")).args(args).output().unwrap().stdout).unwrap().trim().to_string()
}
