//! A tournament game's manual draw, a pick at a time in the locked game: each pick is a row of
//! the recorded draw (with its idempotency key and who drew it), and once a leader emerges the
//! seats are put in the draw's order before the game starts.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{DrawRow, GameTx};
use crate::StoreError;

/// Who drew a manual pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawnBy {
    /// The player, by their own call.
    Player,
    /// The tournament's director, for the player.
    Director,
    /// The server's default draw, past the deadline.
    Server,
}

impl DrawnBy {
    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            DrawnBy::Player => "player",
            DrawnBy::Director => "director",
            DrawnBy::Server => "server",
        }
    }
}

/// A pick already recorded under the idempotency key a draw request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedPick {
    /// The hash of the request that drew it.
    pub request_hash: Option<Vec<u8>>,
}

impl GameTx {
    /// The pick recorded under `key`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub async fn keyed_pick(&mut self, key: Uuid) -> Result<Option<KeyedPick>, StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        let hash: Option<Option<Vec<u8>>> =
            sqlx::query_scalar("SELECT request_hash FROM game_setup_draws WHERE game_id = $1 AND client_draw_id = $2")
                .bind(game_id)
                .bind(key)
                .fetch_optional(&mut **tx)
                .await?;
        Ok(hash.map(|request_hash| KeyedPick { request_hash }))
    }

    /// Records one pick of the manual draw; the loaded record follows. With `touch`, the game
    /// row is rewritten too (its version changes, so readers holding the game see the pick);
    /// a pick that ends the draw leaves that to the start's write.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for a key used twice; database errors.
    pub async fn record_pick(
        &mut self,
        pick: &DrawRow,
        key: Option<(Uuid, [u8; 32])>,
        drawn_by: DrawnBy,
        now: DateTime<Utc>,
        touch: bool,
    ) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query(
            "INSERT INTO game_setup_draws (game_id, round, pick_no, account_id, letter, is_blank, rank, client_draw_id, request_hash, drawn_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(game_id)
        .bind(pick.round)
        .bind(pick.pick_no)
        .bind(pick.account_id)
        .bind(&pick.letter)
        .bind(pick.is_blank)
        .bind(pick.rank)
        .bind(key.map(|k| k.0))
        .bind(key.map(|k| k.1.to_vec()))
        .bind(drawn_by.id())
        .bind(now)
        .execute(&mut **tx)
        .await?;
        if touch {
            sqlx::query("UPDATE games SET updated_at = $2 WHERE game_id = $1").bind(game_id).bind(now).execute(&mut **tx).await?;
        }
        self.game.draws.push(pick.clone());
        Ok(())
    }

    /// Seats `accounts` in this order, seat 0 first (the draw's leader first), before the game
    /// starts; the loaded record follows.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] unless `accounts` are the game's players; database errors.
    pub async fn reseat(&mut self, accounts: &[Uuid]) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let mut players: Vec<_> = self.game.players.clone();
        let mut seated: Vec<Uuid> = players.iter().filter_map(|p| p.account.as_ref().map(|a| a.account_id)).collect();
        let mut wanted = accounts.to_vec();
        seated.sort_unstable();
        wanted.sort_unstable();
        if seated != wanted {
            return Err(StoreError::Corrupt(format!("game {game_id}: reseating other players")));
        }
        let tx = self.locked().await?;
        // Seats' accounts are unique per game: empty them all, then fill them in order.
        sqlx::query("UPDATE game_players SET account_id = NULL WHERE game_id = $1").bind(game_id).execute(&mut **tx).await?;
        let seats: Vec<i16> = (0..accounts.len() as i16).collect();
        sqlx::query(
            "UPDATE game_players p SET account_id = x.a FROM UNNEST($2::smallint[], $3::uuid[]) AS x(s, a) WHERE p.game_id = $1 AND p.seat = x.s",
        )
        .bind(game_id)
        .bind(&seats)
        .bind(accounts)
        .execute(&mut **tx)
        .await?;
        let by_account =
            |id: Uuid| players.iter().find(|p| p.account.as_ref().is_some_and(|a| a.account_id == id)).and_then(|p| p.account.clone());
        let reseated: Vec<_> = accounts.iter().map(|id| by_account(*id)).collect();
        for (player, account) in players.iter_mut().zip(reseated) {
            player.account = account;
        }
        self.game.players = players;
        Ok(())
    }
}
