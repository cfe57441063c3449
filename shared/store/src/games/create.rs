//! Creating a game: the row, its seats and its draw, in a transaction left open for the moves
//! that follow at once.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use vocabulary::Variant;

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
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// The first turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it is created, by the service's clock (the sweep expires open games by it).
    pub created_at: DateTime<Utc>,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Seats whose account is invited (a rematch's other humans): seated, but the game waits
    /// for them to accept.
    pub invited: Vec<bool>,
    /// The account in each seat, seat 0 first (`None` = open).
    pub seats: Vec<Option<Uuid>>,
    /// The first-move draw, every tile drawn.
    pub draws: Vec<DrawRow>,
    /// For an open game: how many open games of the variant its opener (seated in the game) may
    /// have at once, this one included; checked under a lock on the opener's account.
    pub open_limit: Option<u32>,
}

impl Store {
    /// Begins a new game: inserts it with its seats and draw in a transaction that stays open,
    /// so the moves that follow at once (a robot that won the draw) commit with it
    /// ([`GameTx::finish`]); dropped without finishing, nothing is written.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists or an account is seated twice;
    /// [`StoreError::TooManyOpenGames`] past [`NewGame::open_limit`]; database errors.
    pub async fn create_game(&self, game: &NewGame) -> Result<GameTx, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let (Some(limit), Some(opener)) = (game.open_limit, game.seats.iter().flatten().next()) {
            // The account row is the lock: two concurrent opens by one account run in turn.
            sqlx::query("SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE").bind(opener).fetch_one(&mut *tx).await?;
            let open: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM game_players p JOIN games g ON g.game_id = p.game_id
                 WHERE p.account_id = $1 AND g.status = 'open' AND g.variant = $2",
            )
            .bind(opener)
            .bind(game.variant.id())
            .fetch_one(&mut *tx)
            .await?;
            if open >= i64::from(limit) {
                return Err(StoreError::TooManyOpenGames { limit });
            }
        }
        sqlx::query(
            "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, turn_seconds, turn_deadline, setup, created_at, updated_at, rematch_of)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json, $10, $10, $11)",
        )
        .bind(game.game_id)
        .bind(game.variant.id())
        .bind(game.seed as i64)
        .bind(game.seats.len() as i16)
        .bind(game.no_repeat_words)
        .bind(game.status.id())
        .bind(game.turn_seconds)
        .bind(game.turn_deadline)
        .bind(&game.setup)
        .bind(game.created_at)
        .bind(game.rematch_of)
        .execute(&mut *tx)
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
        .execute(&mut *tx)
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
        .execute(&mut *tx)
        .await?;
        let (game, _) = load(&mut tx, game.game_id, None, None).await?;
        Ok(GameTx { conn: Held::Locked(tx), game, client_move: None })
    }
}
