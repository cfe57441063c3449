//! The ports on PostgreSQL: [`Store`] keeps the games, the accounts and the tournaments;
//! [`GameTx`] is a change to one game, [`TournamentTx`] to one tournament.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use games::{Speed, Variant};
use store::{Account, ClientMove, DrawRow, DrawnBy, GameRecord, GameTx, GameUpdate, KeyedPick, KnownGame, NewGame, NewMove};
use store::{NewTournament, RatingWrite, Store, StoreError, StoredRating, TournamentRecord, TournamentSummary, TournamentTx};
use uuid::Uuid;

use super::{AccountStore, GameChange, GameEdit, GameStore, TournamentChange, TournamentEdit, TournamentStore};

#[async_trait]
impl AccountStore for Store {
    async fn account(&self, id: Uuid) -> Result<Account, StoreError> {
        Store::account(self, id).await
    }

    async fn ensure_human(&self, id: Uuid, display_name: &str) -> Result<Account, StoreError> {
        Store::ensure_human(self, id, display_name).await
    }

    async fn ratings_of(&self, account: Uuid) -> Result<Vec<StoredRating>, StoreError> {
        Store::ratings_of(self, account).await
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

    async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameEdit, StoreError> {
        Ok(Box::new(self.lock_game_since(id, client_move_id, known).await?))
    }

    async fn read_game_for_move(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameEdit, StoreError> {
        Ok(Box::new(Store::read_game_for_move(self, id, client_move_id, known).await?))
    }

    async fn create_game(&self, game: &NewGame) -> Result<GameEdit, StoreError> {
        Ok(Box::new(Store::create_game(self, game).await?))
    }

    async fn unscored_games(&self, tournament: Option<Uuid>, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        Store::unscored_games(self, tournament, limit).await
    }

    async fn record_winners(&self, game_id: Uuid, winners: &[u8]) -> Result<(), StoreError> {
        Store::record_winners(self, game_id, winners).await
    }
}

#[async_trait]
impl TournamentStore for Store {
    async fn create_tournament(&self, t: &NewTournament) -> Result<(), StoreError> {
        Store::create_tournament(self, t).await
    }

    async fn tournament(&self, id: Uuid) -> Result<TournamentRecord, StoreError> {
        Store::tournament(self, id).await
    }

    async fn tournaments(&self, account: Option<Uuid>, limit: u32) -> Result<Vec<TournamentSummary>, StoreError> {
        Store::tournaments(self, account, limit).await
    }

    async fn tournament_for_change(&self, id: Uuid) -> Result<TournamentEdit, StoreError> {
        Ok(Box::new(Store::tournament_for_change(self, id).await?))
    }
}

#[async_trait]
impl TournamentChange for TournamentTx {
    fn tournament(&self) -> &TournamentRecord {
        &self.tournament
    }

    async fn register(&mut self, account: Uuid, rating: i32, now: DateTime<Utc>) -> Result<u32, StoreError> {
        TournamentTx::register(self, account, rating, now).await
    }

    async fn invite(&mut self, account: Uuid, now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::invite(self, account, now).await
    }

    async fn answer_invitation(&mut self, account: Uuid, accepted: bool, now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::answer_invitation(self, account, accepted, now).await
    }

    async fn reenter(&mut self, player_no: u32) -> Result<(), StoreError> {
        TournamentTx::reenter(self, player_no).await
    }

    async fn withdraw(&mut self, player_no: u32) -> Result<(), StoreError> {
        TournamentTx::withdraw(self, player_no).await
    }

    async fn pair(&mut self, round: u32, pairings: &[(u32, Option<u32>)], now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::pair(self, round, pairings, now).await
    }

    async fn start_round(&mut self, games: &[(u32, NewGame)], now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::start_round(self, games, now).await
    }

    async fn forfeit(&mut self, round: u32, table: u32, side: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::forfeit(self, round, table, side, now).await
    }

    async fn close(&mut self, now: DateTime<Utc>) -> Result<(), StoreError> {
        TournamentTx::close(self, now).await
    }

    async fn commit(self: Box<Self>) -> Result<TournamentRecord, StoreError> {
        TournamentTx::commit(*self).await
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
