//! Push in AWS: after every commit, each move's frame is posted to the subscribed connections
//! through API Gateway's management API (`POST {endpoint}/@connections/{id}`; a `410 Gone`
//! connection is deleted with its subscriptions), and the moves are published to EventBridge
//! (`PutEvents`, source `wordgame`, detail-type `Move made`) for mobile push later; an
//! invitation's frame goes to the invitee's connections and is published as `Invitation sent`.
//! All at once,
//! within one budget for them all ([`PUSH_BUDGET`]). An entry EventBridge refuses
//! inside an answered `PutEvents` (`FailedEntryCount`) is logged, one error line each. Requests
//! are signed with SigV4 ([`crate::iam::signed_headers`]) and sent by [`crate::https`].

use std::time::SystemTime;

use aws_credential_types::Credentials;
use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};
use futures_util::future::{join, join_all};
use http_body_util::Full;
use hyper::body::Bytes;
use serde_json::json;
use service::{InvitationEvent, MoveEvent, Notifier, NotifyFuture, TournamentEvent};
use store::Store;

use crate::iam::signed_headers;
use crate::push::{invitee_connections, subscribers};

/// The EventBridge event source of committed moves.
pub const EVENT_SOURCE: &str = "wordgame";
/// The EventBridge detail-type of a committed move.
pub const EVENT_DETAIL_TYPE: &str = "Move made";
/// The EventBridge detail-type of an invitation sent (the detail names the invitee).
pub const INVITATION_DETAIL_TYPE: &str = "Invitation sent";

/// One EventBridge entry to publish: what it is about, its detail-type and its detail (JSON).
struct Published {
    game_id: uuid::Uuid,
    move_no: Option<u32>,
    detail_type: &'static str,
    detail: String,
}

/// Where and how to push.
#[derive(Clone)]
pub struct AwsPush {
    store: Store,
    credentials: SharedCredentialsProvider,
    region: String,
    /// The WebSocket API stage's management endpoint, `https://{api}.execute-api.{region}.amazonaws.com/{stage}`.
    connections_endpoint: Option<String>,
    /// The EventBridge endpoint and bus, if moves are published.
    events: Option<(String, String)>,
}

impl std::fmt::Debug for AwsPush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AwsPush").field("connections_endpoint", &self.connections_endpoint).field("events", &self.events).finish()
    }
}

impl AwsPush {
    /// Pushes to `connections_endpoint` and publishes to `events` (endpoint, bus name), signing
    /// with `credentials` for `region`.
    pub fn new(
        store: Store,
        credentials: SharedCredentialsProvider,
        region: &str,
        connections_endpoint: Option<&str>,
        events: Option<(String, String)>,
    ) -> AwsPush {
        AwsPush {
            store,
            credentials,
            region: region.to_string(),
            connections_endpoint: connections_endpoint.map(|e| e.trim_end_matches('/').to_string()),
            events,
        }
    }

    /// Posts every move to its subscribers and publishes the moves, all concurrently.
    async fn push(&self, events: &[MoveEvent]) {
        let credentials = match self.credentials.provide_credentials().await {
            Ok(c) => c,
            Err(e) => return tracing::error!(error = %e, "push: no AWS credentials"),
        };
        let posts = events
            .iter()
            .filter(|_| self.connections_endpoint.is_some())
            .map(|event| async { self.post_all(&credentials, &subscribers(&self.store, event).await, &event.frame()).await });
        let published: Vec<Published> = events
            .iter()
            .map(|e| Published {
                game_id: e.game_id,
                move_no: Some(e.move_no),
                detail_type: EVENT_DETAIL_TYPE,
                detail: serde_json::to_string(e).expect("a move event serializes"),
            })
            .collect();
        join(join_all(posts), self.publish_all(&credentials, &published)).await;
    }

    /// Posts every invitation to the invitee's connections and publishes them, all concurrently.
    async fn tell(&self, invitations: &[InvitationEvent]) {
        let credentials = match self.credentials.provide_credentials().await {
            Ok(c) => c,
            Err(e) => return tracing::error!(error = %e, "push: no AWS credentials"),
        };
        let posts = invitations.iter().filter(|_| self.connections_endpoint.is_some()).map(|invitation| async {
            self.post_all(&credentials, &invitee_connections(&self.store, invitation).await, &invitation.frame()).await
        });
        let published: Vec<Published> = invitations
            .iter()
            .map(|i| Published {
                game_id: i.game_id,
                move_no: None,
                detail_type: INVITATION_DETAIL_TYPE,
                detail: serde_json::json!({"game_id": i.game_id, "variant": i.variant, "invited_by": i.invited_by,
                                           "inviter_name": i.inviter_name, "invitee": i.invitee})
                .to_string(),
            })
            .collect();
        join(join_all(posts), self.publish_all(&credentials, &published)).await;
    }

    async fn tell_players(&self, events: &[TournamentEvent]) {
        let credentials = match self.credentials.provide_credentials().await {
            Ok(c) => c,
            Err(e) => return tracing::error!(error = %e, "push: no AWS credentials"),
        };
        let posts = events.iter().filter(|_| self.connections_endpoint.is_some()).map(|event| async {
            self.post_all(&credentials, &crate::push::player_connections(&self.store, event.account).await, &event.frame()).await
        });
        join_all(posts).await;
    }

    /// Publishes `published` to the bus, if one is configured, ten entries a call
    /// (`PutEvents`' limit), the calls concurrently.
    async fn publish_all(&self, credentials: &Credentials, published: &[Published]) {
        if let Some((endpoint, bus)) = &self.events {
            join_all(published.chunks(10).map(|chunk| self.publish(credentials, endpoint, bus, chunk))).await;
        }
    }

    /// Posts `frame` to each connection of `ids`, concurrently.
    async fn post_all(&self, credentials: &Credentials, ids: &[String], frame: &str) {
        join_all(ids.iter().map(|id| async move {
            match self.post_with(credentials, id, frame).await {
                Ok(s) if (200..300).contains(&s) || s == 410 => {}
                Ok(s) => tracing::warn!(connection_id = %id, status = s, "push: the management API refused a post"),
                Err(e) => tracing::warn!(connection_id = %id, error = %e, "push: cannot post to a connection"),
            }
        }))
        .await;
    }

    /// Publishes `chunk` (at most 10 entries, `PutEvents`' limit) to `bus`; each entry refused
    /// in an answered call is logged ([`log_refused_entries`]).
    async fn publish(&self, credentials: &Credentials, endpoint: &str, bus: &str, chunk: &[Published]) {
        let entries: Vec<_> = chunk
            .iter()
            .map(|e| json!({"Source": EVENT_SOURCE, "DetailType": e.detail_type, "EventBusName": bus, "Detail": e.detail}))
            .collect();
        let body = json!({ "Entries": entries }).to_string();
        let headers = [("content-type", "application/x-amz-json-1.1"), ("x-amz-target", "AWSEvents.PutEvents")];
        match self.post(credentials, "events", endpoint, &headers, body.as_bytes()).await {
            Ok(a) if (200..300).contains(&a.status) => log_refused_entries(chunk, &a.body),
            Ok(a) => tracing::warn!(status = a.status, "push: EventBridge refused PutEvents"),
            Err(e) => tracing::warn!(error = %e, "push: cannot publish to EventBridge"),
        }
    }

    /// Posts the text frame `text` to connection `id` through the management API; the status. A
    /// `410 Gone` connection is forgotten with its subscriptions.
    ///
    /// # Errors
    /// No management endpoint configured, no credentials, or the request failed.
    pub async fn post_to_connection(&self, id: &str, text: &str) -> Result<u16, String> {
        let credentials = self.credentials.provide_credentials().await.map_err(|e| format!("no AWS credentials: {e}"))?;
        self.post_with(&credentials, id, text).await
    }

    async fn post_with(&self, credentials: &Credentials, id: &str, text: &str) -> Result<u16, String> {
        let endpoint = self.connections_endpoint.as_deref().ok_or("no PUSH_CONNECTIONS_ENDPOINT")?;
        let url = format!("{endpoint}/@connections/{}", percent_encode(id));
        let status = self.post(credentials, "execute-api", &url, &[], text.as_bytes()).await?.status;
        if status == 410
            && let Err(e) = self.store.close_connection(id).await
        {
            tracing::warn!(connection_id = %id, error = %e, "push: cannot forget a gone connection");
        }
        Ok(status)
    }

    /// Posts `body` to `url`, signed for `service`; the answer.
    async fn post(
        &self,
        credentials: &Credentials,
        service: &str,
        url: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<crate::https::Answer, String> {
        let uri: hyper::Uri = url.parse().map_err(|e| format!("{url}: {e}"))?;
        let host = uri.authority().ok_or_else(|| format!("{url}: no host"))?.to_string();
        let mut all: Vec<(&str, &str)> = vec![("host", host.as_str())];
        all.extend_from_slice(headers);
        let signed =
            signed_headers(credentials, &self.region, service, ("POST", url), &all, body, SystemTime::now()).map_err(|e| e.to_string())?;
        let mut request = hyper::Request::builder().method("POST").uri(uri.path_and_query().map_or("/", |p| p.as_str()));
        for (k, v) in all.iter().map(|(k, v)| (k.to_string(), v.to_string())).chain(signed) {
            request = request.header(k, v);
        }
        let request = request.body(Full::new(Bytes::copy_from_slice(body))).map_err(|e| e.to_string())?;
        crate::https::send(&uri, request, PUSH_TIMEOUT).await
    }
}

/// Logs, at error level and one line each, the entries of `chunk` that EventBridge refused in
/// its answer `body` to an accepted `PutEvents` (`FailedEntryCount`, and each refused entry's
/// `ErrorCode` and `ErrorMessage`, in the order sent); the lines carry `failed_entries`, the
/// call's count. The message is the one the `EventBridgeFailures` metric filter matches.
fn log_refused_entries(chunk: &[Published], body: &str) {
    let answer: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let failed = answer["FailedEntryCount"].as_u64().unwrap_or(0);
    if failed == 0 {
        return;
    }
    let entries = answer["Entries"].as_array().map(Vec::as_slice).unwrap_or_default();
    let refused: Vec<_> = chunk.iter().zip(entries).filter(|(_, entry)| entry.get("ErrorCode").is_some()).collect();
    if refused.is_empty() {
        // A count without the entries that say which: still one line per refused entry.
        for _ in 0..failed.min(chunk.len() as u64) {
            tracing::error!(failed_entries = failed, "push: EventBridge refused an entry");
        }
    }
    for (event, entry) in refused {
        tracing::error!(
            game_id = %event.game_id,
            move_no = event.move_no,
            detail_type = event.detail_type,
            error_code = entry["ErrorCode"].as_str().unwrap_or_default(),
            error_message = entry["ErrorMessage"].as_str().unwrap_or_default(),
            failed_entries = failed,
            "push: EventBridge refused an entry"
        );
    }
}

/// How long one push request may take.
pub const PUSH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// How long the posts and publishes of one commit may take in all: the answer to the move waits
/// for them, so they end well inside the request budget whatever the endpoints do; what is not
/// done by then is dropped and logged (`push: cut off at its budget`).
pub const PUSH_BUDGET: std::time::Duration = std::time::Duration::from_secs(1);

/// A connection id as a path segment (API Gateway's ids are base64: `=`, `+`, `/` escaped).
fn percent_encode(id: &str) -> String {
    id.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

impl Notifier for AwsPush {
    fn moved<'a>(&'a self, events: &'a [MoveEvent]) -> NotifyFuture<'a> {
        Box::pin(within_budget(events.len(), self.push(events)))
    }

    fn invited<'a>(&'a self, invitations: &'a [InvitationEvent]) -> NotifyFuture<'a> {
        Box::pin(within_budget(invitations.len(), self.tell(invitations)))
    }

    fn told<'a>(&'a self, events: &'a [TournamentEvent]) -> NotifyFuture<'a> {
        Box::pin(within_budget(events.len(), self.tell_players(events)))
    }
}

/// Runs `pushing` (the posts and publishes of `events` events) for at most [`PUSH_BUDGET`].
async fn within_budget(events: usize, pushing: impl Future<Output = ()>) {
    if tokio::time::timeout(PUSH_BUDGET, pushing).await.is_err() {
        tracing::warn!(events, budget_ms = PUSH_BUDGET.as_millis() as u64, "push: cut off at its budget");
    }
}
