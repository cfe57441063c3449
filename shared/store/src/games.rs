//! Games, their seats and their journal; the locked read-modify-write of a move.

use chrono::{DateTime, Utc};
use engine::{JournalEntry, Variant};
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use crate::accounts::{Account, account_from_row};
use crate::{Store, StoreError};

/// A game's lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// Waiting for players to fill its seats.
    Open,
    /// Being played.
    Active,
    /// Over.
    Finished,
}

impl GameStatus {
    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }

    fn parse(s: &str) -> Result<GameStatus, StoreError> {
        match s {
            "open" => Ok(GameStatus::Open),
            "active" => Ok(GameStatus::Active),
            "finished" => Ok(GameStatus::Finished),
            other => Err(StoreError::Corrupt(format!("game status {other:?}"))),
        }
    }
}

/// A seat and who holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The seat, 0-based.
    pub seat: usize,
    /// The account in it; `None` while the seat is open.
    pub account: Option<Account>,
}

/// A game as stored, with its seats and journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The bag's seed.
    pub seed: u64,
    /// Number of seats.
    pub seats: usize,
    /// Whether the no-repeat-words rule applies, pinned at creation.
    pub no_repeat_words: bool,
    /// Lifecycle state.
    pub status: GameStatus,
    /// Journal length.
    pub move_count: u32,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// When the current turn times out.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// Why it ended: went_out, scoreless_turns or resigned.
    pub end_reason: Option<String>,
    /// Seats in order.
    pub players: Vec<Player>,
    /// The journal in order.
    pub journal: Vec<JournalEntry>,
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The bag's seed.
    pub seed: u64,
    /// Whether the no-repeat-words rule applies.
    pub no_repeat_words: bool,
    /// Initial status.
    pub status: GameStatus,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// The first turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// The account in each seat, seat 0 first (`None` = open).
    pub seats: Vec<Option<Uuid>>,
}

/// The columns of `games` a move changes.
#[derive(Debug, Clone)]
pub struct GameUpdate {
    /// New journal length.
    pub move_count: u32,
    /// New status.
    pub status: GameStatus,
    /// The next turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// Why the game ended, if it just did.
    pub end_reason: Option<String>,
}

const GAME_COLUMNS: &str = "game_id, variant, seed, seats, no_repeat_words, status, move_count, turn_seconds, turn_deadline, created_at, updated_at, finished_at, end_reason";

impl Store {
    /// Inserts a game and its seats in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists or an account is seated twice; database errors.
    pub async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, turn_seconds, turn_deadline)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(game.game_id)
        .bind(game.variant.id())
        .bind(game.seed as i64)
        .bind(game.seats.len() as i16)
        .bind(game.no_repeat_words)
        .bind(game.status.id())
        .bind(game.turn_seconds)
        .bind(game.turn_deadline)
        .execute(&mut *tx)
        .await?;
        for (seat, account) in game.seats.iter().enumerate() {
            sqlx::query("INSERT INTO game_players (game_id, seat, account_id) VALUES ($1, $2, $3)")
                .bind(game.game_id)
                .bind(seat as i16)
                .bind(account)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The game `id` with its seats and journal.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Corrupt`] for an unreadable journal row.
    pub async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError> {
        let mut conn = self.pool.acquire().await?;
        load(&mut conn, id, false).await
    }

    /// Begins a move: locks the game row (`SELECT … FOR UPDATE`) and loads it, so concurrent
    /// submits to one game run one after another.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn lock_game(&self, id: Uuid) -> Result<GameTx, StoreError> {
        let mut tx = self.pool.begin().await?;
        let game = load(&mut tx, id, true).await?;
        Ok(GameTx { tx, game })
    }
}

async fn load(conn: &mut sqlx::PgConnection, id: Uuid, lock: bool) -> Result<GameRecord, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE game_id = $1{}", if lock { " FOR UPDATE" } else { "" });
    let row = sqlx::query(&sql).bind(id).fetch_one(&mut *conn).await?;
    let variant: String = row.try_get("variant")?;
    let status: String = row.try_get("status")?;
    let seats: i16 = row.try_get("seats")?;
    let move_count: i32 = row.try_get("move_count")?;
    let seed: i64 = row.try_get("seed")?;
    let players = sqlx::query(
        "SELECT p.seat, a.account_id, a.display_name, a.kind, a.robot_level, a.created_at
         FROM game_players p LEFT JOIN accounts a ON a.account_id = p.account_id
         WHERE p.game_id = $1 ORDER BY p.seat",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| {
        let seat: i16 = r.try_get("seat")?;
        let account_id: Option<Uuid> = r.try_get("account_id")?;
        Ok(Player { seat: seat as usize, account: account_id.map(|_| account_from_row(r, "")).transpose()? })
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    let journal = sqlx::query("SELECT move_no, entry FROM game_moves WHERE game_id = $1 ORDER BY move_no")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| {
            let value: serde_json::Value = r.try_get("entry")?;
            serde_json::from_value(value).map_err(|e| StoreError::Corrupt(format!("journal entry: {e}")))
        })
        .collect::<Result<Vec<JournalEntry>, StoreError>>()?;
    Ok(GameRecord {
        game_id: row.try_get("game_id")?,
        variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
        seed: seed as u64,
        seats: seats as usize,
        no_repeat_words: row.try_get("no_repeat_words")?,
        status: GameStatus::parse(&status)?,
        move_count: move_count as u32,
        turn_seconds: row.try_get("turn_seconds")?,
        turn_deadline: row.try_get("turn_deadline")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get("finished_at")?,
        end_reason: row.try_get("end_reason")?,
        players,
        journal,
    })
}

/// A locked game: read it, append moves, update it, commit. Dropped without commit, nothing
/// is written.
pub struct GameTx {
    tx: Transaction<'static, Postgres>,
    /// The game as loaded under the lock.
    pub game: GameRecord,
}

impl GameTx {
    /// The move number recorded with `client_move_id`, if that move was already applied.
    ///
    /// # Errors
    /// Database errors.
    pub async fn client_move(&mut self, client_move_id: Uuid) -> Result<Option<u32>, StoreError> {
        let row = sqlx::query("SELECT move_no FROM game_moves WHERE game_id = $1 AND client_move_id = $2")
            .bind(self.game.game_id)
            .bind(client_move_id)
            .fetch_optional(&mut *self.tx)
            .await?;
        Ok(row.map(|r| r.get::<i32, _>("move_no") as u32))
    }

    /// Appends a journal entry (at its own `move_no`).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the move number or client move id is taken; database errors.
    pub async fn append(&mut self, entry: &JournalEntry, client_move_id: Option<Uuid>) -> Result<(), StoreError> {
        let (tiles, words) = match &entry.action {
            engine::Action::Play { tiles, words, .. } => (serde_json::to_value(tiles), serde_json::to_value(words)),
            engine::Action::Exchange { tiles } => (serde_json::to_value(tiles), Ok(serde_json::json!([]))),
            _ => (Ok(serde_json::json!([])), Ok(serde_json::json!([]))),
        };
        let corrupt = |e: serde_json::Error| StoreError::Corrupt(e.to_string());
        sqlx::query(
            "INSERT INTO game_moves (game_id, move_no, seat, kind, tiles, words, score, entry, client_move_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(self.game.game_id)
        .bind(entry.move_no as i32)
        .bind(i16::from(entry.seat.0))
        .bind(entry.action.kind())
        .bind(tiles.map_err(corrupt)?)
        .bind(words.map_err(corrupt)?)
        .bind(entry.score)
        .bind(serde_json::to_value(entry).map_err(corrupt)?)
        .bind(client_move_id)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Updates the game row after its moves.
    ///
    /// # Errors
    /// Database errors.
    pub async fn update(&mut self, update: &GameUpdate) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET move_count = $2, status = $3, turn_deadline = $4, end_reason = $5, updated_at = now(),
                 finished_at = CASE WHEN $3 = 'finished' THEN coalesce(finished_at, now()) ELSE NULL END
             WHERE game_id = $1",
        )
        .bind(self.game.game_id)
        .bind(update.move_count as i32)
        .bind(update.status.id())
        .bind(update.turn_deadline)
        .bind(update.end_reason.as_deref())
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Commits everything.
    ///
    /// # Errors
    /// Database errors (the transaction is then rolled back).
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        Ok(())
    }
}
