//! A finished game's result as every reader outside the game reads it: the winning seats its
//! family's outcome names ([`winners`]), recorded in the statement that records the end
//! (`games.winners`). Tournament standings, pairings and the `.t` export, my games and the
//! ratings all read that one result; none judges it again from scores or move kinds. Games
//! finished before winners were recorded (or by the previous release during a deploy) are
//! rescored from their journal by the same function ([`Service::rescore`]): a tournament's
//! before each read or change of it, the rest a batch per sweep.

use games::Position;
use uuid::Uuid;

use crate::{Service, ServiceError};

/// The winning seats of `game` once it is over (more than one on a tie), as its family's
/// outcome names them; none while it goes on.
pub(crate) fn winners(game: &impl Position) -> Option<Vec<u8>> {
    game.outcome().map(|o| o.winners.iter().map(|s| s.0).collect())
}

impl Service {
    /// Records the winners of up to `limit` finished games that have none recorded (those of
    /// `tournament` when given), each read from its journal by [`winners`]: how many it
    /// recorded.
    ///
    /// # Errors
    /// Storage failures; a journal that does not replay.
    pub async fn rescore(&self, tournament: Option<Uuid>, limit: i64) -> Result<usize, ServiceError> {
        let unscored = self.game_store.unscored_games(tournament, limit).await?;
        for &id in &unscored {
            let (_, game) = self.games.get(id).await?;
            let seats =
                winners(&game).ok_or_else(|| ServiceError::Replay(format!("game {id} is finished but its journal does not end it")))?;
            self.game_store.record_winners(id, &seats).await?;
            tracing::info!(game_id = %id, winners = ?seats, "rescored a finished game");
        }
        Ok(unscored.len())
    }
}
