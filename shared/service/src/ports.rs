//! The store's ports: what the use cases ask of a game's storage, as traits. The service runs
//! them on PostgreSQL ([`store::Store`] and [`store::GameTx`], in `postgres`); the use cases'
//! unit tests run them on memory ([`MemoryStore`]), so a move, a rated end or an invitation is
//! tested without a database.
//!
//! Two ports: the games ([`GameStore`]: reading a game, changing one — its moves, its seats,
//! its draw, a rated end's ratings — and creating one) and the accounts the games seat
//! ([`AccountStore`]). Tournaments, push connections, ratings' reads and the admin's reads stay
//! on [`store::Store`].

mod memory;
mod postgres;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use games::{Speed, Variant};
use store::{Account, ClientMove, DrawRow, DrawnBy, GameRecord, GameUpdate, KeyedPick, KnownGame, NewGame, NewMove};
use store::{RatingWrite, StoreError, StoredRating};
use uuid::Uuid;

pub use memory::MemoryStore;

/// A change to one game, begun by [`GameStore`]: dropped without [`GameChange::finish`] (or
/// [`GameChange::withdraw`], [`GameChange::renew_deadline`]), nothing is written.
pub type Change = Box<dyn GameChange>;

/// Where accounts are kept, as the games' use cases read them.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// The account `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; storage errors.
    async fn account(&self, id: Uuid) -> Result<Account, StoreError>;

    /// The human account `id`, made now if new, its name set to `display_name`.
    ///
    /// # Errors
    /// [`store::Conflict::RobotIdentity`] if `id` is a robot's; storage errors.
    async fn ensure_human(&self, id: Uuid, display_name: &str) -> Result<Account, StoreError>;
}

/// Where games are kept: read, begun for a change, created.
#[async_trait]
pub trait GameStore: Send + Sync {
    /// Game `id` read whole.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; storage errors.
    async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError>;

    /// Game `id`, its journal and draw taken from `known` while the game is at its version.
    ///
    /// # Errors
    /// As [`GameStore::game`].
    async fn game_since(&self, id: Uuid, known: Option<&KnownGame>) -> Result<GameRecord, StoreError>;

    /// Game `id` locked for a change (changes to one game run one after another), with the
    /// move recorded under `client_move_id`, if any.
    ///
    /// # Errors
    /// As [`GameStore::game`].
    async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<Change, StoreError>;

    /// Game `id` read for a change without a lock: the change's write applies only while the
    /// game is as read, else it is [`store::Conflict::Changed`].
    ///
    /// # Errors
    /// As [`GameStore::game`].
    async fn read_game_for_move(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<Change, StoreError>;

    /// A new game, begun as a change so the moves that follow at once are written with it.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for an id taken or an account seated twice; the limits of
    /// [`NewGame::limits`] ([`StoreError::TooManyGames`] and the like); storage errors.
    async fn create_game(&self, game: &NewGame) -> Result<Change, StoreError>;
}

/// A game being changed: the record as read (kept up to date by each step) and the steps.
#[async_trait]
pub trait GameChange: Send {
    /// The game as read, with this change's steps so far.
    fn game(&self) -> &GameRecord;

    /// The same, to set what the service derives on it (the clock's deadline).
    fn game_mut(&mut self) -> &mut GameRecord;

    /// The move already recorded under the client move id the game was read with.
    fn client_move(&self) -> Option<&ClientMove>;

    /// The ratings of `accounts` in `variant` at `speed`, held until this change ends (a
    /// newcomer's made first, at `defaults`, as of `now`), in the order of `accounts`.
    ///
    /// # Errors
    /// [`store::Conflict::Changed`] if the game changed since it was read; storage errors.
    async fn lock_ratings(
        &mut self,
        accounts: &[Uuid],
        variant: Variant,
        speed: Speed,
        defaults: (f64, f64, f64),
        now: DateTime<Utc>,
    ) -> Result<Vec<StoredRating>, StoreError>;

    /// Rated games outside tournaments between `a` and `b` begun since `since`, being played or
    /// rated, this one excluded.
    ///
    /// # Errors
    /// As [`GameChange::lock_ratings`].
    async fn rated_games_between(&mut self, a: Uuid, b: Uuid, since: DateTime<Utc>) -> Result<u32, StoreError>;

    /// Makes this rated game casual: its pair's rated games for the day are used up.
    ///
    /// # Errors
    /// As [`GameChange::lock_ratings`].
    async fn limit_to_casual(&mut self) -> Result<(), StoreError>;

    /// Appends `moves`, sets the game's columns to `update` and writes `ratings` (a rated end),
    /// all at once and only while the game is as read; returns the game as now known.
    ///
    /// # Errors
    /// [`store::Conflict::Changed`] if the game changed since it was read, or a move number or
    /// client move id is taken (nothing written); storage errors.
    async fn finish(self: Box<Self>, moves: &[NewMove], update: &GameUpdate, ratings: &[RatingWrite]) -> Result<KnownGame, StoreError>;

    /// Seats `account` in the first empty seat (its placeholder's draw rows follow); the seat.
    ///
    /// # Errors
    /// [`store::Conflict::NoEmptySeat`]; storage errors.
    async fn fill_open_seat(&mut self, account: &Account) -> Result<usize, StoreError>;

    /// Unfinished games (open or being played) `account` sits in besides this one.
    ///
    /// # Errors
    /// Storage errors.
    async fn unfinished_games_besides(&mut self, account: Uuid) -> Result<u64, StoreError>;

    /// The invitee in `seat` accepted.
    ///
    /// # Errors
    /// Storage errors.
    async fn accept_invitation(&mut self, seat: usize) -> Result<(), StoreError>;

    /// Writes the turn deadline as the clock now puts it, and ends the change.
    ///
    /// # Errors
    /// Storage errors.
    async fn renew_deadline(self: Box<Self>, deadline: Option<DateTime<Utc>>) -> Result<(), StoreError>;

    /// Withdraws the open game (no result), and ends the change.
    ///
    /// # Errors
    /// [`store::Conflict::NotOpen`] if it is no longer open; storage errors.
    async fn withdraw(self: Box<Self>) -> Result<(), StoreError>;

    /// The draw's pick recorded under `key`, if any.
    ///
    /// # Errors
    /// Storage errors.
    async fn keyed_pick(&mut self, key: Uuid) -> Result<Option<KeyedPick>, StoreError>;

    /// Records one pick of the manual draw (with `touch`, the game's version moves too).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for a key used twice; storage errors.
    async fn record_pick(
        &mut self,
        pick: &DrawRow,
        key: Option<(Uuid, [u8; 32])>,
        drawn_by: DrawnBy,
        now: DateTime<Utc>,
        touch: bool,
    ) -> Result<(), StoreError>;

    /// Seats `accounts` in this order, seat 0 first, before the game starts.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] unless `accounts` are the game's players; storage errors.
    async fn reseat(&mut self, accounts: &[Uuid]) -> Result<(), StoreError>;
}
