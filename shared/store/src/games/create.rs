//! Creating a game: the row, its seats and its draw, in a transaction left open for the moves
//! that follow at once.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use vocabulary::{TimeControl, Variant};

use super::DrawRow;
use super::read::load;
use super::transaction::{GameTx, Held};
use crate::{GameStatus, Store, StoreError};

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The bag's seed.
    pub seed: u64,
    /// Tile family: whether the no-repeat-words rule applies.
    pub no_repeat_words: Option<bool>,
    /// The family's setup as data (JSON).
    pub setup: String,
    /// Initial status.
    pub status: GameStatus,
    /// How it is timed.
    pub time_control: TimeControl,
    /// The first turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it starts, if it is active at once (its clock starts then).
    pub started_at: Option<DateTime<Utc>>,
    /// When it is created, by the service's clock (the sweep expires open games by it).
    pub created_at: DateTime<Utc>,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Seats whose account is invited (the other humans): seated, but the game waits for them
    /// to accept.
    pub invited: Vec<bool>,
    /// Who sent the invitations, when some seat is invited.
    pub invited_by: Option<Uuid>,
    /// Whether the game is rated (two humans only: the service checks).
    pub rated: bool,
    /// A rated open game's acceptable distance of a joiner's rating, ± points (none: anyone).
    pub rating_range: Option<u32>,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// A drawing game's deadline for its players' draws.
    pub draw_deadline: Option<DateTime<Utc>>,
    /// Hints each seat may take (0 to 20); `None`: as many as it likes.
    pub hints_allowed: Option<u8>,
    /// The account in each seat, seat 0 first (`None` = open).
    pub seats: Vec<Option<Uuid>>,
    /// The first-move draw, every tile drawn.
    pub draws: Vec<DrawRow>,
    /// The caps the creator's account is held to, checked under a lock on its row; `None`
    /// checks nothing (a game the service makes on nobody's request).
    pub limits: Option<Limits>,
}

/// What one account may have at once, checked as a game is created for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The account creating the game (seated in it).
    pub account: Uuid,
    /// Unfinished games (open or being played) it may sit in, this one included.
    pub unfinished: u32,
    /// For a lobby game: open lobby games of the variant it may have, this one included
    /// (invitations to it are not counted).
    pub open: Option<u32>,
    /// For an invitation: pending invitations from it that each invitee may hold, this one
    /// included.
    pub invitations: Option<u32>,
}

impl Store {
    /// Begins a new game: inserts it with its seats and draw in a transaction that stays open,
    /// so the moves that follow at once (a robot that won the draw) commit with it
    /// ([`GameTx::finish`]); dropped without finishing, nothing is written.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists or an account is seated twice;
    /// [`StoreError::TooManyGames`], [`StoreError::TooManyOpenGames`] or
    /// [`StoreError::TooManyInvitations`] past [`NewGame::limits`]; database errors.
    pub async fn create_game(&self, game: &NewGame) -> Result<GameTx, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(limits) = &game.limits {
            check_limits(&mut tx, game, limits).await?;
        }
        insert_game(&mut tx, game).await?;
        let (game, _) = load(&mut tx, game.game_id, None, None).await?;
        Ok(GameTx { conn: Held::Locked(tx), game, client_move: None })
    }
}

/// Inserts `game` with its seats and draw on `conn` (in the caller's transaction).
pub(crate) async fn insert_game(conn: &mut sqlx::PgConnection, game: &NewGame) -> Result<(), StoreError> {
    sqlx::query(
            "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, turn_seconds, turn_deadline, setup, created_at, updated_at, rematch_of, invited_by, time_control, started_at, rated, rating_range, tournament_id, draw_deadline, hints_allowed)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json, $10, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $18, $19)",
        )
        .bind(game.game_id)
        .bind(game.variant.id())
        .bind(game.seed as i64)
        .bind(game.seats.len() as i16)
        .bind(game.no_repeat_words)
        .bind(game.status.id())
        .bind(legacy_turn_seconds(game.time_control))
        .bind(game.turn_deadline)
        .bind(&game.setup)
        .bind(game.created_at)
        .bind(game.rematch_of)
        .bind(game.invited_by)
        .bind(serde_json::to_string(&game.time_control).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .bind(game.started_at)
        .bind(game.rated)
        .bind(game.rating_range.map(|r| i32::try_from(r).unwrap_or(i32::MAX)))
        .bind(game.tournament_id)
        .bind(game.draw_deadline)
        .bind(game.hints_allowed.map(i16::from))
        .execute(&mut *conn)
        .await?;
    let seats: Vec<i16> = (0..game.seats.len() as i16).collect();
    sqlx::query(
        "INSERT INTO game_players (game_id, seat, account_id, game_status, invited)
             SELECT $1, s, a, $4, coalesce(($5::bool[])[s + 1], false) FROM UNNEST($2::smallint[], $3::uuid[]) AS x(s, a)",
    )
    .bind(game.game_id)
    .bind(&seats)
    .bind(&game.seats)
    .bind(game.status.id())
    .bind(&game.invited)
    .execute(&mut *conn)
    .await?;
    let d = &game.draws;
    sqlx::query(
            "INSERT INTO game_setup_draws (game_id, round, pick_no, account_id, letter, is_blank, rank)
             SELECT $1, r, p, a, l, b, k FROM UNNEST($2::smallint[], $3::smallint[], $4::uuid[], $5::text[], $6::bool[], $7::smallint[]) AS x(r, p, a, l, b, k)",
        )
        .bind(game.game_id)
        .bind(d.iter().map(|d| d.round).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.pick_no).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.account_id).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.letter.clone()).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.is_blank).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.rank).collect::<Vec<_>>())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Refuses a game past the creator's [`Limits`]. The creator's account row is the lock: two
/// concurrent creations by one account are counted in turn.
async fn check_limits(tx: &mut sqlx::PgConnection, game: &NewGame, limits: &Limits) -> Result<(), StoreError> {
    sqlx::query("SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE").bind(limits.account).fetch_one(&mut *tx).await?;
    let unfinished: i64 =
        sqlx::query_scalar("SELECT count(*) FROM game_players WHERE account_id = $1 AND game_status IN ('open', 'active')")
            .bind(limits.account)
            .fetch_one(&mut *tx)
            .await?;
    if unfinished >= i64::from(limits.unfinished) {
        return Err(StoreError::TooManyGames { limit: limits.unfinished });
    }
    if let Some(limit) = limits.open {
        // Lobby games only: those with a seat nobody holds yet.
        let open: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM game_players p JOIN games g ON g.game_id = p.game_id
             WHERE p.account_id = $1 AND NOT p.invited AND g.status = 'open' AND g.variant = $2
               AND EXISTS (SELECT 1 FROM game_players e WHERE e.game_id = g.game_id AND e.account_id IS NULL)",
        )
        .bind(limits.account)
        .bind(game.variant.id())
        .fetch_one(&mut *tx)
        .await?;
        if open >= i64::from(limit) {
            return Err(StoreError::TooManyOpenGames { limit });
        }
    }
    if let Some(limit) = limits.invitations {
        let invitees: Vec<Uuid> = game.seats.iter().zip(&game.invited).filter(|(_, invited)| **invited).filter_map(|(a, _)| *a).collect();
        // The most pending invitations from this inviter that any of the invitees holds.
        let held: Option<(Uuid, i64)> = sqlx::query_as(
            "SELECT p.account_id, count(*) FROM game_players p JOIN games g ON g.game_id = p.game_id
             WHERE p.account_id = ANY($1) AND p.invited AND g.status = 'open' AND g.invited_by = $2
             GROUP BY p.account_id ORDER BY count(*) DESC, p.account_id LIMIT 1",
        )
        .bind(&invitees)
        .bind(limits.account)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((invitee, _)) = held.filter(|(_, n)| *n >= i64::from(limit)) {
            return Err(StoreError::TooManyInvitations { limit, invitee });
        }
    }
    Ok(())
}

/// The `turn_seconds` column the release before time controls reads: a correspondence game's
/// turn limit (its bank unknown to that release), nothing for other controls.
fn legacy_turn_seconds(control: TimeControl) -> Option<i32> {
    match control {
        TimeControl::Correspondence { turn_seconds, .. } => i32::try_from(turn_seconds).ok(),
        _ => None,
    }
}
