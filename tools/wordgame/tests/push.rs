//! Push on `wordgame serve`'s `/ws`, driven by a real WebSocket client: subscribe as bob, alice
//! moves, bob's socket gets the move; unknown frames and someone else's game are typed error
//! replies on a socket that stays usable; and 200 subscribed clients through a burst of moves
//! each get every move of their games exactly once.
//!
//! No test waits out a silence: a move's frame is queued on the socket before the move's answer
//! returns, so "nothing more" is checked by a probe frame sent after the moves, whose reply must
//! come next. A frame the server owes has [`PATIENCE`] to arrive.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::{request, start_server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn token(name: &str) -> String {
    api::jwt::demo_token(name, false, 1, std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64)
}

fn call(port: u16, who: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let auth = format!("Bearer {}", token(who));
    let (status, text) = request(port, method, path, &[("authorization", &auth)], body).expect("serve answers");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A scrabble-en game between two named players: its id and who moves first.
fn duel(port: u16, a: &str, b: &str) -> (String, String) {
    call(port, b, "GET", "/games", ""); // b exists once seen
    let (status, _) = call(port, b, "POST", "/games/open", r#"{"variant":"noi-tu"}"#);
    assert_eq!(status, 201);
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": api::jwt::demo_account_id(b)}]}).to_string();
    let (status, game) = call(port, a, "POST", "/games", &body);
    assert_eq!(status, 201, "{game}");
    let (status, game) = call(port, b, "POST", &format!("/games/{}/join", game["game_id"].as_str().unwrap()), "");
    assert_eq!((status, game["status"].as_str()), (200, Some("active")), "{game}");
    // The view is b's, who accepted.
    let leader = if game["to_move"] == game["your_seat"] { b } else { a };
    (game["game_id"].as_str().unwrap().to_string(), leader.to_string())
}

async fn connect(port: u16, who: &str) -> Socket {
    let (socket, response) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/ws?token={}", token(who))).await.expect("the socket opens");
    assert_eq!(response.status().as_u16(), 101);
    socket
}

/// How long a frame the server owes may take: generous, so that a loaded machine cannot fail a
/// correct server (here it answers in milliseconds). Only a failing test waits this long.
const PATIENCE: Duration = Duration::from_secs(30);

async fn send(socket: &mut Socket, text: &str) -> Value {
    socket.send(Message::text(text)).await.unwrap();
    next(socket).await
}

/// The next text frame, which the server owes.
async fn next(socket: &mut Socket) -> Value {
    loop {
        match tokio::time::timeout(PATIENCE, socket.next()).await {
            Err(_) => panic!("no frame within {PATIENCE:?}"),
            Ok(None) => panic!("the socket closed"),
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).unwrap(),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => panic!("socket error: {e}"),
        }
    }
}

/// Asserts that no frame is queued: a probe's reply is the next frame.
async fn nothing_queued(socket: &mut Socket, why: &str) {
    let reply = send(socket, "probe").await;
    assert_eq!(reply["code"], "unknown_message", "{why}: {reply}");
}

#[test]
fn bob_hears_alices_move_and_bad_frames_are_typed_errors() {
    let (_server, port, _dir) = start_server("push-test");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (id, leader) = duel(port, "alice", "bob");
        let mover = leader.as_str();
        let listener = if mover == "alice" { "bob" } else { "alice" };
        let (_, robot_game) = call(port, "alice", "POST", "/games", r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}]}"#);
        let mut socket = connect(port, listener).await;

        let refused = send(&mut socket, "hello").await;
        assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("unknown_message")), "{refused}");
        let refused = send(&mut socket, r#"{"action":"dance","game_id":"x"}"#).await;
        assert_eq!(refused["code"], "unknown_message");
        if listener == "bob" {
            // Alice's robot game may be watched: bob subscribes to it as a spectator.
            let other = json!({"action": "subscribe", "game_id": robot_game["game_id"]}).to_string();
            let watching = send(&mut socket, &other).await;
            assert_eq!(watching["type"], "subscribed", "a game that may be watched: {watching}");
            // Once alice lets nobody watch her games, to bob it does not exist.
            assert_eq!(call(port, "alice", "PUT", "/me/settings", r#"{"spectating":"never"}"#).0, 200);
            let refused = send(&mut socket, &other).await;
            assert_eq!(refused["code"], "not_found", "someone else's private game: {refused}");
        }
        let unknown = json!({"action": "subscribe", "game_id": uuid::Uuid::new_v4()}).to_string();
        assert_eq!(send(&mut socket, &unknown).await["code"], "not_found");

        let ok = send(&mut socket, &json!({"action": "subscribe", "game_id": id}).to_string()).await;
        assert_eq!(ok, json!({"type": "subscribed", "game_id": id}), "the socket stayed usable");
        let (status, moved) = call(port, mover, "POST", &format!("/games/{id}/moves"), r#"{"expected_move_no":0,"move":{"kind":"pass"}}"#);
        assert_eq!(status, 200, "{moved}");
        let pushed = next(&mut socket).await;
        assert_eq!(pushed, json!({"type": "move", "game_id": id, "move_no": 0, "to_move": moved["game"]["to_move"], "status": "active"}));

        let ok = send(&mut socket, &json!({"action": "unsubscribe", "game_id": id}).to_string()).await;
        assert_eq!(ok["type"], "unsubscribed");
        let (status, _) = call(port, listener, "POST", &format!("/games/{id}/moves"), r#"{"expected_move_no":1,"move":{"kind":"pass"}}"#);
        assert_eq!(status, 200);
        nothing_queued(&mut socket, "nothing after unsubscribing").await;

        // An invitation reaches the invitee's sockets without any subscription.
        let (inviter, invitee) = (mover, listener);
        let body = json!({"variant": "noi-tu", "opponents": [{"account": api::jwt::demo_account_id(invitee)}]}).to_string();
        let (status, invitation) = call(port, inviter, "POST", "/games", &body);
        assert_eq!(status, 201, "{invitation}");
        let told = next(&mut socket).await;
        assert_eq!(
            told,
            json!({"type": "invitation", "game_id": invitation["game_id"], "variant": "noi-tu",
                   "invited_by": api::jwt::demo_account_id(inviter), "inviter_name": inviter})
        );
        nothing_queued(&mut socket, "one frame per invitation").await;

        let (status, _) = call(port, "alice", "GET", "/ws", "");
        assert_eq!(status, 400, "a plain GET of /ws is not an upgrade");
        let refused = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/ws?token=forged")).await;
        assert!(refused.is_err(), "a bad token gets no socket");
    });
}

#[test]
fn two_hundred_subscribed_clients_each_get_every_move_of_their_games_exactly_once() {
    let (_server, port, _dir) = start_server("push-load");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        const GAMES: usize = 100;
        const MOVES: u32 = 4;
        let games: Vec<(String, String, String, String)> = (0..GAMES)
            .map(|i| {
                let (a, b) = (format!("p{i}a"), format!("p{i}b"));
                let (id, leader) = duel(port, &a, &b);
                (id, a, b, leader)
            })
            .collect();
        // 200 clients, both players of every game, all subscribed before the burst.
        let mut clients = Vec::new();
        for (id, a, b, _) in &games {
            for who in [a, b] {
                let mut socket = connect(port, who).await;
                let ok = send(&mut socket, &json!({"action": "subscribe", "game_id": id}).to_string()).await;
                assert_eq!(ok["type"], "subscribed");
                clients.push((id.clone(), socket));
            }
        }
        // The burst: every game's players pass in turn, all games at once.
        let movers: Vec<_> = games
            .iter()
            .map(|(id, a, b, leader)| {
                let (id, a, b, leader) = (id.clone(), a.clone(), b.clone(), leader.clone());
                std::thread::spawn(move || {
                    let other = if leader == a { b.clone() } else { a.clone() };
                    for n in 0..MOVES {
                        let who = if n % 2 == 0 { &leader } else { &other };
                        let body = json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string();
                        let (status, out) = call(port, who, "POST", &format!("/games/{id}/moves"), &body);
                        assert_eq!(status, 200, "{out}");
                    }
                })
            })
            .collect();
        for m in movers {
            m.join().unwrap();
        }
        // Every socket read at once: its game's moves, then nothing more.
        let heard = futures_util::future::join_all(clients.iter_mut().map(|(id, socket)| async move {
            let mut got: BTreeMap<u64, usize> = BTreeMap::new();
            for _ in 0..MOVES {
                let frame = next(socket).await;
                assert_eq!(frame["game_id"], id.as_str(), "only its own game's moves: {frame}");
                *got.entry(frame["move_no"].as_u64().unwrap()).or_default() += 1;
            }
            nothing_queued(socket, "no move twice").await;
            let expected: BTreeMap<u64, usize> = (0..u64::from(MOVES)).map(|n| (n, 1)).collect();
            assert_eq!(got, expected, "game {id}: every move exactly once");
            got.len()
        }))
        .await
        .into_iter()
        .sum::<usize>();
        assert_eq!(heard, 2 * GAMES * MOVES as usize);
    });
}

#[test]
fn a_handshake_without_upgrade_headers_and_an_oversized_message_are_refused() {
    let (_server, port, _dir) = start_server("push-limits");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // The helper's requests say `connection: close`: a key alone, or with `upgrade:
        // websocket`, is not a WebSocket handshake.
        let path = format!("/ws?token={}", token("alice"));
        let key = ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==");
        let version = ("sec-websocket-version", "13");
        for headers in [vec![key, version], vec![key, version, ("upgrade", "websocket")]] {
            let (status, body) = request(port, "GET", &path, &headers, "").expect("serve answers");
            assert_eq!(status, 400, "{headers:?}: {body}");
            assert!(body.contains("bad_request"), "{body}");
        }

        let mut socket = connect(port, "alice").await;
        let at_cap = "x".repeat(service::MAX_PUSH_MESSAGE);
        assert_eq!(send(&mut socket, &at_cap).await["code"], "unknown_message", "at the cap: read and answered");
        socket.send(Message::text(format!("{at_cap}x"))).await.unwrap();
        let closed = match tokio::time::timeout(PATIENCE, socket.next()).await.expect("the server closes the socket") {
            Some(Ok(Message::Close(frame))) => frame.expect("a close frame with a code"),
            other => panic!("expected the close frame, got {other:?}"),
        };
        assert_eq!(u16::from(closed.code), 1009, "message too big: {closed:?}");
    });
}

#[test]
fn the_move_that_ends_a_rated_game_pushes_both_ratings_change() {
    let (_server, port, _dir) = start_server("push-rated-test");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        call(port, "dave", "GET", "/games", "");
        let (status, _) = call(port, "dave", "POST", "/games/open", r#"{"variant":"noi-tu"}"#);
        assert_eq!(status, 201);
        let body = json!({"variant": "scrabble-en", "opponents": [{"account": api::jwt::demo_account_id("dave")}], "rated": true});
        let (status, game) = call(port, "carol", "POST", "/games", &body.to_string());
        assert_eq!(status, 201, "{game}");
        let id = game["game_id"].as_str().unwrap().to_string();
        let (status, game) = call(port, "dave", "POST", &format!("/games/{id}/join"), "");
        assert_eq!(status, 200, "{game}");
        // Both pass twice: each has made two moves, so a resignation rates the game.
        let first =
            if game["to_move"] == game["your_seat"] { ["dave", "carol", "dave", "carol"] } else { ["carol", "dave", "carol", "dave"] };
        for (n, who) in first.iter().enumerate() {
            let pass = json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string();
            assert_eq!(call(port, who, "POST", &format!("/games/{id}/moves"), &pass).0, 200);
        }
        let mut socket = connect(port, "dave").await;
        let ok = send(&mut socket, &json!({"action": "subscribe", "game_id": id}).to_string()).await;
        assert_eq!(ok["type"], "subscribed");
        let (status, ended) = call(port, "carol", "POST", &format!("/games/{id}/resign"), "");
        assert_eq!(status, 200, "{ended}");
        let pushed = next(&mut socket).await;
        assert_eq!((pushed["status"].as_str(), pushed["to_move"].clone()), (Some("finished"), Value::Null), "{pushed}");
        assert_eq!(pushed["ratings"], ended["game"]["ratings"], "the push carries the change the answer gave");
        let changes: Vec<i64> = pushed["ratings"]["seats"].as_array().unwrap().iter().map(|s| s["change"].as_i64().unwrap()).collect();
        assert!(changes.iter().any(|c| *c > 0) && changes.iter().any(|c| *c < 0), "{pushed}");
    });
}

fn directing(port: u16, method: &str, path: &str, body: &str) -> (u16, Value) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let auth = format!("Bearer {}", api::jwt::demo_token_in("director", &["director"], 1, now));
    let (status, text) = request(port, method, path, &[("authorization", &auth)], body).expect("serve answers");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[test]
fn a_tournament_tells_its_players_their_game_is_ready_and_when_the_draw_wants_their_tile() {
    let (_server, port, _dir) = start_server("push-tournament");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut alice = connect(port, "alice").await;
        let mut bob = connect(port, "bob").await;
        let body = json!({"name": "Cup", "variant": "scrabble-ru", "pairing": "round_robin", "rounds": 1}).to_string();
        let (status, t) = directing(port, "POST", "/tournaments", &body);
        assert_eq!(status, 201, "{t}");
        let id = t["tournament_id"].as_str().unwrap().to_string();
        // The director invites; each player accepts (no one is paired without entering).
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        for name in ["alice", "bob"] {
            let body = json!({"account_id": api::jwt::demo_account_id(name)}).to_string();
            assert_eq!(directing(port, "POST", &format!("/tournaments/{id}/players"), &body).0, 200);
            let auth = format!("Bearer {}", api::jwt::demo_token_in(name, &[], 1, now));
            let (status, answer) = request(port, "POST", &format!("/tournaments/{id}/enter"), &[("authorization", &auth)], "").unwrap();
            assert_eq!(status, 200, "{name} enters: {answer}");
        }
        assert_eq!(directing(port, "POST", &format!("/tournaments/{id}/rounds"), "").0, 200);
        let (status, t) = directing(port, "POST", &format!("/tournaments/{id}/rounds/1/start"), "");
        assert_eq!(status, 200, "{t}");
        let game = t["pairings"][0]["tables"][0]["game_id"].clone();
        for socket in [&mut alice, &mut bob] {
            for kind in ["round_ready", "draw_a_tile"] {
                assert_eq!(next(socket).await, json!({"type": kind, "tournament_id": id, "round": 1, "game_id": game}));
            }
        }
        let path = format!("/games/{}/draw", game.as_str().unwrap());
        // Each draws when asked; a tie asks the tied again; the end tells both.
        let mut asked = vec!["alice", "bob"];
        for _ in 0..20 {
            for who in std::mem::take(&mut asked) {
                let (status, view) = call(port, who, "POST", &path, "");
                assert_eq!(status, 200, "{view}");
            }
            let (a, b) = (next(&mut alice).await, next(&mut bob).await);
            assert_eq!(a["type"], b["type"], "{a} {b}");
            if a["type"] == "draw_over" {
                nothing_queued(&mut alice, "one frame for the draw's end").await;
                let (_, view) = call(port, "alice", "GET", &format!("/games/{}", game.as_str().unwrap()), "");
                assert_eq!(view["status"], "active");
                return;
            }
            assert_eq!(a["type"], "draw_a_tile", "a tie asks both again: {a}");
            asked = vec!["alice", "bob"];
        }
        panic!("the draw did not end in 20 ties");
    });
}
