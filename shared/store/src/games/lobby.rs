//! The lobby's query: open games waiting for an opponent.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;
use vocabulary::{TimeControl, TimeControlKind, Variant};

use super::rows::{CHALLENGE_SQL, CONTROL_KIND_SQL, SPEED_SQL};
use crate::accounts::Account;
use crate::{Store, StoreError};

/// A game waiting for an opponent, as the lobby lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenGameSummary {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// When it was opened.
    pub created_at: DateTime<Utc>,
    /// How it is timed.
    pub time_control: TimeControl,
    /// How a word not in the list is settled.
    pub challenge_rule: vocabulary::ChallengeRule,
    /// Whether it is rated.
    pub rated: bool,
    /// A rated game's opener's rating in its variant and speed (a newcomer's 1500 when none).
    pub opener_rating: Option<f64>,
    /// A rated game's acceptable distance of a joiner's rating, ± points (none: anyone).
    pub rating_range: Option<u32>,
    /// Who opened it.
    pub opener: Account,
    /// A rated game's count of rated games its opener and the caller have played against each
    /// other since the lobby's `since` (the pair limit's count); none when casual.
    pub pair_rated_games: Option<u32>,
}

impl Store {
    /// Open games (of `variant`, with a time control of `control`'s kind, and rated or casual as
    /// `rated` says, where given) that
    /// `caller` is not seated in, oldest first, from just after `after` (the creation time and
    /// id of the last game of the previous page).
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn open_games(
        &self,
        variant: Option<Variant>,
        (control, rated, joinable): (Option<TimeControlKind>, Option<bool>, bool),
        (caller, since): (Uuid, DateTime<Utc>),
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<Vec<OpenGameSummary>, StoreError> {
        const NEWCOMER: f64 = ratings::DEFAULT_RATING;
        let pair = super::rated::rated_pair_games_sql("p.account_id", "$2", "$9", "g.game_id");
        let sql = format!(
            "SELECT g.game_id, g.variant, g.created_at AS game_created_at, g.turn_seconds, g.time_control::text AS time_control, {CHALLENGE_SQL}, g.rated, g.rating_range,
                    CASE WHEN g.rated THEN coalesce(o.rating, {NEWCOMER}) END AS opener_rating,
                    CASE WHEN g.rated THEN {pair} END AS pair_rated_games,
                    a.account_id, a.display_name, a.kind, a.robot_level, a.created_at, a.spectating
             FROM games g
             JOIN game_players p ON p.game_id = g.game_id
             JOIN accounts a ON a.account_id = p.account_id
             LEFT JOIN ratings o ON o.account_id = p.account_id AND o.variant = g.variant AND o.speed = {SPEED_SQL}
             WHERE g.status = 'open' AND ($1::text IS NULL OR g.variant = $1)
               AND ($6::text IS NULL OR {CONTROL_KIND_SQL} = $6)
               AND ($7::bool IS NULL OR g.rated = $7)
               AND (NOT $8 OR NOT g.rated OR g.rating_range IS NULL
                    OR abs(coalesce((SELECT c.rating FROM ratings c WHERE c.account_id = $2 AND c.variant = g.variant
                                       AND c.speed = {SPEED_SQL}), {NEWCOMER}) - coalesce(o.rating, {NEWCOMER})) <= g.rating_range)
               AND NOT EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.game_id AND (q.account_id = $2 OR q.invited))
               AND ($4::timestamptz IS NULL OR (g.created_at, g.game_id) > ($4, $5))
             ORDER BY g.created_at, g.game_id
             LIMIT $3"
        );
        let kind = control.map(|k| serde_json::to_value(k).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default());
        let rows = sqlx::query(&sql)
            .bind(variant.map(Variant::id))
            .bind(caller)
            .bind(limit)
            .bind(after.map(|a| a.0))
            .bind(after.map(|a| a.1))
            .bind(kind)
            .bind(rated)
            .bind(joinable)
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(OpenGameSummary {
                    game_id: r.try_get("game_id")?,
                    variant: crate::games::variant_of(r)?,
                    created_at: r.try_get("game_created_at")?,
                    time_control: super::rows::time_control_of(r)?,
                    challenge_rule: super::rows::challenge_of(r)?,
                    rated: r.try_get("rated")?,
                    opener_rating: r.try_get("opener_rating")?,
                    rating_range: r.try_get::<Option<i32>, _>("rating_range")?.and_then(|x| u32::try_from(x).ok()),
                    opener: crate::accounts::account_from_row(r)?,
                    pair_rated_games: r.try_get::<Option<i64>, _>("pair_rated_games")?.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
                })
            })
            .collect()
    }
}
