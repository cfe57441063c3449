//! Push in AWS, against a local stand-in for API Gateway's management API and EventBridge:
//! every move's frame is posted, SigV4-signed, to each subscribed connection; a connection the
//! API answers `410 Gone` is deleted with its subscriptions; the moves go to EventBridge as
//! `PutEvents` entries (source `wordgame`, detail-type `Move made`).

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use crate::common::{App, Player};
use api::aws_push::AwsPush;
use aws_credential_types::Credentials;
use aws_credential_types::provider::SharedCredentialsProvider;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use service::{MoveEvent, Notifier};

/// A request the stand-in received: path, headers, body.
type Seen = (String, Vec<(String, String)>, String);

/// Serves on a free port: `410` for a connection whose id contains "gone", else `200`.
async fn stand_in() -> (u16, Arc<Mutex<Vec<Seen>>>) {
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
                        let status = if path.contains("gone") { 410 } else { 200 };
                        record.lock().unwrap().push((path, headers, body));
                        Ok::<_, Infallible>(hyper::Response::builder().status(status).body(Full::new(Bytes::from_static(b"{}"))).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
            });
        }
    });
    (port, seen)
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
    let events = [MoveEvent { game_id: id, move_no: 0, to_move: Some(1), status: service::GameStatus::Active }];
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
async fn a_websocket_reply_is_posted_to_its_connection_and_a_gone_one_forgotten() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let id: uuid::Uuid = game["game_id"].as_str().unwrap().parse().unwrap();
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
