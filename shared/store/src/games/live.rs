//! The live games' query: games being played, for spectators to pick from.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;
use vocabulary::{TimeControl, Variant};

use super::Player;
use super::rows::{PLAYERS_SQL, players_of, time_control_of};
use crate::{GameStatus, Store, StoreError};

/// A game being played, as the live list reads it: enough to decide whether it may be watched
/// and to list it.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveGame {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// `active`, or `drawing` (a tournament game's players drawing for who starts).
    pub status: GameStatus,
    /// Moves so far.
    pub move_count: u32,
    /// Whether it is rated.
    pub rated: bool,
    /// How it is timed.
    pub time_control: TimeControl,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// Who invited the others, for a game that began as an invitation.
    pub invited_by: Option<Uuid>,
    /// The finished game it is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// When it last changed (the list's order).
    pub updated_at: DateTime<Utc>,
    /// Its seats.
    pub players: Vec<Player>,
}

impl Store {
    /// Up to `limit` active and drawing games (of `variant`, of `tournament`, where given), the
    /// most recently changed first, from just after `after` (the change time and id of the last
    /// game of the previous page). Whether each may be watched is the caller's to decide.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn live_games(
        &self,
        variant: Option<Variant>,
        tournament: Option<Uuid>,
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<Vec<LiveGame>, StoreError> {
        let sql = format!(
            "SELECT g.game_id, g.variant, g.status, g.move_count, g.rated, g.turn_seconds, g.time_control::text AS time_control,
                    g.tournament_id, g.invited_by, g.rematch_of, g.updated_at, {PLAYERS_SQL}
             FROM games g
             WHERE g.status IN ('active', 'drawing')
               AND ($1::text IS NULL OR g.variant = $1)
               AND ($2::uuid IS NULL OR g.tournament_id = $2)
               AND ($3::timestamptz IS NULL OR (g.updated_at, g.game_id) < ($3, $4))
             ORDER BY g.updated_at DESC, g.game_id DESC
             LIMIT $5"
        );
        let rows = sqlx::query(&sql)
            .bind(variant.map(Variant::id))
            .bind(tournament)
            .bind(after.map(|a| a.0))
            .bind(after.map(|a| a.1))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                Ok(LiveGame {
                    game_id: r.try_get("game_id")?,
                    variant: crate::games::variant_of(r)?,
                    status: GameStatus::parse(&status)?,
                    move_count: u32::try_from(r.try_get::<i32, _>("move_count")?).unwrap_or(0),
                    rated: r.try_get("rated")?,
                    time_control: time_control_of(r)?,
                    tournament_id: r.try_get("tournament_id")?,
                    invited_by: r.try_get("invited_by")?,
                    rematch_of: r.try_get("rematch_of")?,
                    updated_at: r.try_get("updated_at")?,
                    players: players_of(&r.try_get::<String, _>("players")?)?,
                })
            })
            .collect()
    }

    /// How many moves behind spectators see the live games of `tournament` (0 for an unknown
    /// one).
    ///
    /// # Errors
    /// Database errors.
    pub async fn spectator_delay(&self, tournament: Uuid) -> Result<u32, StoreError> {
        let delay: Option<i16> = sqlx::query_scalar("SELECT spectator_delay FROM tournaments WHERE tournament_id = $1")
            .bind(tournament)
            .fetch_optional(&self.pool)
            .await?;
        Ok(delay.map_or(0, |d| u32::try_from(d).unwrap_or(0)))
    }
}
