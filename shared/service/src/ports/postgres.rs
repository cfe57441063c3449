//! The ports on PostgreSQL: [`Store`] keeps the games and the accounts, [`GameTx`] is a change
//! to one game.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use games::{Speed, Variant};
use store::{Account, ClientMove, DrawRow, DrawnBy, GameRecord, GameTx, GameUpdate, KeyedPick, KnownGame, NewGame, NewMove};
use store::{RatingWrite, Store, StoreError, StoredRating};
use uuid::Uuid;

use super::{AccountStore, Change, GameChange, GameStore};

#[async_trait]
impl AccountStore for Store {
    async fn account(&self, id: Uuid) -> Result<Account, StoreError> {
        Store::account(self, id).await
    }

    async fn ensure_human(&self, id: Uuid, display_name: &str) -> Result<Account, StoreError> {
        Store::ensure_human(self, id, display_name).await
    }
}

#[async_trait]
impl GameStore for Store {
    async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError> {
        Store::game(self, id).await
    }

    async fn game_since(&self, id: Uuid, known: Option<&KnownGame>) -> Result<GameRecord, StoreError> {
        Store::game_since(self, id, known).await
    }

    async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<Change, StoreError> {
        Ok(Box::new(self.lock_game_since(id, client_move_id, known).await?))
    }

    async fn read_game_for_move(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<Change, StoreError> {
        Ok(Box::new(Store::read_game_for_move(self, id, client_move_id, known).await?))
    }

    async fn create_game(&self, game: &NewGame) -> Result<Change, StoreError> {
        Ok(Box::new(Store::create_game(self, game).await?))
    }
}

#[async_trait]
impl GameChange for GameTx {
    fn game(&self) -> &GameRecord {
        &self.game
    }

    fn game_mut(&mut self) -> &mut GameRecord {
        &mut self.game
    }

    fn client_move(&self) -> Option<&ClientMove> {
        self.client_move.as_ref()
    }

    async fn lock_ratings(
        &mut self,
        accounts: &[Uuid],
        variant: Variant,
        speed: Speed,
        defaults: (f64, f64, f64),
        now: DateTime<Utc>,
    ) -> Result<Vec<StoredRating>, StoreError> {
        GameTx::lock_ratings(self, accounts, variant, speed, defaults, now).await
    }

    async fn rated_games_between(&mut self, a: Uuid, b: Uuid, since: DateTime<Utc>) -> Result<u32, StoreError> {
        GameTx::rated_games_between(self, a, b, since).await
    }

    async fn limit_to_casual(&mut self) -> Result<(), StoreError> {
        GameTx::limit_to_casual(self).await
    }

    async fn finish(self: Box<Self>, moves: &[NewMove], update: &GameUpdate, ratings: &[RatingWrite]) -> Result<KnownGame, StoreError> {
        self.finish_rated(moves, update, ratings).await
    }

    async fn fill_open_seat(&mut self, account: &Account) -> Result<usize, StoreError> {
        GameTx::fill_open_seat(self, account).await
    }

    async fn unfinished_games_besides(&mut self, account: Uuid) -> Result<u64, StoreError> {
        GameTx::unfinished_games_besides(self, account).await
    }

    async fn accept_invitation(&mut self, seat: usize) -> Result<(), StoreError> {
        GameTx::accept_invitation(self, seat).await
    }

    async fn renew_deadline(self: Box<Self>, deadline: Option<DateTime<Utc>>) -> Result<(), StoreError> {
        GameTx::renew_deadline(*self, deadline).await
    }

    async fn withdraw(self: Box<Self>) -> Result<(), StoreError> {
        GameTx::withdraw(*self).await
    }

    async fn keyed_pick(&mut self, key: Uuid) -> Result<Option<KeyedPick>, StoreError> {
        GameTx::keyed_pick(self, key).await
    }

    async fn record_pick(
        &mut self,
        pick: &DrawRow,
        key: Option<(Uuid, [u8; 32])>,
        drawn_by: DrawnBy,
        now: DateTime<Utc>,
        touch: bool,
    ) -> Result<(), StoreError> {
        GameTx::record_pick(self, pick, key, drawn_by, now, touch).await
    }

    async fn reseat(&mut self, accounts: &[Uuid]) -> Result<(), StoreError> {
        GameTx::reseat(self, accounts).await
    }
}
