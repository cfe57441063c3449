//! The ports on memory, for the use cases' unit tests: games, their journal rows, the accounts
//! (the three robots' from the start, as the first migration makes them), the ratings and the
//! tournaments (`tournaments`), behind one lock. A change works on its own copy of the game
//! and writes it back at its end, only while the game is still at the version it read (as the
//! PostgreSQL store's version check does): dropped before, it wrote nothing.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use games::{Speed, Variant};
use store::{
    Account, AccountKind, ClientMove, Conflict, DrawRow, DrawnBy, GameRecord, GameStatus, GameUpdate, KeyedPick, KnownGame, NewGame,
};
use store::{Level, NewMove, Player, RatingChange, RatingWrite, SeatRating, Spectating, StoreError, StoredRating};
use strum::VariantArray;
use uuid::Uuid;

mod tournaments;

use super::{AccountStore, GameChange, GameEdit, GameStore};

/// Games and accounts kept in memory (clones share them).
#[derive(Clone)]
pub struct MemoryStore {
    kept: Arc<Mutex<Kept>>,
}

/// What [`MemoryStore`] holds.
#[derive(Default)]
struct Kept {
    games: BTreeMap<Uuid, KeptGame>,
    accounts: BTreeMap<Uuid, Account>,
    tournaments: BTreeMap<Uuid, tournaments::KeptTournament>,
    ratings: Vec<StoredRating>,
    changes: Vec<RatingChange>,
    /// The last version given to a write.
    version: u64,
}

/// One game: its record as a read returns it, its journal rows, the keys of its draw's picks,
/// its seats' scores and, once finished, its winners.
struct KeptGame {
    record: GameRecord,
    moves: Vec<NewMove>,
    picks: Vec<(Uuid, Option<Vec<u8>>)>,
    scores: Vec<i32>,
    winners: Option<Vec<u8>>,
}

impl KeptGame {
    fn new(record: GameRecord) -> KeptGame {
        KeptGame { record, moves: Vec::new(), picks: Vec::new(), scores: Vec::new(), winners: None }
    }
}

impl MemoryStore {
    /// No games, no ratings, and the robots' accounts.
    pub fn new() -> MemoryStore {
        let store = MemoryStore { kept: Arc::default() };
        for &level in Level::VARIANTS {
            store.add_account(Account {
                account_id: store::robot_account(level),
                display_name: format!("Robot ({})", <&str>::from(level)),
                kind: AccountKind::Robot,
                robot_level: Some(level),
                created_at: DateTime::UNIX_EPOCH,
                spectating: Spectating::Standard,
            });
        }
        store
    }

    /// Makes `account` known, for the games created with it.
    pub fn add_account(&self, account: Account) {
        self.lock().accounts.insert(account.account_id, account);
    }

    /// Keeps `record` as a game already written (its version replaced by a fresh one).
    pub fn insert(&self, mut record: GameRecord) {
        let mut kept = self.lock();
        record.version = kept.next_version();
        kept.games.insert(record.game_id, KeptGame::new(record));
    }

    /// Game `id` as last written.
    pub fn record(&self, id: Uuid) -> Option<GameRecord> {
        self.lock().games.get(&id).map(|g| g.record.clone())
    }

    /// The journal rows written to game `id`, in order.
    pub fn moves(&self, id: Uuid) -> Vec<NewMove> {
        self.lock().games.get(&id).map(|g| g.moves.clone()).unwrap_or_default()
    }

    /// The rating kept for `account` in `variant` at `speed`.
    pub fn rating(&self, account: Uuid, variant: Variant, speed: Speed) -> Option<StoredRating> {
        self.lock().ratings.iter().find(|r| (r.account_id, r.variant, r.speed) == (account, variant, speed)).cloned()
    }

    /// Every rating change written, in order.
    pub fn rating_changes(&self) -> Vec<RatingChange> {
        self.lock().changes.clone()
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A change to `record` as read now.
    fn change(&self, record: GameRecord, client_move: Option<ClientMove>, new: bool) -> GameEdit {
        Box::new(MemoryChange {
            games: self.clone(),
            read: record.version.clone(),
            record,
            client_move,
            new,
            picks: Vec::new(),
            result: None,
        })
    }
}

impl Kept {
    /// The record of a game to create, its accounts found, the creator's limit checked.
    fn created(&self, game: &NewGame) -> Result<GameRecord, StoreError> {
        if self.games.contains_key(&game.game_id) {
            return Err(StoreError::Conflict(Conflict::Unique("games_pkey".into())));
        }
        if let Some(limits) = &game.limits {
            let unfinished = self.seated_in(limits.account, game.game_id, &[GameStatus::Open, GameStatus::Active]).count();
            if unfinished >= limits.unfinished as usize {
                return Err(StoreError::TooManyGames { limit: limits.unfinished });
            }
        }
        let mut players = Vec::with_capacity(game.seats.len());
        for (seat, account) in game.seats.iter().enumerate() {
            let account = match account {
                Some(id) => Some(self.accounts.get(id).cloned().ok_or(StoreError::NotFound)?),
                None => None,
            };
            if account.as_ref().is_some_and(|a| players.iter().any(|p: &Player| p.account.as_ref() == Some(a))) {
                return Err(StoreError::Conflict(Conflict::Unique("game_players_account".into())));
            }
            players.push(Player { seat, account, invited: game.invited.get(seat).copied().unwrap_or(false), hints_used: 0 });
        }
        Ok(new_record(game, players))
    }

    /// Keeps `record` as written, at a new version.
    fn put(&mut self, mut record: GameRecord) -> GameRecord {
        record.version = self.next_version();
        let game = self.games.entry(record.game_id).or_insert_with(|| KeptGame::new(record.clone()));
        game.record = record.clone();
        record
    }

    fn next_version(&mut self) -> String {
        self.version += 1;
        self.version.to_string()
    }

    fn game(&self, id: Uuid) -> Result<&KeptGame, StoreError> {
        self.games.get(&id).ok_or(StoreError::NotFound)
    }

    /// The move of game `id` recorded under `client_move_id`.
    fn client_move(&self, id: Uuid, client_move_id: Option<Uuid>) -> Option<ClientMove> {
        let game = self.games.get(&id)?;
        let m = game.moves.iter().find(|m| m.client_move_id.is_some() && m.client_move_id == client_move_id)?;
        Some(ClientMove {
            move_no: m.move_no,
            seat: m.seat,
            request_hash: m.request_hash.map(|h| h.to_vec()),
            response: m.response.clone(),
        })
    }

    /// Games other than `besides` with `account` seated, in one of `statuses`.
    fn seated_in(&self, account: Uuid, besides: Uuid, statuses: &[GameStatus]) -> impl Iterator<Item = &GameRecord> {
        self.games
            .values()
            .map(|g| &g.record)
            .filter(move |r| r.game_id != besides && statuses.contains(&r.status) && seats(r).any(|a| a == account))
    }
}

/// The accounts seated in `record`.
fn seats(record: &GameRecord) -> impl Iterator<Item = Uuid> + '_ {
    record.players.iter().filter_map(|p| p.account.as_ref().map(|a| a.account_id))
}

impl Default for MemoryStore {
    fn default() -> MemoryStore {
        MemoryStore::new()
    }
}

#[async_trait]
impl AccountStore for MemoryStore {
    async fn account(&self, id: Uuid) -> Result<Account, StoreError> {
        self.lock().accounts.get(&id).cloned().ok_or(StoreError::NotFound)
    }

    /// A new human account is created at the epoch (memory has no clock).
    async fn ensure_human(&self, id: Uuid, display_name: &str) -> Result<Account, StoreError> {
        let mut kept = self.lock();
        let account = kept.accounts.entry(id).or_insert_with(|| Account {
            account_id: id,
            display_name: display_name.to_string(),
            kind: AccountKind::Human,
            robot_level: None,
            created_at: DateTime::UNIX_EPOCH,
            spectating: Spectating::Standard,
        });
        if account.kind != AccountKind::Human {
            return Err(StoreError::Conflict(Conflict::RobotIdentity));
        }
        account.display_name = display_name.to_string();
        Ok(account.clone())
    }

    async fn ratings_of(&self, account: Uuid) -> Result<Vec<StoredRating>, StoreError> {
        Ok(self.lock().ratings.iter().filter(|r| r.account_id == account).cloned().collect())
    }
}

#[async_trait]
impl GameStore for MemoryStore {
    async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError> {
        Ok(self.lock().game(id)?.record.clone())
    }

    async fn game_since(&self, id: Uuid, _known: Option<&KnownGame>) -> Result<GameRecord, StoreError> {
        GameStore::game(self, id).await
    }

    async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>, _known: Option<&KnownGame>) -> Result<GameEdit, StoreError> {
        let (record, client_move) = {
            let kept = self.lock();
            (kept.game(id)?.record.clone(), kept.client_move(id, client_move_id))
        };
        Ok(self.change(record, client_move, false))
    }

    async fn read_game_for_move(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameEdit, StoreError> {
        GameStore::lock_game(self, id, client_move_id, known).await
    }

    async fn create_game(&self, game: &NewGame) -> Result<GameEdit, StoreError> {
        let record = self.lock().created(game)?;
        Ok(self.change(record, None, true))
    }

    async fn unscored_games(&self, tournament: Option<Uuid>, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        let kept = self.lock();
        let unscored = kept.games.values().filter(|g| g.record.status == GameStatus::Finished && g.winners.is_none());
        let of_tournament = unscored.filter(|g| tournament.is_none() || g.record.tournament_id == tournament);
        Ok(of_tournament.map(|g| g.record.game_id).take(usize::try_from(limit).unwrap_or(usize::MAX)).collect())
    }

    async fn record_winners(&self, game_id: Uuid, winners: &[u8]) -> Result<(), StoreError> {
        let mut kept = self.lock();
        let game = kept.games.get_mut(&game_id).ok_or(StoreError::NotFound)?;
        game.winners = Some(winners.to_vec());
        Ok(())
    }
}

/// The record of `game` as created, with its seats' `players`.
fn new_record(game: &NewGame, players: Vec<Player>) -> GameRecord {
    GameRecord {
        game_id: game.game_id,
        variant: game.variant,
        seed: game.seed,
        seats: game.seats.len(),
        no_repeat_words: game.no_repeat_words,
        setup: Some(game.setup.clone()),
        status: game.status,
        move_count: 0,
        time_control: game.time_control,
        turn_deadline: game.turn_deadline,
        started_at: game.started_at,
        created_at: game.created_at,
        updated_at: game.created_at,
        finished_at: None,
        rematch_of: game.rematch_of,
        invited_by: game.invited_by,
        end_reason: None,
        players,
        journal: "[]".into(),
        move_times: Vec::new(),
        draws: game.draws.clone(),
        rated: game.rated,
        outages: Vec::new(),
        pair_limited: false,
        rating_range: game.rating_range,
        tournament_id: game.tournament_id,
        draw_deadline: game.draw_deadline,
        hints_allowed: game.hints_allowed.map(u32::from),
        ratings: Vec::new(),
        version: String::new(),
    }
}

/// A change to one game kept by [`MemoryStore`].
struct MemoryChange {
    games: MemoryStore,
    /// The game as read, with this change's steps.
    record: GameRecord,
    client_move: Option<ClientMove>,
    /// The version read: the change is written only while the game is still at it.
    read: String,
    /// A game being created (written at the end, if its id is still free).
    new: bool,
    /// The draw's picks recorded with their keys, written at the end.
    picks: Vec<(Uuid, Option<Vec<u8>>)>,
    /// The seats' scores and the winners a finish writes.
    result: Option<(Vec<i32>, Option<Vec<u8>>)>,
}

impl MemoryChange {
    /// Writes the record back with `moves` appended, if the game is still as read.
    fn write(self, moves: &[NewMove]) -> Result<GameRecord, StoreError> {
        let mut kept = self.games.lock();
        let id = self.record.game_id;
        match (self.new, kept.games.get(&id)) {
            (true, None) => {}
            (false, Some(game)) if game.record.version == self.read => {
                let taken = |m: &NewMove| {
                    game.moves
                        .iter()
                        .any(|g| g.move_no == m.move_no || (m.client_move_id.is_some() && g.client_move_id == m.client_move_id))
                };
                if moves.iter().any(taken) {
                    return Err(StoreError::Conflict(Conflict::Changed));
                }
            }
            _ => return Err(StoreError::Conflict(Conflict::Changed)),
        }
        let record = kept.put(self.record);
        let game = kept.games.get_mut(&id).expect("just kept");
        game.moves.extend_from_slice(moves);
        game.picks.extend(self.picks);
        if let Some((scores, winners)) = self.result {
            game.winners = winners.filter(|_| record.status == GameStatus::Finished);
            game.scores = scores;
        }
        Ok(record)
    }
}

#[async_trait]
impl GameChange for MemoryChange {
    fn game(&self) -> &GameRecord {
        &self.record
    }

    fn game_mut(&mut self) -> &mut GameRecord {
        &mut self.record
    }

    fn client_move(&self) -> Option<&ClientMove> {
        self.client_move.as_ref()
    }

    async fn lock_ratings(
        &mut self,
        accounts: &[Uuid],
        variant: Variant,
        speed: Speed,
        (rating, deviation, volatility): (f64, f64, f64),
        now: DateTime<Utc>,
    ) -> Result<Vec<StoredRating>, StoreError> {
        let kept = self.games.lock();
        let kept_or_new = |account_id: Uuid| {
            let found = kept.ratings.iter().find(|r| (r.account_id, r.variant, r.speed) == (account_id, variant, speed));
            found.cloned().unwrap_or(StoredRating { account_id, variant, speed, rating, deviation, volatility, games: 0, rated_at: now })
        };
        Ok(accounts.iter().map(|a| kept_or_new(*a)).collect())
    }

    async fn rated_games_between(&mut self, a: Uuid, b: Uuid, since: DateTime<Utc>) -> Result<u32, StoreError> {
        let kept = self.games.lock();
        let rated = |r: &&GameRecord| kept.changes.iter().any(|c| c.game_id == r.game_id);
        let n = kept
            .seated_in(a, self.record.game_id, &[GameStatus::Open, GameStatus::Active, GameStatus::Drawing, GameStatus::Finished])
            .filter(|r| r.rated && r.tournament_id.is_none() && r.started_at.is_some_and(|t| t >= since))
            .filter(|r| seats(r).any(|s| s == b))
            .filter(|r| r.status != GameStatus::Finished || rated(r))
            .count();
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    async fn limit_to_casual(&mut self) -> Result<(), StoreError> {
        let r = &mut self.record;
        (r.rated, r.pair_limited, r.rating_range) = (false, true, None);
        r.ratings.clear();
        Ok(())
    }

    async fn finish(self: Box<Self>, moves: &[NewMove], update: &GameUpdate, ratings: &[RatingWrite]) -> Result<KnownGame, StoreError> {
        let mut this = *self;
        let entries: Vec<&str> = moves.iter().map(|m| m.entry.as_str()).collect();
        let r = &mut this.record;
        r.journal = store::appended(&r.journal, &entries).ok_or_else(|| StoreError::Corrupt(format!("game {}: journal", r.game_id)))?;
        // As PostgreSQL keeps them: to the microsecond.
        r.move_times.extend(moves.iter().map(|m| Some(m.played_at.trunc_subsecs(6))));
        (r.move_count, r.status, r.turn_deadline, r.end_reason) =
            (update.move_count, update.status, update.turn_deadline, update.end_reason);
        r.started_at = r.started_at.or(update.started_at);
        r.finished_at = (update.status == GameStatus::Finished).then(|| r.finished_at.or(update.finished_at)).flatten();
        r.updated_at = moves.last().map_or(r.updated_at, |m| m.played_at);
        for write in ratings {
            let seat = r.players.iter().position(|p| p.account.as_ref().is_some_and(|a| a.account_id == write.after.account_id));
            let (after, change) = (&write.after, &write.change);
            let seat_rating = SeatRating {
                seat: seat.ok_or_else(|| StoreError::Corrupt(format!("rating of {} not seated", after.account_id)))?,
                rating: Some(after.rating),
                deviation: Some(after.deviation),
                games: Some(after.games),
                rated_at: Some(after.rated_at),
                rating_before: Some(change.rating_before),
                deviation_before: Some(change.deviation_before),
                rating_after: Some(change.rating_after),
                deviation_after: Some(change.deviation_after),
            };
            r.ratings.retain(|s| s.seat != seat_rating.seat);
            r.ratings.push(seat_rating);
        }
        r.ratings.sort_by_key(|s| s.seat);
        this.result = Some((update.scores.clone(), update.winners.clone()));
        let games = this.games.clone();
        let record = this.write(moves)?;
        let mut kept = games.lock();
        for write in ratings {
            let key = (write.after.account_id, write.after.variant, write.after.speed);
            kept.ratings.retain(|r| (r.account_id, r.variant, r.speed) != key);
            kept.ratings.push(write.after.clone());
            kept.changes.push(write.change.clone());
        }
        Ok(KnownGame::of(&record))
    }

    async fn fill_open_seat(&mut self, account: &Account) -> Result<usize, StoreError> {
        if seats(&self.record).any(|a| a == account.account_id) {
            return Err(StoreError::Conflict(Conflict::Unique("game_players_account".into())));
        }
        let seat = self.record.players.iter().position(|p| p.account.is_none()).ok_or(StoreError::Conflict(Conflict::NoEmptySeat))?;
        self.record.players[seat].account = Some(account.clone());
        for d in self.record.draws.iter_mut().filter(|d| d.account_id.is_none()) {
            d.account_id = Some(account.account_id);
        }
        Ok(seat)
    }

    async fn unfinished_games_besides(&mut self, account: Uuid) -> Result<u64, StoreError> {
        let kept = self.games.lock();
        Ok(kept.seated_in(account, self.record.game_id, &[GameStatus::Open, GameStatus::Active]).count() as u64)
    }

    async fn accept_invitation(&mut self, seat: usize) -> Result<(), StoreError> {
        let player = self.record.players.get_mut(seat).ok_or_else(|| StoreError::Corrupt(format!("no seat {seat}")))?;
        player.invited = false;
        Ok(())
    }

    async fn renew_deadline(self: Box<Self>, deadline: Option<DateTime<Utc>>) -> Result<(), StoreError> {
        let mut this = *self;
        this.record.turn_deadline = deadline;
        this.write(&[]).map(drop)
    }

    async fn withdraw(self: Box<Self>) -> Result<(), StoreError> {
        let mut this = *self;
        let open = this.games.lock().game(this.record.game_id)?.record.status == GameStatus::Open;
        if !open {
            return Err(StoreError::Conflict(Conflict::NotOpen));
        }
        (this.record.status, this.record.turn_deadline) = (GameStatus::Withdrawn, None);
        this.write(&[]).map(drop)
    }

    async fn keyed_pick(&mut self, key: Uuid) -> Result<Option<KeyedPick>, StoreError> {
        let kept = self.games.lock();
        let written = kept.games.get(&self.record.game_id).map(|g| g.picks.as_slice()).unwrap_or_default();
        let found = written.iter().chain(&self.picks).find(|(k, _)| *k == key);
        Ok(found.map(|(_, hash)| KeyedPick { request_hash: hash.clone() }))
    }

    async fn record_pick(
        &mut self,
        pick: &DrawRow,
        key: Option<(Uuid, [u8; 32])>,
        _drawn_by: DrawnBy,
        _now: DateTime<Utc>,
        _touch: bool,
    ) -> Result<(), StoreError> {
        if let Some((id, hash)) = key {
            if self.keyed_pick(id).await?.is_some() {
                return Err(StoreError::Conflict(Conflict::Unique("game_setup_draws_client_draw_id".into())));
            }
            self.picks.push((id, Some(hash.to_vec())));
        }
        self.record.draws.push(pick.clone());
        Ok(())
    }

    async fn reseat(&mut self, accounts: &[Uuid]) -> Result<(), StoreError> {
        let (mut seated, mut wanted): (Vec<Uuid>, Vec<Uuid>) = (seats(&self.record).collect(), accounts.to_vec());
        seated.sort_unstable();
        wanted.sort_unstable();
        if seated != wanted {
            return Err(StoreError::Corrupt(format!("game {}: reseating other players", self.record.game_id)));
        }
        let by_id: Vec<Option<Account>> =
            accounts.iter().map(|id| self.record.players.iter().find_map(|p| p.account.clone().filter(|a| a.account_id == *id))).collect();
        for (player, account) in self.record.players.iter_mut().zip(by_id) {
            player.account = account;
        }
        Ok(())
    }
}
