//! Push in AWS, against a local stand-in for API Gateway's management API and EventBridge:
//! every move's frame is posted, SigV4-signed, to each subscribed connection; a connection the
//! API answers `410 Gone` is deleted with its subscriptions; the moves go to EventBridge as
//! `PutEvents` entries (source `wordgame`, detail-type `Move made`), an invitation to the invitee's
//! connections and as `Invitation sent`; an entry EventBridge refuses
//! is logged, one line each, as the metric filter reads it; all of it runs concurrently within
//! one budget, so an endpoint that never answers does not hold a move's answer.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::{App, Player};
use api::aws_push::AwsPush;
use aws_credential_types::Credentials;
use aws_credential_types::provider::SharedCredentialsProvider;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use service::{MoveEvent, Notifier};
use tracing::instrument::WithSubscriber;

/// A request the stand-in received: path, headers, body.
type Seen = (String, Vec<(String, String)>, String);

/// Serves on a free port: `410` for a connection whose id contains "gone", else `200`.
async fn stand_in() -> (u16, Arc<Mutex<Vec<Seen>>>) {
    stand_in_answering(|path| Some(if path.contains("gone") { (410, "{}") } else { (200, "{}") })).await
}

/// Serves on a free port, each request recorded as it arrives and answered as `answer` says
/// for its path: a status and body, or none ever.
async fn stand_in_answering(answer: fn(&str) -> Option<(u16, &'static str)>) -> (u16, Arc<Mutex<Vec<Seen>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let record = record.clone();
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let record = record.clone();
                    async move {
                        let path = req.uri().path().to_string();
                        let headers = req.headers().iter().map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_string())).collect();
                        let body = String::from_utf8(req.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
                        let answered = answer(&path);
                        record.lock().unwrap().push((path, headers, body));
                        let Some((status, text)) = answered else { return std::future::pending().await };
                        Ok::<_, Infallible>(
                            hyper::Response::builder().status(status).body(Full::new(Bytes::from_static(text.as_bytes()))).unwrap(),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
            });
        }
    });
    (port, seen)
}

/// A fresh app and a player's new Nối từ game against a robot: the player and the game's id.
async fn robot_game() -> (App, Player, uuid::Uuid) {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    (app, ann, game["game_id"].as_str().unwrap().parse().unwrap())
}

fn header<'a>(seen: &'a Seen, name: &str) -> &'a str {
    seen.1.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or_default()
}

#[tokio::test]
async fn moves_are_posted_to_subscribers_gone_ones_are_dropped_and_events_published() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let id: uuid::Uuid = game["game_id"].as_str().unwrap().parse().unwrap();
    let svc = &app.state.service;
    let caller = |p: Player| service::Caller::new(p.0, ["player"]).unwrap();
    for (who, connection) in [(ann, "live=A"), (bob, "gone=B")] {
        svc.connect(&caller(who), connection).await.unwrap();
        let reply = svc.push_message(&caller(who), connection, &json!({"action": "subscribe", "game_id": id}).to_string()).await;
        assert_eq!(reply, service::ServerReply::Subscribed { game_id: id });
    }

    let (port, seen) = stand_in().await;
    let credentials = SharedCredentialsProvider::new(Credentials::new("AKIDEXAMPLE", "secret", None, None, "test"));
    let base = format!("http://127.0.0.1:{port}");
    let push = AwsPush::new(
        svc.store().clone(),
        credentials,
        "eu-central-1",
        Some(&format!("{base}/live-stage")),
        Some((format!("{base}/"), "wordgame-bus".into())),
    );
    let events = [MoveEvent { game_id: id, move_no: 0, to_move: Some(1), status: service::GameStatus::Active, clock: None, ratings: None }];
    push.moved(&events).await;

    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "two posts and one PutEvents: {seen:?}");
    let posts: Vec<&Seen> = seen.iter().filter(|s| s.0.contains("/@connections/")).collect();
    let mut paths: Vec<&str> = posts.iter().map(|s| s.0.as_str()).collect();
    paths.sort();
    assert_eq!(paths, ["/live-stage/@connections/gone%3DB", "/live-stage/@connections/live%3DA"]);
    for post in &posts {
        let frame: Value = serde_json::from_str(&post.2).unwrap();
        assert_eq!(frame, json!({"type": "move", "game_id": id, "move_no": 0, "to_move": 1, "status": "active"}));
        let auth = header(post, "authorization");
        assert!(
            auth.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") && auth.contains("/eu-central-1/execute-api/aws4_request"),
            "{auth}"
        );
    }
    let put = seen.iter().find(|s| s.0 == "/").expect("PutEvents");
    assert_eq!(header(put, "x-amz-target"), "AWSEvents.PutEvents");
    assert!(header(put, "authorization").contains("/eu-central-1/events/aws4_request"));
    let body: Value = serde_json::from_str(&put.2).unwrap();
    let entry = &body["Entries"][0];
    assert_eq!(
        (entry["Source"].as_str(), entry["DetailType"].as_str(), entry["EventBusName"].as_str()),
        (Some("wordgame"), Some("Move made"), Some("wordgame-bus"))
    );
    let detail: Value = serde_json::from_str(entry["Detail"].as_str().unwrap()).unwrap();
    assert_eq!(detail["game_id"], id.to_string());

    // The gone connection and its subscription are deleted; the live one stays.
    assert_eq!(svc.subscribers(id).await.unwrap(), ["live=A"]);
}

#[tokio::test]
async fn an_invitation_is_posted_to_the_invitees_connections_and_published() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let svc = &app.state.service;
    let caller = |p: Player| service::Caller::new(p.0, ["player"]).unwrap();
    svc.connect(&caller(ann), "ann=1").await.unwrap();
    svc.connect(&caller(bob), "bob=1").await.unwrap();
    let (port, seen) = stand_in().await;
    let credentials = SharedCredentialsProvider::new(Credentials::new("AKIDEXAMPLE", "secret", None, None, "test"));
    let base = format!("http://127.0.0.1:{port}");
    let push = AwsPush::new(
        svc.store().clone(),
        credentials,
        "eu-central-1",
        Some(&format!("{base}/stage")),
        Some((format!("{base}/"), "bus".into())),
    );
    let game = uuid::Uuid::new_v4();
    let invitation = service::InvitationEvent {
        game_id: game,
        variant: service::Variant::NOI_TU,
        invited_by: ann.0,
        inviter_name: "Ann".into(),
        invitee: bob.0,
    };
    push.invited(std::slice::from_ref(&invitation)).await;

    let seen = seen.lock().unwrap().clone();
    let posts: Vec<&Seen> = seen.iter().filter(|s| s.0.contains("/@connections/")).collect();
    assert_eq!(posts.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["/stage/@connections/bob%3D1"], "the invitee's only");
    let frame: Value = serde_json::from_str(&posts[0].2).unwrap();
    assert_eq!(frame, json!({"type": "invitation", "game_id": game, "variant": "noi-tu", "invited_by": ann.0, "inviter_name": "Ann"}));
    let put = seen.iter().find(|s| s.0 == "/").expect("PutEvents");
    let body: Value = serde_json::from_str(&put.2).unwrap();
    assert_eq!(body["Entries"][0]["DetailType"], "Invitation sent");
    let detail: Value = serde_json::from_str(body["Entries"][0]["Detail"].as_str().unwrap()).unwrap();
    assert_eq!(
        (detail["invitee"].as_str(), detail["game_id"].as_str()),
        (Some(bob.0.to_string().as_str()), Some(game.to_string().as_str()))
    );
}

#[tokio::test]
async fn a_websocket_reply_is_posted_to_its_connection_and_a_gone_one_forgotten() {
    let (app, ann, id) = robot_game().await;
    let svc = &app.state.service;
    let caller = service::Caller::new(ann.0, ["player"]).unwrap();
    svc.connect(&caller, "gone=C").await.unwrap();
    svc.push_message(&caller, "gone=C", &json!({"action": "subscribe", "game_id": id}).to_string()).await;

    let (port, seen) = stand_in().await;
    let credentials = SharedCredentialsProvider::new(Credentials::new("AKIDEXAMPLE", "secret", None, None, "test"));
    let push = AwsPush::new(svc.store().clone(), credentials, "eu-central-1", Some(&format!("http://127.0.0.1:{port}/live")), None);
    api::websocket::reply_to(&push, "live=D", r#"{"type":"subscribed"}"#).await;
    assert_eq!(push.post_to_connection("gone=C", "{}").await, Ok(410));
    let seen = seen.lock().unwrap().clone();
    assert_eq!((seen[0].0.as_str(), seen[0].2.as_str()), ("/live/@connections/live%3DD", r#"{"type":"subscribed"}"#));
    assert!(header(&seen[0], "authorization").contains("/eu-central-1/execute-api/aws4_request"));
    assert!(svc.subscribers(id).await.unwrap().is_empty(), "the gone connection is forgotten");
    let none =
        AwsPush::new(svc.store().clone(), SharedCredentialsProvider::new(Credentials::new("A", "s", None, None, "t")), "x", None, None);
    assert!(none.post_to_connection("live=D", "{}").await.is_err(), "no endpoint");
}

/// The `AwsPush` of `app`'s store to a stand-in on `port`: connections under `/stage`, the bus
/// `wordgame-bus` at `/`.
fn push_to(app: &App, port: u16) -> AwsPush {
    let credentials = SharedCredentialsProvider::new(Credentials::new("AKIDEXAMPLE", "secret", None, None, "test"));
    let base = format!("http://127.0.0.1:{port}");
    let events = Some((format!("{base}/"), "wordgame-bus".to_string()));
    AwsPush::new(app.state.service.store().clone(), credentials, "eu-central-1", Some(&format!("{base}/stage")), events)
}

#[tokio::test]
async fn a_push_endpoint_that_never_answers_does_not_hold_the_move_past_the_push_budget() {
    let mut app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let id: uuid::Uuid = game["game_id"].as_str().unwrap().parse().unwrap();
    let svc = &app.state.service;
    for (who, connection) in [(ann, "hang=A"), (bob, "hang=B"), (bob, "hang=C")] {
        let caller = service::Caller::new(who.0, ["player"]).unwrap();
        svc.connect(&caller, connection).await.unwrap();
        svc.push_message(&caller, connection, &json!({"action": "subscribe", "game_id": id}).to_string()).await;
    }
    let (port, seen) = stand_in_answering(|_| None).await;
    let push = push_to(&app, port);
    app.state.service = app.state.service.clone().with_notifier(Arc::new(push));

    let (status, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    let mover = if view["your_turn"] == true { ann } else { bob };
    let pass = json!({"expected_move_no": view["move_count"], "client_move_id": uuid::Uuid::new_v4(), "move": {"kind": "pass"}});
    let started = Instant::now();
    let (status, answer) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &pass.to_string()).await;
    let took = started.elapsed();
    assert_eq!(status, 200, "{answer}");
    assert!(took < api::aws_push::PUSH_BUDGET + Duration::from_millis(500), "the move took {took:?}");
    // Every post and the publish were under way at once (one at a time, the first would have
    // held the others past the budget).
    let mut paths: Vec<String> = seen.lock().unwrap().iter().map(|s| s.0.clone()).collect();
    paths.sort();
    assert_eq!(paths, ["/", "/stage/@connections/hang%3DA", "/stage/@connections/hang%3DB", "/stage/@connections/hang%3DC"]);
}

/// A writer into a shared buffer, for the log lines of one test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn each_entry_eventbridge_refuses_is_logged_as_the_metric_filter_reads_it() {
    let (app, _, id) = robot_game().await;
    let (port, seen) = stand_in_answering(|_| {
        Some((200, r#"{"FailedEntryCount":2,"Entries":[{"ErrorCode":"ThrottlingException","ErrorMessage":"slow down"},{"EventId":"e-2"},{"ErrorCode":"InternalFailure","ErrorMessage":"try again"}]}"#))
    })
    .await;
    let push = push_to(&app, port);
    let events: Vec<MoveEvent> = (0..3)
        .map(|n| MoveEvent { game_id: id, move_no: n, to_move: Some(0), status: service::GameStatus::Active, clock: None, ratings: None })
        .collect();
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt().json().with_writer(move || writer.clone()).finish();
    push.moved(&events).with_subscriber(subscriber).await;

    assert_eq!(seen.lock().unwrap().len(), 1, "one PutEvents, no subscribers");
    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    let refused: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["fields"]["message"] == "push: EventBridge refused an entry")
        .collect();
    assert_eq!(refused.len(), 2, "{text}");
    for (line, (move_no, code, message)) in
        refused.iter().zip([(0, "ThrottlingException", "slow down"), (2, "InternalFailure", "try again")])
    {
        assert_eq!(line["level"], "ERROR");
        let f = &line["fields"];
        assert_eq!(
            (f["move_no"].as_u64(), f["error_code"].as_str(), f["error_message"].as_str()),
            (Some(move_no), Some(code), Some(message))
        );
        assert_eq!(f["failed_entries"], 2);
    }
}
