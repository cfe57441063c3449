//! Push to WebSocket connections held by this process (`wordgame serve`'s `/ws`): each open
//! socket registers a channel under its connection id; after every commit the notifier sends
//! each move's frame to the subscribed connections (and an invitation's to the invitee's
//! connections), and forgets a connection whose socket is gone (as a 410 from API Gateway's
//! management API does in AWS).

use std::collections::HashMap;
use std::sync::Mutex;

use service::{InvitationEvent, MoveEvent, Notifier, NotifyFuture, TournamentEvent};
use store::Store;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// The sockets of this process, by connection id.
#[derive(Debug)]
pub struct LocalHub {
    store: Store,
    sockets: Mutex<HashMap<String, UnboundedSender<String>>>,
}

impl LocalHub {
    /// A hub reading subscriptions from `store`.
    pub fn new(store: Store) -> LocalHub {
        LocalHub { store, sockets: Mutex::new(HashMap::new()) }
    }

    /// Registers a socket: the frames pushed to `connection_id` arrive on the receiver.
    pub fn register(&self, connection_id: &str) -> UnboundedReceiver<String> {
        let (tx, rx) = unbounded_channel();
        self.lock().insert(connection_id.to_string(), tx);
        rx
    }

    /// Forgets a socket.
    pub fn unregister(&self, connection_id: &str) {
        self.lock().remove(connection_id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, UnboundedSender<String>>> {
        self.sockets.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn push(&self, events: &[MoveEvent]) {
        // With no socket open in this process there is nobody to send to: the subscriptions are
        // not read (a connection left over from an earlier process is forgotten on a later push,
        // or by the sweep once it expires).
        if self.lock().is_empty() {
            return;
        }
        for event in events {
            let frame = event.frame();
            for id in subscribers(&self.store, event).await {
                self.send(&id, &frame).await;
            }
        }
    }

    async fn tell(&self, invitations: &[InvitationEvent]) {
        if self.lock().is_empty() {
            return;
        }
        for invitation in invitations {
            let frame = invitation.frame();
            for id in invitee_connections(&self.store, invitation).await {
                self.send(&id, &frame).await;
            }
        }
    }

    async fn tell_players(&self, events: &[TournamentEvent]) {
        if self.lock().is_empty() {
            return;
        }
        for event in events {
            let frame = event.frame();
            for id in player_connections(&self.store, event.account).await {
                self.send(&id, &frame).await;
            }
        }
    }

    /// Sends `frame` to connection `id`, forgetting the connection if its socket is gone.
    async fn send(&self, id: &str, frame: &str) {
        let sent = self.lock().get(id).is_some_and(|socket| socket.send(frame.to_string()).is_ok());
        if !sent {
            // The socket is gone: forget the connection and its subscriptions.
            self.unregister(id);
            if let Err(e) = self.store.close_connection(id).await {
                tracing::warn!(connection_id = %id, error = %e, "push: cannot forget a gone connection");
            }
        }
    }
}

/// The live connections subscribed to the event's game (none, logged, if they cannot be read:
/// a push never fails the move it announces).
pub(crate) async fn subscribers(store: &Store, event: &MoveEvent) -> Vec<String> {
    store.subscribers(event.game_id, chrono::Utc::now()).await.unwrap_or_else(|e| {
        tracing::error!(game_id = %event.game_id, error = %e, "push: cannot read the subscribers");
        Vec::new()
    })
}

/// The live connections of the invitee (none, logged, if they cannot be read).
pub(crate) async fn invitee_connections(store: &Store, invitation: &InvitationEvent) -> Vec<String> {
    store.connections_of(invitation.invitee, chrono::Utc::now()).await.unwrap_or_else(|e| {
        tracing::error!(game_id = %invitation.game_id, error = %e, "push: cannot read the invitee's connections");
        Vec::new()
    })
}

/// The live connections of a player (none, logged, if they cannot be read).
pub(crate) async fn player_connections(store: &Store, account: uuid::Uuid) -> Vec<String> {
    store.connections_of(account, chrono::Utc::now()).await.unwrap_or_else(|e| {
        tracing::error!(account = %account, error = %e, "push: cannot read the player's connections");
        Vec::new()
    })
}

impl Notifier for LocalHub {
    fn moved<'a>(&'a self, events: &'a [MoveEvent]) -> NotifyFuture<'a> {
        Box::pin(self.push(events))
    }

    fn invited<'a>(&'a self, invitations: &'a [InvitationEvent]) -> NotifyFuture<'a> {
        Box::pin(self.tell(invitations))
    }

    fn told<'a>(&'a self, events: &'a [TournamentEvent]) -> NotifyFuture<'a> {
        Box::pin(self.tell_players(events))
    }
}
