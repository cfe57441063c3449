//! The WebSocket API in AWS (function `ws`): one function behind its three routes, told apart by
//! the event's `routeKey`. `$connect` (already authorised by the `$connect` authoriser, whose
//! context carries the caller's identity claims) records the connection with its account,
//! `$default` answers a client's subscribe or unsubscribe frame as that account, `$disconnect`
//! forgets the connection; the same service calls `wordgame serve`'s `/ws` makes. A `$default`
//! reply goes back to the connection through the management API ([`AwsPush::post_to_connection`]).

use base64::Engine;
use lambda_http::aws_lambda_events::apigw::ApiGatewayWebsocketProxyRequest;
use std::collections::HashMap;

use crate::aws_push::AwsPush;
use crate::{ApiError, AppState, HttpCode, auth};

/// What one WebSocket event comes to: the status API Gateway gets (on `$connect`, anything but
/// 2xx refuses the connection), and the reply frame to post to the connection, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WsOutcome {
    /// The integration's status.
    pub status: u16,
    /// The frame to send back on the connection (a `$default` message's answer).
    pub reply: Option<String>,
}

impl WsOutcome {
    fn status(status: u16) -> WsOutcome {
        WsOutcome { status, reply: None }
    }

    fn refused(e: &ApiError) -> WsOutcome {
        tracing::info!(status = e.status, code = e.code, message = %e.message, "websocket event refused");
        WsOutcome::status(e.status)
    }
}

/// The identity claims the `$connect` authoriser put in the connection's context.
fn claims(event: &ApiGatewayWebsocketProxyRequest) -> HashMap<String, String> {
    let fields = &event.request_context.authorizer.fields;
    fields.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect()
}

/// Handles one WebSocket event by its route: `$connect`, `$disconnect`, or a message (`$default`).
pub async fn handle_websocket(state: &AppState, event: &ApiGatewayWebsocketProxyRequest) -> WsOutcome {
    let context = &event.request_context;
    let Some(connection_id) = context.connection_id.as_deref().filter(|c| !c.is_empty()) else {
        return WsOutcome::refused(&ApiError::new(HttpCode::BadRequest, "not a WebSocket event: no connection id"));
    };
    let route = context.route_key.as_deref().unwrap_or("$default");
    if route == "$disconnect" {
        return match state.service.disconnect(connection_id).await {
            Ok(()) => WsOutcome::status(200),
            Err(e) => WsOutcome::refused(&ApiError::from(e)),
        };
    }
    let claims = claims(event);
    if route == "$connect" {
        let caller = match auth::caller_of(&claims) {
            Ok(caller) => caller,
            Err(e) => return WsOutcome::refused(&e),
        };
        return match state.service.connect(&caller, connection_id).await {
            Ok(()) => WsOutcome::status(200),
            Err(e) => WsOutcome::refused(&ApiError::from(e)),
        };
    }
    // A message acts as the account the connection was opened by (authorised at `$connect`),
    // whether or not the authoriser's context comes along; a connection not (or no longer)
    // recorded falls back to the context, and the service answers it `unknown_connection`.
    let caller = match state.service.connection_owner(connection_id).await {
        Ok(Some(account)) => service::Caller::new(account, auth::name_claims(&claims)).map_err(ApiError::from),
        Ok(None) => auth::caller_of(&claims),
        Err(e) => Err(ApiError::from(e)),
    };
    let caller = match caller {
        Ok(caller) => caller,
        Err(e) => return WsOutcome::refused(&e),
    };
    let body = event.body.as_deref().unwrap_or_default();
    let text = if event.is_base64_encoded {
        let bytes = base64::engine::general_purpose::STANDARD.decode(body).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        body.to_string()
    };
    let reply = state.service.push_message(&caller, connection_id, &text).await;
    WsOutcome { status: 200, reply: Some(serde_json::to_string(&reply).expect("a reply serializes")) }
}

/// Posts `reply` to connection `id` (a failure is logged: the client may have gone).
pub async fn reply_to(push: &AwsPush, id: &str, reply: &str) {
    match push.post_to_connection(id, reply).await {
        Ok(s) if (200..300).contains(&s) => {}
        Ok(s) => tracing::warn!(connection_id = %id, status = s, "websocket: the management API refused the reply"),
        Err(e) => tracing::warn!(connection_id = %id, error = %e, "websocket: cannot post the reply"),
    }
}
