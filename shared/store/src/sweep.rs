//! What the sweep looks for: timed games past their deadline, open games nobody joined in time,
//! push connections past their time to live, and when the next of these falls due. Each list is
//! read on its own index and bounded.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::games::CONTROL_KIND_SQL;
use crate::{Store, StoreError};

impl Store {
    /// Active games whose turn deadline is `now` or earlier (at the deadline it has passed), the
    /// longest overdue first (ties by id), at most `limit` (on `games_deadline_idx`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_past_deadline(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT game_id FROM games WHERE turn_deadline IS NOT NULL AND turn_deadline <= $1 AND status = 'active'
             ORDER BY turn_deadline, game_id LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// How many active games have a turn deadline `now` or earlier (on `games_deadline_idx`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn count_games_past_deadline(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        let count: i64 =
            sqlx::query_scalar("SELECT count(*) FROM games WHERE turn_deadline IS NOT NULL AND turn_deadline <= $1 AND status = 'active'")
                .bind(now)
                .fetch_one(&self.pool)
                .await?;
        Ok(count.max(0) as u64)
    }

    /// Open games created before `cutoff`, and real-time ones created before
    /// `realtime_cutoff`, oldest first, at most `limit` (on `games_open_idx`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn open_games_created_before(
        &self,
        cutoff: DateTime<Utc>,
        realtime_cutoff: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Uuid>, StoreError> {
        let sql = format!(
            "SELECT game_id FROM games g WHERE status = 'open' AND created_at < greatest($1, $3)
               AND (created_at < $1 OR {CONTROL_KIND_SQL} = 'realtime')
             ORDER BY created_at, game_id LIMIT $2"
        );
        Ok(sqlx::query_scalar(&sql).bind(cutoff).bind(limit).bind(realtime_cutoff).fetch_all(&self.pool).await?)
    }

    /// Deletes the push connections that expired before `now` (their subscriptions go with
    /// them); how many.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_expired_connections(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM push_connections WHERE expires_at < $1").bind(now).execute(&self.pool).await?.rows_affected())
    }

    /// The earliest time after `now` at which the sweep has something to do: an active game's
    /// turn deadline, a drawing game's draw deadline, or an open game's expiry (created before
    /// `now − open_expiry`, a real-time one `now − realtime_open_expiry`); `None` when nothing
    /// waits. Each part on its own index (`games_deadline_idx`, `games_draw_deadline_idx`,
    /// `games_open_idx`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn next_due(
        &self,
        now: DateTime<Utc>,
        open_expiry: chrono::Duration,
        realtime_open_expiry: chrono::Duration,
    ) -> Result<Option<DateTime<Utc>>, StoreError> {
        let sql = format!(
            "SELECT least(
                 (SELECT min(turn_deadline) FROM games WHERE turn_deadline IS NOT NULL AND turn_deadline > $1 AND status = 'active'),
                 (SELECT min(draw_deadline) FROM games WHERE status = 'drawing' AND draw_deadline > $1),
                 (SELECT min(created_at + CASE WHEN {CONTROL_KIND_SQL} = 'realtime' THEN least($2, $3) ELSE $2 END)
                    FROM games g WHERE status = 'open'))"
        );
        Ok(sqlx::query_scalar(&sql).bind(now).bind(open_expiry).bind(realtime_open_expiry).fetch_one(&self.pool).await?)
    }
}
