//! What a reconnecting client needs: the journal as the caller's seat may see it, from any
//! move on, and a cheap check of whether the game changed since it last looked.

use games::{EntryView, Viewer, entry_view};
use serde::Serialize;
use store::GameStatus;
use uuid::Uuid;

use crate::usecases::seat_of;
use crate::{Caller, Service, ServiceError};

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

/// What a game's view depends on that moves change: its `ETag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameVersion {
    /// Moves so far.
    pub move_count: u32,
    /// Its state.
    pub status: GameStatus,
}

impl GameVersion {
    /// The entity tag: the move count and the status, quoted.
    pub fn etag(self) -> String {
        format!("\"{}-{}\"", self.move_count, self.status)
    }
}

impl Service {
    /// The game's journal from move `after` on (0: all of it), each entry as the caller's seat
    /// may see it through [`entry_view`]. An `after` at or past the move count gives no moves.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`] for a non-player.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn moves(&self, caller: &Caller, game_id: Uuid, after: u32) -> Result<MovesPage, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        let moves = game.entries().iter().skip(after as usize).map(|e| entry_view(e, Viewer::Seat(seat))).collect();
        Ok(MovesPage { game_id, status: record.status, move_count: record.move_count, moves })
    }

    /// The game's version as stored, read without loading the game, for a conditional read
    /// (`If-None-Match`).
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`] for a non-player.
    pub async fn game_version(&self, caller: &Caller, game_id: Uuid) -> Result<GameVersion, ServiceError> {
        let (move_count, status, seated) = self.store.game_version(game_id, caller.account_id()).await?;
        if !seated {
            return Err(ServiceError::NotYourGame);
        }
        Ok(GameVersion { move_count, status })
    }
}
