//! The game read for a change: locked, or read without a lock and written only while unchanged;
//! the changes made in it before its write.

use chrono::{DateTime, Utc};
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::read::load;
use super::{ClientMove, GameRecord, KnownGame};
use crate::accounts::Account;
use crate::{Conflict, GameStatus, Store, StoreError};

impl Store {
    /// Begins a change: locks the game row (`SELECT … FOR UPDATE`) and loads it, so concurrent
    /// changes to one game run one after another (a submit read without the lock waits for it
    /// at its write, then finds the game changed). With `client_move_id`, also finds the move
    /// already recorded under that id, if any ([`GameTx::client_move`]).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>) -> Result<GameTx, StoreError> {
        self.lock_game_since(id, client_move_id, None).await
    }

    /// [`Store::lock_game`], with the journal and draw taken from `known` when the game is
    /// still at its version.
    ///
    /// # Errors
    /// As [`Store::lock_game`].
    pub async fn lock_game_since(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameTx, StoreError> {
        // BEGIN and the lock go in one simple query, one round trip; the id is a UUID, printed
        // as hex and dashes only. Lock first, then load in a new statement: under READ COMMITTED
        // a statement that waited for the lock re-reads only the locked row, so the journal must
        // be read after it. An unknown id locks nothing and the load reports it.
        let mut tx = begin_locked(&self.pool, id).await?;
        let (game, client_move) = load(&mut tx, id, client_move_id, known).await?;
        Ok(GameTx { conn: Held::Locked(tx), game, client_move })
    }

    /// Begins a move without a lock: loads the game and gives its connection back to the pool
    /// at once, so no connection is held while the move is checked and played out (a robot's
    /// thinking included); the write takes a connection again and applies, in one statement,
    /// only if the game is still as loaded (its row version); otherwise [`GameTx::finish`]
    /// writes nothing and reports a conflict, and the caller reads the game again. Two round
    /// trips for a move in all, against four with [`Store::lock_game`]; the lock is for writers
    /// that change several statements' worth. The journal and draw come from `known` when the
    /// game is still at its version.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn read_game_for_move(
        &self,
        id: Uuid,
        client_move_id: Option<Uuid>,
        known: Option<&KnownGame>,
    ) -> Result<GameTx, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let (game, client_move) = load(&mut conn, id, client_move_id, known).await?;
        drop(conn);
        Ok(GameTx { conn: Held::Unlocked { pool: self.pool.clone() }, game, client_move })
    }
}

/// A game read for a change: read it, append moves, update it, commit. Dropped without
/// [`GameTx::finish`] (or [`GameTx::withdraw`]), nothing is written.
pub struct GameTx {
    pub(super) conn: Held,
    /// The game as loaded.
    pub game: GameRecord,
    /// The move already recorded under the client move id the game was read with.
    pub client_move: Option<ClientMove>,
}

/// How a [`GameTx`] holds its connection.
pub(super) enum Held {
    /// In a transaction holding the game row's lock.
    Locked(Transaction<'static, Postgres>),
    /// Without a transaction, and without a connection until the write, which checks the
    /// version instead.
    Unlocked {
        /// The pool the write (or a transaction begun later) takes its connection from.
        pool: sqlx::PgPool,
    },
}

impl GameTx {
    /// The transaction with the game row locked, begun now if the game was read without a lock
    /// (then [`StoreError::Conflict`] if the game has changed since).
    pub(super) async fn locked(&mut self) -> Result<&mut Transaction<'static, Postgres>, StoreError> {
        if let Held::Unlocked { pool, .. } = &self.conn {
            let pool = pool.clone();
            let id = self.game.game_id;
            let mut tx = begin_locked(&pool, id).await?;
            let version: Option<String> =
                sqlx::query_scalar("SELECT xmin::text FROM games WHERE game_id = $1").bind(id).fetch_optional(&mut *tx).await?;
            if version.as_ref() != Some(&self.game.version) {
                return Err(changed());
            }
            self.conn = Held::Locked(tx);
        }
        match &mut self.conn {
            Held::Locked(tx) => Ok(tx),
            Held::Unlocked { .. } => unreachable!("locked above"),
        }
    }

    /// Seats `account` in the first empty seat and back-fills the placeholder's draw rows with
    /// it; the loaded record follows. Returns the seat.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if no seat is empty or the account is already seated.
    pub async fn fill_open_seat(&mut self, account: &Account) -> Result<usize, StoreError> {
        let seat = self
            .game
            .players
            .iter()
            .find(|p| p.account.is_none())
            .map(|p| p.seat)
            .ok_or_else(|| StoreError::Conflict(Conflict::NoEmptySeat))?;
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query("UPDATE game_players SET account_id = $3 WHERE game_id = $1 AND seat = $2 AND account_id IS NULL")
            .bind(game_id)
            .bind(seat as i16)
            .bind(account.account_id)
            .execute(&mut **tx)
            .await?;
        sqlx::query("UPDATE game_setup_draws SET account_id = $2 WHERE game_id = $1 AND account_id IS NULL")
            .bind(game_id)
            .bind(account.account_id)
            .execute(&mut **tx)
            .await?;
        self.game.players[seat].account = Some(account.clone());
        for d in self.game.draws.iter_mut().filter(|d| d.account_id.is_none()) {
            d.account_id = Some(account.account_id);
        }
        Ok(seat)
    }

    /// How many unfinished games (open or being played) `account` sits in besides this one.
    ///
    /// # Errors
    /// Database errors; [`StoreError::Conflict`] if the game changed since it was read.
    pub async fn unfinished_games_besides(&mut self, account: Uuid) -> Result<u64, StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        let n: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM game_players WHERE account_id = $1 AND game_status IN ('open', 'active') AND game_id <> $2",
        )
        .bind(account)
        .bind(game_id)
        .fetch_one(&mut **tx)
        .await?;
        Ok(n as u64)
    }

    /// Records that the invited account in `seat` accepted; the loaded record follows.
    ///
    /// # Errors
    /// Database errors.
    pub async fn accept_invitation(&mut self, seat: usize) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query("UPDATE game_players SET invited = false WHERE game_id = $1 AND seat = $2")
            .bind(game_id)
            .bind(seat as i16)
            .execute(&mut **tx)
            .await?;
        self.game.players[seat].invited = false;
        Ok(())
    }

    /// Writes the game's turn deadline as the clock now puts it (later than stored, after an
    /// outage the clock skips) and commits.
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_deadline(mut self, deadline: Option<DateTime<Utc>>) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query("UPDATE games SET turn_deadline = $2 WHERE game_id = $1").bind(game_id).bind(deadline).execute(&mut **tx).await?;
        if let Held::Locked(tx) = self.conn {
            tx.commit().await?;
        }
        Ok(())
    }

    /// Marks the open game withdrawn (no result, nobody's loss) and commits.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game is no longer open; database errors.
    pub async fn withdraw(mut self) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        let done = sqlx::query(
            "UPDATE games SET status = 'withdrawn', turn_deadline = NULL, updated_at = now() WHERE game_id = $1 AND status = 'open'",
        )
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict(Conflict::NotOpen));
        }
        mark_players(tx, game_id, GameStatus::Withdrawn).await?;
        if let Held::Locked(tx) = self.conn {
            tx.commit().await?;
        }
        Ok(())
    }
}

/// A transaction holding the lock on game `id`'s row: `BEGIN` and the lock in one simple query,
/// one round trip (the id is a UUID, printed as hex and dashes only).
async fn begin_locked(pool: &sqlx::PgPool, id: Uuid) -> Result<Transaction<'static, Postgres>, StoreError> {
    Ok(pool.begin_with(format!("BEGIN; SELECT 1 FROM games WHERE game_id = '{id}' FOR UPDATE")).await?)
}

/// The conflict of a write to a game that changed since it was read.
pub(super) fn changed() -> StoreError {
    StoreError::Conflict(Conflict::Changed)
}

/// Sets the status every seat row of `game_id` lists and marks it as just changed, nobody's turn.
async fn mark_players(conn: &mut sqlx::PgConnection, game_id: Uuid, status: GameStatus) -> Result<(), StoreError> {
    sqlx::query("UPDATE game_players SET game_status = $2, last_activity = now(), my_turn = false WHERE game_id = $1")
        .bind(game_id)
        .bind(status.id())
        .execute(conn)
        .await?;
    Ok(())
}
