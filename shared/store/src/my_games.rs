//! A player's games, most recent activity first, a page at a time: one query on the seat rows'
//! own indexes (migration 0007), whatever the account's or the table's number of games.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;
use vocabulary::Variant;

use crate::accounts::{AccountKind, Level};
use crate::games::{CHALLENGE_SQL, SPEED_SQL};
use crate::{GameStatus, Store, StoreError};

/// Which of an account's games to list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MyGamesFilter {
    /// Only games in this state.
    pub status: Option<GameStatus>,
    /// Only games where it is the account's turn.
    pub my_turn: bool,
}

/// One of an account's games, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MyGame {
    /// The game.
    pub game_id: Uuid,
    /// Its variant.
    pub variant: Variant,
    /// Its state.
    pub status: GameStatus,
    /// Moves so far.
    pub move_count: u32,
    /// When the player to move times out.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// How it is timed.
    pub time_control: vocabulary::TimeControl,
    /// How a word not in the list is settled.
    pub challenge_rule: vocabulary::ChallengeRule,
    /// Whether it is rated.
    pub rated: bool,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// When it last changed (the list's order).
    pub last_activity: DateTime<Utc>,
    /// The account's seat.
    pub seat: usize,
    /// Whether the account is invited (a rematch waiting for it to accept).
    pub invited: bool,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Every seat, in order.
    pub seats: Vec<MyGameSeat>,
    /// The last move: its seat, kind and time.
    pub last_move: Option<LastMove>,
}

/// A seat of a listed game (serialized as the list shows it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct MyGameSeat {
    /// The seat.
    pub seat: usize,
    /// Who sits there (none while open).
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// human or robot.
    #[serde(deserialize_with = "kind")]
    pub kind: Option<AccountKind>,
    /// A robot's level.
    #[serde(deserialize_with = "level")]
    pub robot_level: Option<Level>,
    /// The seat's score.
    pub score: i32,
    /// Whether it is this seat's turn.
    #[serde(skip_serializing)]
    pub my_turn: bool,
    /// Whether the seat's account is invited and has not accepted yet.
    pub invited: bool,
    /// A rated game's player's rating before it (its current rating while it is played; a
    /// newcomer's 1500), rounded; null in a casual game.
    #[serde(default)]
    pub rating: Option<i32>,
    /// What the rated game changed that rating by, rounded, once it ended rated.
    #[serde(default)]
    pub rating_change: Option<i32>,
    /// Whether the seat won, as the game's recorded winners say (every winning seat on a tie);
    /// none until the game is finished and its winners recorded.
    #[serde(default)]
    pub won: Option<bool>,
}

/// The last move of a listed game.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct LastMove {
    /// Its seat.
    pub seat: usize,
    /// Its kind, as stored (play, pass, exchange, word, resign, timeout).
    pub kind: String,
    /// When it was made.
    #[serde(serialize_with = "crate::timestamp::millis")]
    pub at: DateTime<Utc>,
}

fn kind<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<AccountKind>, D::Error> {
    let s: Option<String> = serde::Deserialize::deserialize(d)?;
    s.map(|s| AccountKind::parse(&s).map_err(serde::de::Error::custom)).transpose()
}

fn level<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
    let s: Option<String> = serde::Deserialize::deserialize(d)?;
    crate::accounts::parse_stored_level(s.as_deref()).map_err(serde::de::Error::custom)
}

/// The list's statement for a filter: each filter has its own text, so each is planned for its
/// own index (a generic plan over optional parameters would not use them). `$1` the account,
/// `$2` the status, `$3`/`$4` the cursor, `$5` the limit.
pub(crate) fn my_games_sql(filter: MyGamesFilter, after: bool) -> String {
    let mut cond = String::from("p.account_id = $1");
    if filter.status.is_some() {
        cond.push_str(" AND p.game_status = $2");
    } else {
        cond.push_str(" AND $2::text IS NULL");
    }
    if filter.my_turn {
        cond.push_str(" AND p.my_turn");
    }
    if after {
        cond.push_str(" AND (p.last_activity, p.game_id) < ($3, $4)");
    } else {
        cond.push_str(" AND $3::timestamptz IS NULL AND $4::uuid IS NULL");
    }
    const NEWCOMER: f64 = ratings::DEFAULT_RATING;
    format!(
        "SELECT p.game_id, p.seat, p.invited, p.last_activity, g.variant, g.status, g.move_count, g.turn_deadline, g.rematch_of,
            g.turn_seconds, g.time_control::text AS time_control, {CHALLENGE_SQL}, g.rated, g.tournament_id,
            (SELECT json_agg(s)::text FROM (
                SELECT q.seat, a.account_id, a.display_name, a.kind, a.robot_level, q.score, q.my_turn, q.invited,
                       CASE WHEN g.rated AND q.account_id IS NOT NULL
                            THEN round(coalesce(c.rating_before, r.rating, {NEWCOMER}))::int END AS rating,
                       round(c.rating_after - c.rating_before)::int AS rating_change,
                       CASE WHEN g.status = 'finished' THEN q.seat = ANY(g.winners) END AS won
                FROM game_players q LEFT JOIN accounts a ON a.account_id = q.account_id
                LEFT JOIN rating_changes c ON g.rated AND c.game_id = q.game_id AND c.account_id = q.account_id
                LEFT JOIN ratings r ON g.rated AND r.account_id = q.account_id AND r.variant = g.variant AND r.speed = {SPEED_SQL}
                WHERE q.game_id = p.game_id ORDER BY q.seat) s) AS seats,
            (SELECT json_build_object('seat', m.seat, 'kind', m.kind, 'at', coalesce(m.played_at, m.created_at))::text
               FROM game_moves m WHERE m.game_id = p.game_id AND m.move_no = g.move_count - 1) AS last_move
         FROM (SELECT game_id, seat, invited, last_activity FROM game_players p WHERE {cond}
               ORDER BY p.last_activity DESC, p.game_id DESC LIMIT $5) p
         JOIN games g ON g.game_id = p.game_id
         ORDER BY p.last_activity DESC, p.game_id DESC"
    )
}

/// The list's arguments, bound in the order [`my_games_sql`] numbers them.
fn bind_my_games<'q>(
    query: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    account_id: Uuid,
    filter: MyGamesFilter,
    after: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    query.bind(account_id).bind(filter.status.map(GameStatus::id)).bind(after.map(|a| a.0)).bind(after.map(|a| a.1)).bind(limit)
}

impl Store {
    /// The games `account_id` sits in (or is invited to), matching `filter`, most recent
    /// activity first: at most `limit`, from just after `after` (the last activity and id of the
    /// previous page's last game), so pages stay stable while games are added or move.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn my_games(
        &self,
        account_id: Uuid,
        filter: MyGamesFilter,
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<Vec<MyGame>, StoreError> {
        let sql = my_games_sql(filter, after.is_some());
        let rows = bind_my_games(sqlx::query(&sql), account_id, filter, after, limit).fetch_all(&self.pool).await?;
        let corrupt = |what: &str, e: serde_json::Error| StoreError::Corrupt(format!("{what}: {e}"));
        rows.iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                let seats: String = r.try_get("seats")?;
                let last_move: Option<String> = r.try_get("last_move")?;
                Ok(MyGame {
                    game_id: r.try_get("game_id")?,
                    variant: crate::games::variant_of(r)?,
                    status: GameStatus::parse(&status)?,
                    move_count: r.try_get::<i32, _>("move_count")? as u32,
                    turn_deadline: r.try_get("turn_deadline")?,
                    time_control: crate::games::time_control_of(r)?,
                    challenge_rule: crate::games::challenge_of(r)?,
                    rated: r.try_get("rated")?,
                    tournament_id: r.try_get("tournament_id")?,
                    last_activity: r.try_get("last_activity")?,
                    seat: r.try_get::<i16, _>("seat")? as usize,
                    invited: r.try_get("invited")?,
                    rematch_of: r.try_get("rematch_of")?,
                    seats: serde_json::from_str(&seats).map_err(|e| corrupt("seats", e))?,
                    last_move: last_move.map(|m| serde_json::from_str(&m)).transpose().map_err(|e| corrupt("last move", e))?,
                })
            })
            .collect()
    }

    /// The plan PostgreSQL runs for [`Store::my_games`] with these arguments, executed
    /// (`EXPLAIN (ANALYZE, BUFFERS)`): for measuring the list over a large table.
    ///
    /// # Errors
    /// Database errors.
    pub async fn explain_my_games(
        &self,
        account_id: Uuid,
        filter: MyGamesFilter,
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<String, StoreError> {
        let sql = format!("EXPLAIN (ANALYZE, BUFFERS) {}", my_games_sql(filter, after.is_some()));
        let rows = bind_my_games(sqlx::query(&sql), account_id, filter, after, limit).fetch_all(&self.pool).await?;
        let lines = rows.iter().map(|r| r.try_get::<String, _>(0)).collect::<Result<Vec<_>, _>>()?;
        Ok(lines.join("\n"))
    }
}
