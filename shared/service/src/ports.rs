//! The store's ports: what the use cases ask of a game's storage, as traits. The service runs
//! them on PostgreSQL ([`store::Store`] and [`store::GameTx`], in `postgres`); the use cases'
//! unit tests run them on memory ([`MemoryStore`]), so a move, a rated end or an invitation is
//! tested without a database.
//!
//! Three ports: the games ([`GameStore`]: reading a game, changing one — its moves, its seats,
//! its draw, a rated end's ratings — creating one, and recording a finished game's winners),
//! the accounts the games seat and their ratings ([`AccountStore`]), and the tournaments
//! ([`TournamentStore`]: a director's or a player's change, a round's games created with it).
//! Push connections, the lobby's, the leaderboard's and the admin's reads stay on
//! [`store::Store`].

mod memory;
mod postgres;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use games::{Speed, Variant};
use store::{Account, ClientMove, DrawRow, DrawnBy, GameRecord, GameUpdate, KeyedPick, KnownGame, NewGame, NewMove};
use store::{NewTournament, RatingWrite, StoreError, StoredRating, TournamentRecord, TournamentSummary};
use uuid::Uuid;

pub use memory::MemoryStore;

/// A change to one game, begun by [`GameStore`]: dropped without [`GameChange::finish`] (or
/// [`GameChange::withdraw`], [`GameChange::renew_deadline`]), nothing is written.
pub type GameEdit = Box<dyn GameChange>;

/// A change to one tournament, begun by [`TournamentStore`]: dropped without
/// [`TournamentChange::commit`], nothing is written.
pub type TournamentEdit = Box<dyn TournamentChange>;

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

    /// The ratings of `account`, one per variant and speed it has played rated.
    ///
    /// # Errors
    /// Storage errors.
    async fn ratings_of(&self, account: Uuid) -> Result<Vec<StoredRating>, StoreError>;
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
    async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameEdit, StoreError>;

    /// Game `id` read for a change without a lock: the change's write applies only while the
    /// game is as read, else it is [`store::Conflict::Changed`].
    ///
    /// # Errors
    /// As [`GameStore::game`].
    async fn read_game_for_move(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameEdit, StoreError>;

    /// A new game, begun as a change so the moves that follow at once are written with it.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] for an id taken or an account seated twice; the limits of
    /// [`NewGame::limits`] ([`StoreError::TooManyGames`] and the like); storage errors.
    async fn create_game(&self, game: &NewGame) -> Result<GameEdit, StoreError>;

    /// Up to `limit` finished games (of `tournament`, when given) with no winners recorded.
    ///
    /// # Errors
    /// Storage errors.
    async fn unscored_games(&self, tournament: Option<Uuid>, limit: i64) -> Result<Vec<Uuid>, StoreError>;

    /// Records the `winners` of finished game `game_id`.
    ///
    /// # Errors
    /// Storage errors.
    async fn record_winners(&self, game_id: Uuid, winners: &[u8]) -> Result<(), StoreError>;
}

/// Where tournaments are kept: created, read, begun for a change.
#[async_trait]
pub trait TournamentStore: Send + Sync {
    /// Creates a tournament, registering nobody.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists; storage errors.
    async fn create_tournament(&self, t: &NewTournament) -> Result<(), StoreError>;

    /// The tournament, its players, pairings (with their games' results) and invitations.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; storage errors.
    async fn tournament(&self, id: Uuid) -> Result<TournamentRecord, StoreError>;

    /// Tournaments, newest first: all, or those `account` is in or invited to; at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn tournaments(&self, account: Option<Uuid>, limit: u32) -> Result<Vec<TournamentSummary>, StoreError>;

    /// The tournament read for a change, changes to it running one after another.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; storage errors.
    async fn tournament_for_change(&self, id: Uuid) -> Result<TournamentEdit, StoreError>;
}

/// A tournament being changed: the record as read, and the steps, written at the commit.
#[async_trait]
pub trait TournamentChange: Send {
    /// The tournament as read.
    fn tournament(&self) -> &TournamentRecord;

    /// Registers `account` as the next player, seeded at `rating`; its number.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if it is registered already; storage errors.
    async fn register(&mut self, account: Uuid, rating: i32, now: DateTime<Utc>) -> Result<u32, StoreError>;

    /// Invites `account`: a new invitation, or a declined one asked again.
    ///
    /// # Errors
    /// Storage errors.
    async fn invite(&mut self, account: Uuid, now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Records `account`'s answer to its invitation.
    ///
    /// # Errors
    /// Storage errors.
    async fn answer_invitation(&mut self, account: Uuid, accepted: bool, now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Takes player `player_no` back after a withdrawal.
    ///
    /// # Errors
    /// Storage errors.
    async fn reenter(&mut self, player_no: u32) -> Result<(), StoreError>;

    /// Withdraws player `player_no`: paired no more, results kept.
    ///
    /// # Errors
    /// Storage errors.
    async fn withdraw(&mut self, player_no: u32) -> Result<(), StoreError>;

    /// Records round `round`'s pairings, table by table, and makes it the latest round.
    ///
    /// # Errors
    /// Storage errors.
    async fn pair(&mut self, round: u32, pairings: &[(u32, Option<u32>)], now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Starts the latest round: creates its games (each `(table, game)`) linked to their tables.
    ///
    /// # Errors
    /// Storage errors.
    async fn start_round(&mut self, games: &[(u32, NewGame)], now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Records a forfeit at a table of round `round` (`first`, `second` or `both`), withdrawing
    /// its game if it was not over.
    ///
    /// # Errors
    /// Storage errors.
    async fn forfeit(&mut self, round: u32, table: u32, side: &str, now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Closes the tournament.
    ///
    /// # Errors
    /// Storage errors.
    async fn close(&mut self, now: DateTime<Utc>) -> Result<(), StoreError>;

    /// Writes the changes and reads the tournament again.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if it changed meanwhile; storage errors.
    async fn commit(self: Box<Self>) -> Result<TournamentRecord, StoreError>;
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
