//! A rated game's end reads its players' ratings under lock, so two games ending at once for
//! the same player apply one after the other.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use vocabulary::{Speed, Variant};

use super::transaction::GameTx;
use crate::StoreError;
use crate::ratings::{RATING_COLUMNS, StoredRating, rating_from_row};

/// The count of rated games outside tournaments between accounts `a` and `b` (SQL expressions)
/// started since `since`, being played or having changed ratings (aborted ones are not counted),
/// besides game `besides`: the one count the pair limit reads, as the lobby and a seating do.
pub(crate) fn rated_pair_games_sql(a: &str, b: &str, since: &str, besides: &str) -> String {
    format!(
        "(SELECT count(*) FROM games h
           JOIN game_players ha ON ha.game_id = h.game_id AND ha.account_id = {a}
           JOIN game_players hb ON hb.game_id = h.game_id AND hb.account_id = {b}
          WHERE h.rated AND h.tournament_id IS NULL AND h.started_at >= {since} AND h.game_id <> {besides}
            AND (h.status <> 'finished' OR EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = h.game_id)))"
    )
}

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

    /// How many rated games outside tournaments `a` and `b` have played against each other since
    /// `since` (by start): those being played and those that changed ratings (an aborted one does
    /// not count), this one excluded. Locks the game too if it was read without a lock.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game changed since it was read; database errors.
    pub async fn rated_games_between(&mut self, a: Uuid, b: Uuid, since: DateTime<Utc>) -> Result<u32, StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        let n: i64 = sqlx::query_scalar(&format!("SELECT {}", rated_pair_games_sql("$1", "$2", "$3", "$4")))
            .bind(a)
            .bind(b)
            .bind(since)
            .bind(game_id)
            .fetch_one(&mut **tx)
            .await?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Makes this rated game casual because its pair's rated games for the day are used up
    /// (`pair_limited`); the loaded record follows.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game changed since it was read; database errors.
    pub async fn limit_to_casual(&mut self) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        // The row's version moves with the update: the change's own write then finds the game
        // as this transaction left it.
        let version: String = sqlx::query_scalar(
            "UPDATE games SET rated = false, pair_limited = true, rating_range = NULL WHERE game_id = $1 RETURNING xmin::text",
        )
        .bind(game_id)
        .fetch_one(&mut **tx)
        .await?;
        self.game.version = version;
        self.game.rated = false;
        self.game.pair_limited = true;
        self.game.rating_range = None;
        self.game.ratings.clear();
        Ok(())
    }
}
