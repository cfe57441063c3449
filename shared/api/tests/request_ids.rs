//! Every answer names its request (`x-request-id`), every error body too (`request_id`, the
//! same id), and the JSON log lines the request writes carry it with their time.

use crate::common::{App, Player};
use api::gateway::{Incoming, to_lambda};
use serde_json::Value;

/// `GET path` as `who` under request id `id`: status, the `x-request-id` header, the body
/// (every answer is also checked to carry `x-content-type-options: nosniff`).
async fn get(app: &App, who: Player, path: &str, id: &str) -> (u16, String, String) {
    let claims = std::collections::HashMap::from([("sub".to_string(), who.0.to_string())]);
    let incoming = Incoming { method: "GET", path, claims: Some(&claims), request_id: id, ..Incoming::default() };
    let (route, request) = to_lambda(&incoming).unwrap();
    let response = api::handle(&app.state, route, request).await;
    assert_eq!(response.headers().get("x-content-type-options").map(|v| v.as_bytes()), Some(&b"nosniff"[..]), "GET {path}");
    let header = response.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    (response.status().as_u16(), header, String::from_utf8_lossy(response.body().as_ref()).into_owned())
}

#[tokio::test]
async fn answers_and_error_bodies_name_their_request() {
    let app = App::new().await;
    let me = Player::new();
    let (status, header, _) = get(&app, me, "/games/open", "req-fine").await;
    assert_eq!((status, header.as_str()), (200, "req-fine"));
    // A text answer too: a tournament's `.t` export (here of none: a JSON 404).
    assert_eq!(get(&app, me, &format!("/tournaments/{}/export", uuid::Uuid::new_v4()), "req-export").await.0, 404);
    let (status, header, body) = get(&app, me, &format!("/games/{}", uuid::Uuid::new_v4()), "req-missing").await;
    assert_eq!((status, header.as_str()), (404, "req-missing"));
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["error"]["request_id"], "req-missing", "{body}");
    assert_eq!(body["error"]["code"], "not_found");
    // The gateway's own refusals (no route, a bad token) name a request too.
    let refused = api::ApiError::new(api::HttpCode::NoRoute, "none").response("req-gateway");
    assert_eq!(
        (&refused.headers()["x-request-id"], &refused.headers()["x-content-type-options"]),
        (&"req-gateway".parse().unwrap(), &"nosniff".parse().unwrap())
    );
    let body: Value = serde_json::from_str(&String::from_utf8_lossy(refused.body().as_ref())).unwrap();
    assert_eq!(body["error"]["request_id"], "req-gateway");
}

/// Not a test of its own: run by [`the_json_log_lines_of_a_request_carry_its_id_and_time`] in a
/// process of its own (the JSON subscriber is the process's), it serves a success and an error
/// under the service's JSON telemetry, printed to stdout.
#[tokio::test]
async fn log_two_requests() {
    if std::env::var_os("WORDGAME_LOG_REQUESTS").is_none() {
        return;
    }
    api::telemetry::init_json();
    let app = App::new().await;
    let me = Player::new();
    assert_eq!(get(&app, me, "/games/open", "req-fine").await.0, 200);
    assert_eq!(get(&app, me, &format!("/games/{}", uuid::Uuid::new_v4()), "req-missing").await.0, 404);
}

#[test]
fn the_json_log_lines_of_a_request_carry_its_id_and_time() {
    let (log, lines) = crate::common::json_lines_of("request_ids::log_two_requests", "WORDGAME_LOG_REQUESTS");
    for (id, status) in [("req-fine", 200), ("req-missing", 404)] {
        let handled = lines
            .iter()
            .find(|l| l["span"]["request_id"] == id && l["fields"]["message"] == "handled")
            .unwrap_or_else(|| panic!("no handled line of {id}: {log}"));
        assert_eq!(handled["fields"]["status"], status, "{handled}");
        assert!(handled["timestamp"].as_str().is_some_and(|t| t.len() >= 20), "{handled}");
        assert!(handled["span"].get("trace_id").is_some() && handled["span"].get("apigw_request_id").is_some(), "{handled}");
    }
}
