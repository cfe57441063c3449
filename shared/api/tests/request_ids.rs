//! Every answer names its request (`x-request-id`), every error body too (`request_id`, the
//! same id), and the JSON log lines the request writes carry it with their time.

use std::sync::{Arc, Mutex};

use crate::common::{App, Player};
use api::gateway::{Incoming, to_lambda};
use serde_json::Value;

/// A log sink shared with the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `GET path` as `who` under request id `id`: status, the `x-request-id` header, the body.
async fn get(app: &App, who: Player, path: &str, id: &str) -> (u16, String, String) {
    let claims = std::collections::HashMap::from([("sub".to_string(), who.0.to_string())]);
    let incoming = Incoming { method: "GET", path, claims: Some(&claims), request_id: id, ..Incoming::default() };
    let (route, request) = to_lambda(&incoming).unwrap();
    let response = api::handle(&app.state, route, request).await;
    let header = response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    (response.status().as_u16(), header, String::from_utf8_lossy(response.body().as_ref()).into_owned())
}

#[tokio::test]
async fn answers_errors_and_log_lines_name_their_request() {
    let app = App::new().await;
    let me = Player::new();
    let sink = Sink::default();
    let writer = sink.clone();
    let _logging = tracing::subscriber::set_default(api::telemetry::json_subscriber(move || writer.clone()));

    let (status, header, _) = get(&app, me, "/games/open", "req-fine").await;
    assert_eq!((status, header.as_str()), (200, "req-fine"));
    let (status, header, body) = get(&app, me, &format!("/games/{}", uuid::Uuid::new_v4()), "req-missing").await;
    assert_eq!((status, header.as_str()), (404, "req-missing"));
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["error"]["request_id"], "req-missing", "{body}");
    assert_eq!(body["error"]["code"], "not_found");

    // The gateway's own refusals (no route) name a request too.
    let refused = api::ApiError::new(api::HttpCode::NoRoute, "none").response("req-gateway");
    assert_eq!(refused.headers()["x-request-id"], "req-gateway");

    let log = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for id in ["req-fine", "req-missing"] {
        let handled = lines
            .iter()
            .find(|l| l["span"]["request_id"] == id && l["fields"]["message"] == "handled")
            .unwrap_or_else(|| panic!("no handled line of {id}: {log}"));
        assert!(handled["timestamp"].as_str().is_some_and(|t| t.len() >= 20), "{handled}");
        assert!(handled["span"].get("trace_id").is_some(), "{handled}");
    }
}
