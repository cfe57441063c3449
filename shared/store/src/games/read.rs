//! Reading a game: the one statement that loads it with its seats, journal and draw, and the
//! small reads beside it.

use sqlx::Row;
use uuid::Uuid;

use super::rows::{PLAYERS_SQL, SPEED_SQL, game_from_row};
use super::{ClientMove, GameRecord, GameStamp, KnownGame};
use crate::{GameStatus, Store, StoreError};

impl Store {
    /// The game `id` with its seats and journal.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Corrupt`] for an unreadable journal row.
    pub async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError> {
        self.game_since(id, None).await
    }

    /// The game `id`, as [`Store::game`]; its journal and draw come from `known` when the game
    /// is still at `known`'s version.
    ///
    /// # Errors
    /// As [`Store::game`].
    pub async fn game_since(&self, id: Uuid, known: Option<&KnownGame>) -> Result<GameRecord, StoreError> {
        let mut conn = self.pool.acquire().await?;
        Ok(load(&mut conn, id, None, known).await?.0)
    }

    /// The rematch of the finished game `id`, if one was made.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rematch_of(&self, id: Uuid) -> Result<Option<Uuid>, StoreError> {
        Ok(sqlx::query_scalar("SELECT game_id FROM games WHERE rematch_of = $1").bind(id).fetch_optional(&self.pool).await?)
    }

    /// What the game's view shows that can change without a load ([`GameStamp`]: move count,
    /// status, turn deadline, seats, the tiles of a draw by hand, the
    /// hints the reader's seat took) and whether `account_id` sits in it (invited or not), in one
    /// small query: for a conditional read that must not load the game.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Corrupt`] for unreadable seats; database errors.
    pub async fn game_stamp(&self, id: Uuid, account_id: Uuid) -> Result<(GameStamp, bool), StoreError> {
        let row = sqlx::query(
            "SELECT g.move_count, g.status, g.turn_deadline,
                    CASE WHEN g.status = 'drawing' THEN (SELECT count(*) FROM game_setup_draws d WHERE d.game_id = g.game_id) ELSE 0 END AS drawn,
                    EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.game_id AND p.account_id = $2) AS seated,
                    coalesce((SELECT p.hints_used FROM game_players p WHERE p.game_id = g.game_id AND p.account_id = $2), 0)::int AS hints_used,
                    (SELECT coalesce(json_agg(s), '[]'::json)::text
                       FROM (SELECT p.account_id, a.display_name, p.invited
                             FROM game_players p LEFT JOIN accounts a ON a.account_id = p.account_id
                             WHERE p.game_id = g.game_id ORDER BY p.seat) s) AS seats
             FROM games g WHERE g.game_id = $1",
        )
        .bind(id)
        .bind(account_id)
        .fetch_one(&self.pool)
        .await?;
        let status: String = row.try_get("status")?;
        let seats: String = row.try_get("seats")?;
        let stamp = GameStamp {
            move_count: row.try_get::<i32, _>("move_count")? as u32,
            status: GameStatus::parse(&status)?,
            turn_deadline: row.try_get("turn_deadline")?,
            seats: serde_json::from_str(&seats).map_err(|e| StoreError::Corrupt(format!("game {id}: seats: {e}")))?,
            drawn: row.try_get::<i64, _>("drawn")? as u32,
            hints_used: u32::try_from(row.try_get::<i32, _>("hints_used")?).unwrap_or(0),
        };
        Ok((stamp, row.try_get("seated")?))
    }
}

/// Seats and journal come back in the same statement as the game row, as JSON text parsed
/// straight into their types: one round trip per load. Each list is ordered in a subquery and
/// aggregated without an ORDER BY of its own, which PostgreSQL would run as a separate sort per
/// aggregate: about a third of the statement's time. The journal and draw are left out (NULL)
/// when the game row is still at the version `$3` the caller already holds them for.
static LOAD_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT g.game_id, g.variant, g.seed, g.seats, g.no_repeat_words, g.status, g.move_count, g.turn_seconds,
        g.time_control::text AS time_control, g.started_at, g.turn_deadline, g.created_at, g.updated_at, g.finished_at, g.end_reason, g.setup::text AS setup, g.rematch_of, g.invited_by,
        g.xmin::text AS version, g.rated, g.pair_limited, g.rating_range, g.tournament_id, g.draw_deadline, g.hints_allowed,
        CASE WHEN g.status = 'active' THEN
          (SELECT coalesce(json_agg(o), '[]'::json)::text
             FROM (SELECT o.started_at, o.ended_at FROM outages o
                   WHERE o.ended_at > coalesce(g.started_at, g.created_at) ORDER BY o.started_at) o) END AS outages,
        CASE WHEN g.rated THEN
          (SELECT coalesce(json_agg(s), '[]'::json)::text
             FROM (SELECT p.seat, r.rating, r.deviation, r.games, r.rated_at, c.rating_before, c.deviation_before, c.rating_after,
                          c.deviation_after
                   FROM game_players p
                   LEFT JOIN ratings r ON r.account_id = p.account_id AND r.variant = g.variant
                        AND r.speed = {SPEED_SQL}
                   LEFT JOIN rating_changes c ON c.game_id = g.game_id AND c.account_id = p.account_id
                   WHERE p.game_id = g.game_id ORDER BY p.seat) s) END AS ratings,
        {PLAYERS_SQL},
        CASE WHEN g.xmin::text = $3::text THEN NULL ELSE
          (SELECT coalesce(json_agg(s.entry), '[]'::json)::text
             FROM (SELECT m.entry FROM game_moves m WHERE m.game_id = g.game_id ORDER BY m.move_no) s) END AS journal,
        CASE WHEN g.xmin::text = $3::text THEN NULL ELSE
          (SELECT coalesce(json_agg(s.played_at), '[]'::json)::text
             FROM (SELECT m.played_at FROM game_moves m WHERE m.game_id = g.game_id ORDER BY m.move_no) s) END AS move_times,
        (SELECT json_build_object('move_no', m.move_no, 'seat', m.seat, 'request_hash', encode(m.request_hash, 'hex'),
                 'response', m.response)::text
           FROM game_moves m WHERE m.game_id = g.game_id AND m.client_move_id = $2) AS client_move,
        CASE WHEN g.xmin::text = $3::text THEN NULL ELSE
          (SELECT coalesce(json_agg(s), '[]'::json)::text
             FROM (SELECT d.round, d.pick_no, d.account_id, d.letter, d.is_blank, d.rank
                   FROM game_setup_draws d WHERE d.game_id = g.game_id ORDER BY d.round, d.pick_no) s) END AS draws
     FROM games g WHERE g.game_id = $1"
    )
});

/// The game and the move recorded with `client_move_id` if one is given; the journal and draw
/// from `known` if the game is still at its version.
pub(super) async fn load(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    client_move_id: Option<Uuid>,
    known: Option<&KnownGame>,
) -> Result<(GameRecord, Option<ClientMove>), StoreError> {
    let row = sqlx::query(&LOAD_SQL).bind(id).bind(client_move_id).bind(known.map(|k| k.version.as_str())).fetch_one(&mut *conn).await?;
    game_from_row(&row, id, known)
}
