//! A rated game's end reads its players' ratings under lock, so two games ending at once for
//! the same player apply one after the other.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use vocabulary::{Speed, Variant};

use super::transaction::GameTx;
use crate::StoreError;
use crate::ratings::{RATING_COLUMNS, StoredRating, rating_from_row};

impl GameTx {
    /// The ratings of `accounts` in `variant` at `speed`, locked until this change commits (a
    /// newcomer's row made first, at the defaults, as of `now`), in the order of `accounts`.
    /// Locks the game too if it was read without a lock.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game changed since it was read; database errors.
    pub async fn lock_ratings(
        &mut self,
        accounts: &[Uuid],
        variant: Variant,
        speed: Speed,
        (rating, deviation, volatility): (f64, f64, f64),
        now: DateTime<Utc>,
    ) -> Result<Vec<StoredRating>, StoreError> {
        let tx = self.locked().await?;
        let mut sorted = accounts.to_vec();
        sorted.sort();
        sqlx::query(
            "INSERT INTO ratings (account_id, variant, speed, rating, deviation, volatility, games, rated_at)
             SELECT a, $2, $3, $4, $5, $6, 0, $7 FROM UNNEST($1::uuid[]) AS x(a)
             ON CONFLICT (account_id, variant, speed) DO NOTHING",
        )
        .bind(&sorted)
        .bind(variant.id())
        .bind(speed.id())
        .bind(rating)
        .bind(deviation)
        .bind(volatility)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        // In one order (the accounts sorted), so two games ending at once cannot deadlock.
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = ANY($1) AND r.variant = $2 AND r.speed = $3
             ORDER BY r.account_id FOR UPDATE"
        );
        let rows = sqlx::query(&sql).bind(&sorted).bind(variant.id()).bind(speed.id()).fetch_all(&mut **tx).await?;
        let found = rows.iter().map(rating_from_row).collect::<Result<Vec<_>, _>>()?;
        accounts
            .iter()
            .map(|a| {
                found.iter().find(|r| r.account_id == *a).cloned().ok_or_else(|| StoreError::Corrupt(format!("no rating row for {a}")))
            })
            .collect()
    }
}
