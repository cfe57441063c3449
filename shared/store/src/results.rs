//! The winners of finished games as the store keeps them (`games.winners`): the games that have
//! none yet (finished before the column existed, or by the previous release during a deploy)
//! and the write that records them once the service has read them from the game.

use uuid::Uuid;

use crate::{Store, StoreError};

impl Store {
    /// Finished games without recorded winners, at most `limit`: those of `tournament` when
    /// given, else any.
    ///
    /// # Errors
    /// Database errors.
    pub async fn unscored_games(&self, tournament: Option<Uuid>, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT game_id FROM games
             WHERE status = 'finished' AND winners IS NULL AND ($1::uuid IS NULL OR tournament_id = $1)
             ORDER BY finished_at NULLS FIRST, game_id LIMIT $2",
        )
        .bind(tournament)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Records the winning seats of finished game `game_id`, unless it has some already.
    ///
    /// # Errors
    /// Database errors.
    pub async fn record_winners(&self, game_id: Uuid, winners: &[u8]) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET winners = $2 WHERE game_id = $1 AND status = 'finished' AND winners IS NULL")
            .bind(game_id)
            .bind(winners.iter().map(|&s| i16::from(s)).collect::<Vec<_>>())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
