//! Push: after every commit that adds moves (a player's, the robots' replies, the sweep's), the
//! service hands one [`MoveEvent`] per move to its [`Notifier`], never inside the game's
//! transaction; after a commit that sends invitations, one [`InvitationEvent`] per invitee. The WebSocket protocol's client messages (subscribe, unsubscribe) are handled
//! here, transport-free: the local server and the AWS functions only carry the frames.

use std::future::Future;
use std::pin::Pin;

use chrono::Duration;
use serde::{Deserialize, Serialize};
use store::GameStatus;
use uuid::Uuid;

use crate::error::ErrorCode;
use crate::{Caller, Service, ServiceError};

/// How long a push connection lives without reconnecting (API Gateway closes a WebSocket after
/// two hours at most).
pub const CONNECTION_TTL: Duration = Duration::hours(2);

/// The most push connections one account may hold live at once (a player's phone, tablet and a
/// few browser tabs); one more is refused (`too_many_connections`) until one closes or expires.
pub const MAX_CONNECTIONS: u32 = 10;

/// The largest message a client may send on the push socket, in bytes: 4 KiB, some twenty
/// times a subscribe message. A larger one is refused unread (`message_too_large`); the local
/// gateway's socket closes with 1009 (message too big) instead.
pub const MAX_PUSH_MESSAGE: usize = 4096;

/// A committed move, as pushed to the subscribed players: `{"type": "move", "game_id",
/// "move_no", "to_move", "status"}` and, for a timed game, `"clock"`: every seat's time after the
/// commit, as of the server's `now` (the same in each event of one commit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEvent {
    /// The game.
    pub game_id: Uuid,
    /// The move's number.
    pub move_no: u32,
    /// The seat to move after it (null once over).
    pub to_move: Option<usize>,
    /// The game's state after it.
    pub status: GameStatus,
    /// The clock after the commit (absent for an untimed game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::clock::ClockView>,
    /// The move that ended a rated game: both ratings' change (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<crate::rating::RatingsView>,
}

/// An invitation sent, as pushed to the invitee's live connections (subscribed to nothing yet):
/// `{"type": "invitation", "game_id", "variant", "invited_by", "inviter_name"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvitationEvent {
    /// The game waiting for the invitee.
    pub game_id: Uuid,
    /// Its variant.
    pub variant: games::Variant,
    /// Who sent it.
    pub invited_by: Uuid,
    /// The sender's display name.
    pub inviter_name: String,
    /// The account invited (not in the frame: the frame goes to its connections only).
    #[serde(skip)]
    pub invitee: Uuid,
}

impl InvitationEvent {
    /// The text frame pushed to the invitee.
    pub fn frame(&self) -> String {
        serde_json::to_string(&Framed { r#type: "invitation", event: self }).expect("an invitation serializes")
    }
}

/// What a tournament tells one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentEventKind {
    /// "Your round N game is ready": the round started and this player's game was created.
    RoundReady,
    /// "Draw a tile": the game's draw waits for this player's tile (its first round, or a
    /// tie-break the player is in).
    DrawATile,
    /// The draw is over: the game has started, the leader at seat 0.
    DrawOver,
}

/// A tournament's news for one player, pushed to the player's live connections:
/// `{"type": "round_ready" | "draw_a_tile" | "draw_over", "tournament_id", "round", "game_id"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TournamentEvent {
    /// What happened.
    #[serde(skip)]
    pub kind: TournamentEventKind,
    /// The tournament.
    pub tournament_id: Uuid,
    /// The tournament's round.
    pub round: u32,
    /// The player's game in it.
    pub game_id: Uuid,
    /// The player told (not in the frame: the frame goes to its connections only).
    #[serde(skip)]
    pub account: Uuid,
}

impl TournamentEvent {
    /// The text frame pushed to the player.
    pub fn frame(&self) -> String {
        let kind = serde_json::to_value(self.kind).expect("a kind serializes");
        let mut frame = serde_json::to_value(self).expect("an event serializes");
        frame["type"] = kind;
        frame.to_string()
    }
}

/// A future a notifier returns.
pub type NotifyFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Where committed moves are announced: the subscribed WebSocket connections (locally, or via
/// API Gateway), an event bus. Called after the commit; a failure is the notifier's to log,
/// never the request's.
pub trait Notifier: Send + Sync {
    /// Announces `events`, the moves one commit added, in order.
    fn moved<'a>(&'a self, events: &'a [MoveEvent]) -> NotifyFuture<'a>;

    /// Tells each invitee of `invitations`, the invitations one commit sent, on its live
    /// connections.
    fn invited<'a>(&'a self, invitations: &'a [InvitationEvent]) -> NotifyFuture<'a>;

    /// Tells each player of `events`, a tournament's news of one commit, on its live
    /// connections.
    fn told<'a>(&'a self, events: &'a [TournamentEvent]) -> NotifyFuture<'a>;
}

/// Announces nothing (no push configured).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNotifier;

impl Notifier for NoNotifier {
    fn moved<'a>(&'a self, _: &'a [MoveEvent]) -> NotifyFuture<'a> {
        Box::pin(async {})
    }

    fn invited<'a>(&'a self, _: &'a [InvitationEvent]) -> NotifyFuture<'a> {
        Box::pin(async {})
    }

    fn told<'a>(&'a self, _: &'a [TournamentEvent]) -> NotifyFuture<'a> {
        Box::pin(async {})
    }
}

/// A message a client sends on its WebSocket.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Send me the moves of this game (one of mine).
    Subscribe {
        /// The game.
        game_id: Uuid,
    },
    /// Stop sending me this game's moves.
    Unsubscribe {
        /// The game.
        game_id: Uuid,
    },
}

/// The answer to a client message: `{"type": "subscribed" | "unsubscribed", "game_id"}` or
/// `{"type": "error", "code", "message"}`. The connection stays open either way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerReply {
    /// Subscribed.
    Subscribed {
        /// The game.
        game_id: Uuid,
    },
    /// Unsubscribed.
    Unsubscribed {
        /// The game.
        game_id: Uuid,
    },
    /// The message was refused; nothing changed.
    Error {
        /// `unknown_message`, `message_too_large`, `not_your_game`, `not_found`, `unavailable`, `internal`.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// The frame an event is pushed as: its type, then its fields.
#[derive(Serialize)]
struct Framed<'a, E> {
    r#type: &'static str,
    #[serde(flatten)]
    event: &'a E,
}

impl MoveEvent {
    /// The text frame pushed to a subscriber.
    pub fn frame(&self) -> String {
        serde_json::to_string(&Framed { r#type: "move", event: self }).expect("a move event serializes")
    }
}

impl Service {
    /// Records the caller's new push connection, alive for [`CONNECTION_TTL`], unless the
    /// caller already holds [`MAX_CONNECTIONS`] live ones.
    ///
    /// # Errors
    /// [`ServiceError::TooManyConnections`] at the cap; storage failures.
    pub async fn connect(&self, caller: &Caller, connection_id: &str) -> Result<(), ServiceError> {
        self.ensure_caller(caller).await?;
        let now = self.now();
        self.store.open_connection(connection_id, caller.account_id(), now + CONNECTION_TTL, now, MAX_CONNECTIONS).await?;
        Ok(())
    }

    /// Forgets a push connection (closed by the client, or gone).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn disconnect(&self, connection_id: &str) -> Result<(), ServiceError> {
        Ok(self.store.close_connection(connection_id).await?)
    }

    /// Handles one text frame from the caller's connection: a subscription to one of the
    /// caller's games, or its end. Anything else is a typed error reply that changes nothing.
    pub async fn push_message(&self, caller: &Caller, connection_id: &str, text: &str) -> ServerReply {
        let error = |e: ServiceError| {
            let code = e.code().map_or("internal", ErrorCode::as_str);
            ServerReply::Error { code, message: e.to_string() }
        };
        if text.len() > MAX_PUSH_MESSAGE {
            return ServerReply::Error {
                code: ErrorCode::MessageTooLarge.as_str(),
                message: format!("a message is at most {MAX_PUSH_MESSAGE} bytes, not {}", text.len()),
            };
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                return ServerReply::Error {
                    code: ErrorCode::UnknownMessage.as_str(),
                    message: format!("not a subscribe or unsubscribe message: {e}"),
                };
            }
        };
        match message {
            ClientMessage::Subscribe { game_id } => match self.subscribe(caller, connection_id, game_id).await {
                Ok(()) => ServerReply::Subscribed { game_id },
                Err(e) => error(e),
            },
            ClientMessage::Unsubscribe { game_id } => match self.store.unsubscribe(connection_id, game_id).await {
                Ok(()) => ServerReply::Unsubscribed { game_id },
                Err(e) => error(e.into()),
            },
        }
    }

    async fn subscribe(&self, caller: &Caller, connection_id: &str, game_id: Uuid) -> Result<(), ServiceError> {
        self.game_version(caller, game_id).await?;
        self.store.subscribe(connection_id, game_id).await.map_err(|e| match e {
            store::StoreError::NotFound => ServiceError::Invalid {
                reason: ErrorCode::UnknownConnection,
                message: "this connection is not open (or has expired); reconnect".into(),
            },
            other => other.into(),
        })
    }

    /// The account a live push connection was opened by (as authorised at its connect), if any.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn connection_owner(&self, connection_id: &str) -> Result<Option<Uuid>, ServiceError> {
        Ok(self.store.connection_account(connection_id, self.now()).await?)
    }

    /// The live connections to push `game_id`'s moves to.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn subscribers(&self, game_id: Uuid) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.subscribers(game_id, self.now()).await?)
    }

    /// Announces the moves of one commit, after it.
    pub(crate) async fn announce(&self, events: &[MoveEvent]) {
        if !events.is_empty() {
            self.notifier.moved(events).await;
        }
    }

    /// Tells the invitees of `view`'s game (as its inviter saw it, committed) of their
    /// invitation.
    pub(crate) async fn announce_invitations(&self, view: &crate::GameView) {
        let Some(inviter) = view.invited_by else { return };
        let name = view.seats.iter().find(|s| s.account_id == Some(inviter)).and_then(|s| s.display_name.clone()).unwrap_or_default();
        let invitations: Vec<InvitationEvent> = view
            .seats
            .iter()
            .filter(|s| s.invited)
            .filter_map(|s| s.account_id)
            .map(|invitee| InvitationEvent {
                game_id: view.game_id,
                variant: view.variant,
                invited_by: inviter,
                inviter_name: name.clone(),
                invitee,
            })
            .collect();
        if !invitations.is_empty() {
            self.notifier.invited(&invitations).await;
        }
    }

    /// The live connections of `account_id`, to tell it of an invitation.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn connections_of(&self, account_id: Uuid) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.connections_of(account_id, self.now()).await?)
    }
}
