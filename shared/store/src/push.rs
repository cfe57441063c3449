//! Push connections (a client's WebSocket, by its connection id) and the games each subscribed
//! to, with a time to live and at most a few live per account: what the notifier reads after
//! every committed move.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;

use crate::{Store, StoreError};

impl Store {
    /// Records connection `connection_id` of `account_id`, alive until `expires_at` (a
    /// reconnect under the same id renews it), unless the account already holds `limit` other
    /// connections live at `now`. Counted under a lock on the account's row, so two connects
    /// at once cannot both take the last place; the account's expired connections are deleted
    /// on the way.
    ///
    /// # Errors
    /// [`StoreError::TooManyConnections`] at the cap; database errors.
    pub async fn open_connection(
        &self,
        connection_id: &str,
        account_id: Uuid,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT 1 FROM accounts WHERE account_id = $1 FOR NO KEY UPDATE").bind(account_id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM push_connections WHERE account_id = $1 AND expires_at <= $2")
            .bind(account_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        let others: i64 = sqlx::query_scalar("SELECT count(*) FROM push_connections WHERE account_id = $1 AND connection_id <> $2")
            .bind(account_id)
            .bind(connection_id)
            .fetch_one(&mut *tx)
            .await?;
        if others >= i64::from(limit) {
            return Err(StoreError::TooManyConnections { limit });
        }
        sqlx::query(
            "INSERT INTO push_connections (connection_id, account_id, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (connection_id) DO UPDATE SET account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at",
        )
        .bind(connection_id)
        .bind(account_id)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets connection `connection_id` and its subscriptions (closed, or gone).
    ///
    /// # Errors
    /// Database errors.
    pub async fn close_connection(&self, connection_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM push_connections WHERE connection_id = $1").bind(connection_id).execute(&self.pool).await?;
        Ok(())
    }

    /// Subscribes `connection_id` to `game_id` (again: no change).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if the connection is not recorded (or expired); database
    /// errors.
    pub async fn subscribe(&self, connection_id: &str, game_id: Uuid) -> Result<(), StoreError> {
        let done = sqlx::query(
            "INSERT INTO push_subscriptions (connection_id, game_id)
             SELECT connection_id, $2 FROM push_connections WHERE connection_id = $1 AND expires_at > now()
             ON CONFLICT DO NOTHING",
        )
        .bind(connection_id)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            let known: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM push_subscriptions WHERE connection_id = $1 AND game_id = $2)")
                    .bind(connection_id)
                    .bind(game_id)
                    .fetch_one(&self.pool)
                    .await?;
            if !known {
                return Err(StoreError::NotFound);
            }
        }
        Ok(())
    }

    /// Ends the subscription of `connection_id` to `game_id`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub async fn unsubscribe(&self, connection_id: &str, game_id: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE connection_id = $1 AND game_id = $2")
            .bind(connection_id)
            .bind(game_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The live connections subscribed to `game_id` at `now`: its players' and, while the game
    /// may be watched ([`crate::Watch`]), its spectators'.
    ///
    /// # Errors
    /// Database errors.
    pub async fn subscribers(&self, game_id: Uuid, now: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String, bool)> = sqlx::query_as(
            "SELECT s.connection_id,
                    EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = s.game_id AND p.account_id = c.account_id) AS seated
             FROM push_subscriptions s
             JOIN push_connections c ON c.connection_id = s.connection_id
             WHERE s.game_id = $1 AND c.expires_at > $2
             ORDER BY s.connection_id",
        )
        .bind(game_id)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        let watched = rows.iter().any(|(_, seated)| !seated) && self.watchable(game_id).await?;
        Ok(rows.into_iter().filter(|(_, seated)| *seated || watched).map(|(id, _)| id).collect())
    }

    /// Whether strangers may watch `game_id` now (false for no such game).
    async fn watchable(&self, game_id: Uuid) -> Result<bool, StoreError> {
        let sql =
            format!("SELECT g.invited_by, g.rematch_of, g.tournament_id, {} FROM games g WHERE g.game_id = $1", crate::games::PLAYERS_SQL);
        let Some(row) = sqlx::query(&sql).bind(game_id).fetch_optional(&self.pool).await? else { return Ok(false) };
        let players = crate::games::players_of(&row.try_get::<String, _>("players")?)?;
        let watch = crate::Watch {
            players: &players,
            invited_by: row.try_get("invited_by")?,
            rematch_of: row.try_get("rematch_of")?,
            tournament_id: row.try_get("tournament_id")?,
        };
        Ok(watch.allowed())
    }

    /// The account whose live connection `connection_id` is at `now`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub async fn connection_account(&self, connection_id: &str, now: DateTime<Utc>) -> Result<Option<Uuid>, StoreError> {
        Ok(sqlx::query_scalar("SELECT account_id FROM push_connections WHERE connection_id = $1 AND expires_at > $2")
            .bind(connection_id)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The live connections of `account_id` at `now` (to tell the account of an invitation).
    ///
    /// # Errors
    /// Database errors.
    pub async fn connections_of(&self, account_id: Uuid, now: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT connection_id FROM push_connections WHERE account_id = $1 AND expires_at > $2 ORDER BY connection_id",
        )
        .bind(account_id)
        .bind(now)
        .fetch_all(&self.pool)
        .await?)
    }
}
