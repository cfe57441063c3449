//! What a reconnecting client needs: the journal as the caller's seat may see it, from any
//! move on, and a cheap check of whether the game changed since it last looked.

use games::{EntryView, Position, Viewer};
use serde::Serialize;
use sha2::{Digest, Sha256};
use store::{GameStamp, GameStatus, SeatStamp};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::{Caller, GameView, Service, ServiceError};

/// The journal from some move on, as one seat may see it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MovesPage {
    /// The game.
    pub game_id: Uuid,
    /// Its state.
    pub status: GameStatus,
    /// Moves so far (the next `after` to ask with).
    pub move_count: u32,
    /// The moves numbered `after` and later, in order, as the caller may see them (another
    /// seat's exchanged tiles only as a count).
    pub moves: Vec<EntryView>,
}

/// What a game's view shows that can change: its `ETag`. Moves change the move count (and a
/// timeout is a move); joins, withdrawals and ends change the status; an invitee accepting, a
/// seat filling or a player renaming changes the seats; a new turn changes the deadline; a
/// hint taken changes the reader's hints left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameVersion(pub GameStamp);

impl GameVersion {
    /// The version of what `view` shows.
    pub fn of_view(view: &GameView) -> Self {
        let seats = view
            .seats
            .iter()
            .map(|s| SeatStamp { account_id: s.account_id, display_name: s.display_name.clone(), invited: s.invited })
            .collect();
        let drawn = if view.status == GameStatus::Drawing { view.draw.len() as u32 } else { 0 };
        let hints_used = view.hints_allowed.zip(view.hints_left).map_or(0, |(allowed, left)| allowed.saturating_sub(left));
        GameVersion(GameStamp {
            move_count: view.move_count,
            status: view.status,
            turn_deadline: view.turn_deadline,
            seats,
            drawn,
            hints_used,
        })
    }

    /// The entity tag, quoted: the move count and the status, readable, then the first 8 bytes
    /// (16 hex digits) of a SHA-256 over the deadline (in milliseconds), the seats, a draw by
    /// hand's picks and the hints the reader took, say
    /// `"12-active-3f9a0c1e5b7d2a46"`.
    pub fn etag(&self) -> String {
        let stamp = &self.0;
        let mut hash = Sha256::new();
        hash.update(stamp.turn_deadline.map_or(-1, |d| d.timestamp_millis()).to_be_bytes());
        for seat in &stamp.seats {
            // Length-prefixed fields, so no two different seat lists hash the same input.
            hash.update(seat.account_id.map_or([0; 16], |a| *a.as_bytes()));
            let name = seat.display_name.as_deref().unwrap_or("");
            hash.update((name.len() as u64).to_be_bytes());
            hash.update(name.as_bytes());
            hash.update([u8::from(seat.account_id.is_some()), u8::from(seat.invited)]);
        }
        // A draw by hand's picks (hashed only then: every other game's tag is as before).
        if stamp.drawn > 0 {
            hash.update(stamp.drawn.to_be_bytes());
        }
        // The hints the reader's seat took (hashed only then, likewise): a hint changes the
        // reader's `hints_left` without a move.
        if stamp.hints_used > 0 {
            hash.update([b'h']);
            hash.update(stamp.hints_used.to_be_bytes());
        }
        let digest = hash.finalize();
        let short: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        format!("\"{}-{}-{short}\"", stamp.move_count, stamp.status)
    }
}

impl Service {
    /// The game's journal from move `after` on (0: all of it), each entry as the caller's seat
    /// may see it through its family's [`Position::entry_view`] (a spectator: as the public may,
    /// and a delayed tournament game only as far as its spectators see it). An `after` at or past the move count gives no moves.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`], also for a game the caller may not watch.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn moves(&self, caller: &Caller, game_id: Uuid, after: u32) -> Result<MovesPage, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let Ok(seat) = seat_of(&record, caller) else { return self.spectator_moves(&record, &game, after).await };
        let moves = (after..game.move_count()).filter_map(|i| game.entry_view(i, Viewer::Seat(seat))).collect();
        Ok(MovesPage { game_id, status: record.status, move_count: record.move_count, moves })
    }

    /// The game's version as the caller sees it ([`GameVersion`]), for a conditional read
    /// (`If-None-Match`): a player's read from the stored stamp without loading the game; a
    /// spectator's from the spectator's view.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`], also for a game the caller may not watch.
    pub async fn game_version(&self, caller: &Caller, game_id: Uuid) -> Result<GameVersion, ServiceError> {
        let (stamp, seated) = self.store.game_stamp(game_id, caller.account_id()).await?;
        if !seated {
            let (record, game) = self.load_settled(game_id).await?;
            return Ok(GameVersion::of_view(&self.spectator_view(&record, &game).await?));
        }
        Ok(GameVersion(stamp))
    }
}
