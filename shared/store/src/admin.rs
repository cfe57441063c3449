//! The admin's game search: recent games, filtered by variant, status and a player's id or name,
//! most recently changed first, a page at a time.
//!
//! No index serves the order on purpose: `updated_at` changes with every move, and an index on it
//! would stop the moves' in-place (HOT) updates of the games row (migration 0004). The admin page
//! is rare; a sort over the filtered games is its price.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;
use vocabulary::Variant;

use crate::{GameStatus, Store, StoreError};

/// What the admin looks for; every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only this variant.
    pub variant: Option<Variant>,
    /// Only games in this state.
    pub status: Option<GameStatus>,
    /// Only games with this player: an account id, or a part of a display name (any case).
    pub player: Option<String>,
}

/// A game as the admin's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedGame {
    /// The game.
    pub game_id: Uuid,
    /// Its variant.
    pub variant: Variant,
    /// Its lifecycle state.
    pub status: GameStatus,
    /// Moves so far.
    pub move_count: i32,
    /// Last activity.
    pub updated_at: DateTime<Utc>,
    /// Its seats in order.
    pub players: Vec<ListedPlayer>,
}

/// A seat of a listed game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedPlayer {
    /// The seat.
    pub seat: usize,
    /// Who sits there; `None` for a seat still open.
    pub account: Option<(Uuid, String)>,
}

/// `text` as a literal inside a `LIKE` pattern (`\` escapes).
fn like_literal(text: &str) -> String {
    text.chars().fold(String::new(), |mut out, c| {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
        out
    })
}

impl Store {
    /// Up to `limit` games matching `filter`, most recently changed first, from just after
    /// `after` (the `updated_at` and id of the previous page's last game).
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn find_games(
        &self,
        filter: &GameFilter,
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<Vec<ListedGame>, StoreError> {
        let player = filter.player.as_deref().map(str::trim).filter(|p| !p.is_empty());
        let player_id = player.and_then(|p| Uuid::parse_str(p).ok());
        let name_pattern = player.filter(|_| player_id.is_none()).map(|p| format!("%{}%", like_literal(p)));
        let rows = sqlx::query(
            "SELECT g.game_id, g.variant, g.status, g.move_count, g.updated_at
             FROM games g
             WHERE ($1::text IS NULL OR g.variant = $1)
               AND ($2::text IS NULL OR g.status = $2)
               AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.game_id AND q.account_id = $3))
               AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM game_players q JOIN accounts a ON a.account_id = q.account_id
                                                WHERE q.game_id = g.game_id AND a.display_name ILIKE $4 ESCAPE '\\'))
               AND ($5::timestamptz IS NULL OR (g.updated_at, g.game_id) < ($5, $6))
             ORDER BY g.updated_at DESC, g.game_id DESC
             LIMIT $7",
        )
        .bind(filter.variant.map(Variant::id))
        .bind(filter.status.map(GameStatus::id))
        .bind(player_id)
        .bind(name_pattern)
        .bind(after.map(|a| a.0))
        .bind(after.map(|a| a.1))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let ids: Vec<Uuid> = rows.iter().map(|r| r.try_get("game_id")).collect::<Result<_, _>>()?;
        let seats = sqlx::query(
            "SELECT p.game_id, p.seat, a.account_id, a.display_name
             FROM game_players p LEFT JOIN accounts a ON a.account_id = p.account_id
             WHERE p.game_id = ANY($1) ORDER BY p.game_id, p.seat",
        )
        .bind(&ids)
        .fetch_all(&self.pool)
        .await?;
        let mut games = rows
            .iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                Ok(ListedGame {
                    game_id: r.try_get("game_id")?,
                    variant: crate::games::variant_of(r)?,
                    status: GameStatus::parse(&status)?,
                    move_count: r.try_get("move_count")?,
                    updated_at: r.try_get("updated_at")?,
                    players: Vec::new(),
                })
            })
            .collect::<Result<Vec<ListedGame>, StoreError>>()?;
        for s in &seats {
            let game_id: Uuid = s.try_get("game_id")?;
            let account_id: Option<Uuid> = s.try_get("account_id")?;
            let name: Option<String> = s.try_get("display_name")?;
            if let Some(g) = games.iter_mut().find(|g| g.game_id == game_id) {
                g.players.push(ListedPlayer { seat: s.try_get::<i16, _>("seat")? as usize, account: account_id.zip(name) });
            }
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::like_literal;

    #[test]
    fn like_wildcards_are_taken_literally() {
        assert_eq!(like_literal("50%_a\\b"), "50\\%\\_a\\\\b");
        assert_eq!(like_literal("Анна"), "Анна");
    }
}
