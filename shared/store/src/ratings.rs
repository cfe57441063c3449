//! Ratings: each account's Glicko-2 rating per variant and speed, the change each rated game
//! made, and the leaderboard. The numbers are computed by the service (the `ratings` crate);
//! this keeps them.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::postgres::PgRow;
use uuid::Uuid;
use vocabulary::{Speed, Variant};

use crate::{Store, StoreError};

/// An account's rating in one variant and speed, as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRating {
    /// The account.
    pub account_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The speed.
    pub speed: Speed,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// When it last changed (a newcomer's: when first read for a rated game).
    pub rated_at: DateTime<Utc>,
}

/// What one rated game did to one player's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The game.
    pub game_id: Uuid,
    /// The player.
    pub account_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The speed.
    pub speed: Speed,
    /// The rating before the game (after its idle periods' growth of the deviation).
    pub rating_before: f64,
    /// The deviation before.
    pub deviation_before: f64,
    /// The rating after.
    pub rating_after: f64,
    /// The deviation after.
    pub deviation_after: f64,
    /// When.
    pub rated_at: DateTime<Utc>,
}

/// A rating to write with a rated game's end: the new rating and the change that made it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingWrite {
    /// The rating after the game.
    pub after: StoredRating,
    /// The change.
    pub change: RatingChange,
}

/// A leaderboard's row: the rating and the player's name.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedPlayer {
    /// The rating.
    pub rating: StoredRating,
    /// The player's display name.
    pub display_name: String,
}

/// The columns of a `ratings` row, in the order [`rating_from_row`] reads.
pub(crate) const RATING_COLUMNS: &str = "r.account_id, r.variant, r.speed, r.rating, r.deviation, r.volatility, r.games, r.rated_at";

pub(crate) fn rating_from_row(row: &PgRow) -> Result<StoredRating, StoreError> {
    let variant: String = row.try_get("variant")?;
    let speed: String = row.try_get("speed")?;
    Ok(StoredRating {
        account_id: row.try_get("account_id")?,
        variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
        speed: Speed::from_id(&speed).ok_or_else(|| StoreError::Corrupt(format!("speed {speed:?}")))?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: u32::try_from(row.try_get::<i32, _>("games")?).unwrap_or(0),
        rated_at: row.try_get("rated_at")?,
    })
}

fn change_from_row(row: &PgRow) -> Result<RatingChange, StoreError> {
    let variant: String = row.try_get("variant")?;
    let speed: String = row.try_get("speed")?;
    Ok(RatingChange {
        game_id: row.try_get("game_id")?,
        account_id: row.try_get("account_id")?,
        variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
        speed: Speed::from_id(&speed).ok_or_else(|| StoreError::Corrupt(format!("speed {speed:?}")))?,
        rating_before: row.try_get("rating_before")?,
        deviation_before: row.try_get("deviation_before")?,
        rating_after: row.try_get("rating_after")?,
        deviation_after: row.try_get("deviation_after")?,
        rated_at: row.try_get("rated_at")?,
    })
}

impl Store {
    /// Every rating `account` has, by variant and speed.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn ratings_of(&self, account: Uuid) -> Result<Vec<StoredRating>, StoreError> {
        let sql = format!("SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account_id = $1 ORDER BY r.variant, r.speed");
        sqlx::query(&sql).bind(account).fetch_all(&self.pool).await?.iter().map(rating_from_row).collect()
    }

    /// The last `limit` changes rated games made to `account`'s ratings, the newest first.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn rating_history(&self, account: Uuid, limit: i64) -> Result<Vec<RatingChange>, StoreError> {
        sqlx::query(
            "SELECT game_id, account_id, variant, speed, rating_before, deviation_before, rating_after, deviation_after, rated_at
             FROM rating_changes WHERE account_id = $1 ORDER BY rated_at DESC, game_id LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(change_from_row)
        .collect()
    }

    /// The established players (deviation under `max_deviation`) of `variant` at `speed`, best
    /// first, from just after `after` (the rating and account of the previous page's last row):
    /// one query on the leaderboard's index.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn leaderboard(
        &self,
        variant: Variant,
        speed: Speed,
        after: Option<(f64, Uuid)>,
        limit: i64,
    ) -> Result<Vec<RankedPlayer>, StoreError> {
        // A literal, not a parameter: the planner proves the partial index's predicate from it.
        const PROVISIONAL: f64 = ratings::PROVISIONAL_DEVIATION;
        let sql = format!(
            "SELECT {RATING_COLUMNS}, a.display_name FROM ratings r JOIN accounts a ON a.account_id = r.account_id
             WHERE r.variant = $1 AND r.speed = $2 AND r.deviation < {PROVISIONAL}
               AND ($3::float8 IS NULL OR (r.rating, r.account_id) < ($3, $4))
             ORDER BY r.rating DESC, r.account_id DESC LIMIT $5"
        );
        sqlx::query(&sql)
            .bind(variant.id())
            .bind(speed.id())
            .bind(after.map(|a| a.0))
            .bind(after.map(|a| a.1))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| Ok(RankedPlayer { rating: rating_from_row(r)?, display_name: r.try_get("display_name")? }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_leaderboard_index_holds_the_established_players_the_ratings_crate_names() {
        // The partial index's predicate is migration text: it must say the same bound.
        let migration = include_str!("../../../migrations/0014_ratings.sql");
        assert!(migration.contains(&format!("WHERE deviation < {}", ratings::PROVISIONAL_DEVIATION)), "{migration}");
        assert_eq!(format!("{}", ratings::PROVISIONAL_DEVIATION), "110");
    }
}

/// An opponent an account has played rated games against, with how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedOpponent {
    /// The opponent.
    pub account_id: Uuid,
    /// Their name.
    pub display_name: String,
    /// Rated games between the two that changed ratings in the window.
    pub games: u32,
}

impl Store {
    /// The opponents `account_id` has played the most rated games against (each game that
    /// changed both ratings) since `since`, most first: at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rated_opponents(&self, account_id: Uuid, since: DateTime<Utc>, limit: i64) -> Result<Vec<RatedOpponent>, StoreError> {
        let rows = sqlx::query(
            "SELECT o.account_id, a.display_name, count(*) AS games
             FROM rating_changes m
             JOIN rating_changes o ON o.game_id = m.game_id AND o.account_id <> m.account_id
             JOIN accounts a ON a.account_id = o.account_id
             WHERE m.account_id = $1 AND m.rated_at >= $2
             GROUP BY o.account_id, a.display_name ORDER BY count(*) DESC, o.account_id LIMIT $3",
        )
        .bind(account_id)
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatedOpponent {
                    account_id: r.try_get("account_id")?,
                    display_name: r.try_get("display_name")?,
                    games: u32::try_from(r.try_get::<i64, _>("games")?).unwrap_or(u32::MAX),
                })
            })
            .collect()
    }
}
