//! The WebSocket function on a real database, fed API Gateway WebSocket events as AWS sends
//! them (`$connect` with the `$connect` authoriser's context, `$default` messages, text and
//! binary, `$disconnect`): the connection is recorded, subscriptions answered as the
//! connection's account (an unknown frame and someone else's game with typed errors that change
//! nothing, the connection still usable), and the connection forgotten; a `$connect` without a
//! verified identity is refused.

use crate::common::{App, Player};
use api::websocket::{WsOutcome, handle_websocket};
use lambda_http::aws_lambda_events::apigw::ApiGatewayWebsocketProxyRequest;
use serde_json::{Value, json};

pub(crate) const CONNECTION: &str = "L0SM9cOFvHcCIhw=";

/// An event of `route` (`$connect`, `$default`, `$disconnect`) on [`CONNECTION`], with the
/// authoriser's context for `who` (none for `None`) and a message `body`.
pub(crate) fn event(route: &str, who: Option<Player>, body: Option<&str>, base64: bool) -> ApiGatewayWebsocketProxyRequest {
    let event_type = match route {
        "$connect" => "CONNECT",
        "$disconnect" => "DISCONNECT",
        _ => "MESSAGE",
    };
    let mut context = json!({
        "routeKey": route,
        "eventType": event_type,
        "extendedRequestId": "Oq9GSGpNoAMFh3w=",
        "requestTime": "01/Dec/2026:11:30:05 +0000",
        "messageDirection": "IN",
        "stage": "live",
        "connectedAt": 1_796_125_805_000_i64,
        "requestTimeEpoch": 1_796_125_805_123_i64,
        "identity": {"sourceIp": "203.0.113.9", "userAgent": "Mozilla/5.0"},
        "requestId": "Oq9GSGpNoAMFh3w=",
        "domainName": "abc123.execute-api.eu-west-1.amazonaws.com",
        "connectionId": CONNECTION,
        "apiId": "abc123"
    });
    if let Some(p) = who {
        context["authorizer"] = json!({"principalId": p.0, "sub": p.0, "name": "Player", "integrationLatency": 41});
    }
    if event_type == "MESSAGE" {
        context["messageId"] = json!("Oq9GTcx2DoEFtSw=");
    }
    if event_type == "DISCONNECT" {
        context["disconnectStatusCode"] = json!(1001);
        context["disconnectReason"] = json!("Going away");
    }
    let mut e = json!({"requestContext": context, "isBase64Encoded": base64});
    if event_type == "CONNECT" {
        e["headers"] = json!({"Host": "abc123.execute-api.eu-west-1.amazonaws.com", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="});
        e["multiValueHeaders"] = json!({"Host": ["abc123.execute-api.eu-west-1.amazonaws.com"]});
        e["queryStringParameters"] = json!({"token": "checked-by-the-authoriser"});
        e["multiValueQueryStringParameters"] = json!({"token": ["checked-by-the-authoriser"]});
    }
    if let Some(b) = body {
        e["body"] = Value::String(b.to_string());
    }
    serde_json::from_value(e).expect("an API Gateway WebSocket event")
}

fn reply(outcome: &WsOutcome) -> Value {
    assert_eq!(outcome.status, 200);
    serde_json::from_str(outcome.reply.as_deref().expect("a reply")).unwrap()
}

#[tokio::test]
async fn a_connection_subscribes_gets_typed_errors_and_is_forgotten() {
    let app = App::new().await;
    let (ann, bob, eve) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let theirs = app.create(eve, "noi-tu", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    // Eve lets nobody watch her games: to bob, hers does not exist.
    assert_eq!(app.call(Some(eve), "PUT", "/me/settings", r#"{"spectating":"never"}"#).await.0, 200);
    let state = &app.state;
    let id_uuid: uuid::Uuid = id.parse().unwrap();

    // No identity from the authoriser: refused, nothing recorded.
    let before = app.everything().await;
    assert_eq!(handle_websocket(state, &event("$connect", None, None, false)).await, WsOutcome { status: 401, reply: None });
    let subscribe = json!({"action": "subscribe", "game_id": id}).to_string();
    assert_eq!(handle_websocket(state, &event("$default", None, Some(&subscribe), false)).await, WsOutcome { status: 401, reply: None });
    assert_eq!(app.everything().await, before);

    assert_eq!(handle_websocket(state, &event("$connect", Some(bob), None, false)).await, WsOutcome { status: 200, reply: None });
    // Over the cap: refused unread, even a valid subscription padded with spaces.
    let padded = format!("{subscribe}{}", " ".repeat(service::MAX_PUSH_MESSAGE));
    let bad = [
        (&padded[..], "message_too_large"),
        ("{\"action\":\"shout\"}", "unknown_message"),
        ("not json", "unknown_message"),
        (&json!({"action": "subscribe", "game_id": theirs}).to_string()[..], "not_found"),
    ];
    for (frame, code) in bad {
        let answer = reply(&handle_websocket(state, &event("$default", Some(bob), Some(frame), false)).await);
        assert_eq!((answer["type"].as_str(), answer["code"].as_str()), (Some("error"), Some(code)), "{frame}: {answer}");
        assert!(state.service.subscribers(theirs.parse().unwrap()).await.unwrap().is_empty());
    }
    // Still usable: a binary frame (base64) subscribing to bob's game.
    use base64::Engine;
    let binary = base64::engine::general_purpose::STANDARD.encode(&subscribe);
    let answer = reply(&handle_websocket(state, &event("$default", Some(bob), Some(&binary), true)).await);
    assert_eq!(answer, json!({"type": "subscribed", "game_id": id}));
    assert_eq!(state.service.subscribers(id_uuid).await.unwrap(), [CONNECTION]);
    let unsubscribe = json!({"action": "unsubscribe", "game_id": id}).to_string();
    let answer = reply(&handle_websocket(state, &event("$default", None, Some(&unsubscribe), false)).await);
    assert_eq!(answer, json!({"type": "unsubscribed", "game_id": id}), "a message acts as the connection's account, context or not");
    assert!(state.service.subscribers(id_uuid).await.unwrap().is_empty());
    assert_eq!(reply(&handle_websocket(state, &event("$default", Some(bob), Some(&subscribe), false)).await)["type"], "subscribed");
    // A context naming someone else changes nothing: the connection is bob's.
    let as_eve = json!({"action": "subscribe", "game_id": theirs}).to_string();
    let answer = reply(&handle_websocket(state, &event("$default", Some(eve), Some(&as_eve), false)).await);
    assert_eq!(answer["code"], "not_found", "{answer}");

    // $disconnect forgets the connection and its subscriptions; a subscription on it is refused.
    assert_eq!(handle_websocket(state, &event("$disconnect", Some(bob), None, false)).await, WsOutcome { status: 200, reply: None });
    assert!(state.service.subscribers(id_uuid).await.unwrap().is_empty());
    let answer = reply(&handle_websocket(state, &event("$default", Some(bob), Some(&subscribe), false)).await);
    assert_eq!(answer["code"], "unknown_connection", "{answer}");
}

/// `$connect` of `who` on connection `id`.
fn connect(who: Player, id: &str) -> ApiGatewayWebsocketProxyRequest {
    let mut e = event("$connect", Some(who), None, false);
    e.request_context.connection_id = Some(id.to_string());
    e
}

async fn connections_of(app: &App, who: Player) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM push_connections WHERE account_id = $1").bind(who.0).fetch_one(app.pool()).await.unwrap()
}

#[tokio::test]
async fn an_account_holds_at_most_its_cap_of_live_connections() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let state = &app.state;
    let cap = service::MAX_CONNECTIONS as usize;
    assert_eq!(cap, 10, "docs/API.md names the cap");
    // Connects at once: the cap is counted under a lock on the account, so exactly `cap` win.
    let first = handle_websocket(state, &connect(ann, "ann-0")).await;
    assert_eq!(first.status, 200, "the account exists before the race");
    let mut racing = tokio::task::JoinSet::new();
    for n in 1..cap + 5 {
        let (app, event) = (app.clone(), connect(ann, &format!("ann-{n}")));
        racing.spawn(async move { handle_websocket(&app.state, &event).await.status });
    }
    let statuses: Vec<u16> = racing.join_all().await;
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), cap - 1, "{statuses:?}");
    assert!(statuses.iter().all(|&s| s == 200 || s == 409), "{statuses:?}");
    assert_eq!(connections_of(&app, ann).await, cap as i64);

    // The refusal is typed and writes nothing.
    let caller = service::Caller::new(ann.0, ["Ann"]).unwrap();
    let refused = state.service.connect(&caller, "ann-extra").await.unwrap_err();
    assert!(matches!(refused, service::ServiceError::TooManyConnections { limit: 10 }), "{refused:?}");
    let answer = api::ApiError::from(refused);
    assert_eq!((answer.status, answer.code, answer.details.clone()), (409, "too_many_connections", json!({"limit": 10})));
    assert_eq!(connections_of(&app, ann).await, cap as i64);

    // A held connection reconnects under its id; another account is not concerned.
    let held: String = sqlx::query_scalar("SELECT connection_id FROM push_connections WHERE account_id = $1 LIMIT 1")
        .bind(ann.0)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(handle_websocket(state, &connect(ann, &held)).await.status, 200);
    assert_eq!(handle_websocket(state, &connect(bob, "bob-0")).await.status, 200);

    // One closed: one more fits. All expired: they count no more, and go.
    let mut gone = connect(ann, &held);
    gone.request_context.route_key = Some("$disconnect".into());
    assert_eq!(handle_websocket(state, &gone).await.status, 200);
    assert_eq!(handle_websocket(state, &connect(ann, "ann-extra")).await.status, 200);
    assert_eq!(handle_websocket(state, &connect(ann, "ann-one-too-many")).await.status, 409);
    sqlx::query("UPDATE push_connections SET expires_at = now() - interval '1 second' WHERE account_id = $1")
        .bind(ann.0)
        .execute(app.pool())
        .await
        .unwrap();
    assert_eq!(handle_websocket(state, &connect(ann, "ann-fresh")).await.status, 200);
    assert_eq!(connections_of(&app, ann).await, 1, "the expired connections were deleted");
}
