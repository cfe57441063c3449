//! The use cases of a game in play, for every family: create, view, submit, preview, resign,
//! claim a timeout (the hint: `hints`). Every one that reads a game first moves on a robot whose turn it is
//! ("settling"), so no game ever waits on a robot, even one left so by a crash before robots and
//! their game were committed together.

use chrono::{DateTime, Utc};
use games::{
    AnyGame, ChallengeRule, Draw, EndReason, EntryView, Lapse, Move, Position, Score, Seat, TimeControl, Timestamp, Variant, Viewer,
};
use serde::Serialize;
use serde_json::value::RawValue;
use store::{AccountKind, DrawRow, GameRecord, GameStatus, NewGame};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::error::ErrorCode;
use crate::hints::{allowance, checked_hints};
use crate::idempotency::{Key, request_hash};
use crate::invitation::ensure_not_awaiting;
use crate::playout::{Human, MoveOutcome, play_out, robot_level};
use crate::ports::GameEdit;
use crate::requests::{CreateGame, SubmitMove, TableOpponent};
use crate::runtime::{Picks, timestamp};
use crate::view::{GameView, build, running};
use crate::{Caller, Service, ServiceError};

/// How many times a submit is tried: without a lock while other changes to the game win the
/// race, the last time with it.
const SUBMIT_ATTEMPTS: u32 = 3;

/// The answer to a submit: the move just made, or the first answer to the same request, as it
/// was sent then (a retry of a request that was answered, but whose answer was lost).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Submitted {
    /// The move was made now.
    Made(Box<MoveOutcome>),
    /// The same request was answered before: its answer, byte for byte.
    Replayed(Box<RawValue>),
}

/// A move's score if it were submitted now.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Preview {
    /// For a tile play the words formed, the bingo bonus and the total; for a word its points.
    pub score: Score,
}

impl Service {
    /// The time by the service's clock (the injected one: a test's, or the system's).
    pub fn now(&self) -> DateTime<Utc> {
        self.runtime.clock.now()
    }

    pub(crate) fn now_ts(&self) -> Timestamp {
        timestamp(self.now())
    }

    /// A new game with a fresh id and seed, its family's setup and its time control pinned; an
    /// active one starts now (its first turn's deadline is set as its first change is written).
    pub(crate) fn new_game(
        &self,
        variant: Variant,
        status: GameStatus,
        pinned: Pinned,
        seats: Vec<Option<Uuid>>,
        draws: Vec<DrawRow>,
    ) -> Result<NewGame, ServiceError> {
        let game_id = self.runtime.ids.id();
        let setup = self.families.setup_with(variant, seats.len(), self.runtime.seeds.seed(), pinned.challenge)?;
        let time_control = pinned.time_control;
        Ok(NewGame {
            game_id,
            variant,
            seed: setup.seed,
            no_repeat_words: setup.no_repeat_words,
            setup: setup.setup,
            status,
            time_control,
            turn_deadline: None,
            started_at: (status == GameStatus::Active).then(|| self.now()),
            created_at: self.now(),
            rematch_of: None,
            invited: Vec::new(),
            invited_by: None,
            rated: pinned.rated,
            rating_range: None,
            tournament_id: None,
            draw_deadline: None,
            hints_allowed: pinned.hints,
            seats,
            draws,
            limits: None,
        })
    }

    /// Who moves first among `participants`, by the variant's draw with the injected entropy:
    /// the rows to record and the seats, the leader at seat 0, the others in their order.
    pub(crate) fn draw(&self, variant: Variant, participants: &[Uuid]) -> Result<(Vec<DrawRow>, Vec<Uuid>), ServiceError> {
        let drawn = self.families.draw(variant, participants.len(), &mut Picks(self.runtime.draws.as_ref()))?;
        let mut seats = participants.to_vec();
        seats.rotate_left(drawn.leader);
        Ok((draw_rows(&drawn, participants), seats))
    }

    /// Creates a game: the draw seats the caller and the opponents, the seed is fresh. Against
    /// robots only it starts at once; other humans are invited (see [`crate::invitation`]): the
    /// game stays open, with no clock, until each accepts.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for a number of opponents the variant does not seat, the caller
    /// or a robot account as a human opponent, a seat twice, or turn seconds out of range;
    /// [`ServiceError::AccountNotFound`]; [`ServiceError::TooManyGames`] and
    /// [`ServiceError::TooManyInvitations`] past the caller's limits.
    #[tracing::instrument(skip(self, caller, req), fields(account = %caller.account_id()))]
    pub async fn create_game(&self, caller: &Caller, req: &CreateGame) -> Result<GameView, ServiceError> {
        let variant = req.variant;
        let seats = variant.seats();
        if !seats.contains(&(req.opponents.len() + 1)) {
            let (lo, hi) = (seats.start() - 1, seats.end() - 1);
            let range = if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
            return Err(invalid(ErrorCode::BadOpponents, format!("a {variant} game has {range} opponents, not {}", req.opponents.len())));
        }
        let time_control = checked_time_control(variant, req.time_control, req.turn_seconds)?;
        let challenge = checked_challenge_rule(variant, req.challenge_rule)?;
        let hints = checked_hints(req.hints)?;
        if req.rated && !matches!(req.opponents.as_slice(), [TableOpponent::Account(_)]) {
            return Err(invalid(ErrorCode::BadOpponents, "a rated game is between two humans: one opponent, by account".into()));
        }
        let mut accounts = vec![caller.account_id()];
        let mut humans = Vec::new();
        for o in &req.opponents {
            let id = match o {
                TableOpponent::Robot(level) => store::robot_account(*level),
                TableOpponent::Account(id) => {
                    let account = self.accounts.account(*id).await.map_err(|e| match e {
                        store::StoreError::NotFound => ServiceError::AccountNotFound(*id),
                        other => other.into(),
                    })?;
                    if account.kind != AccountKind::Human {
                        return Err(invalid(ErrorCode::BadOpponents, "robots are seated by level, not by account".into()));
                    }
                    humans.push(*id);
                    *id
                }
            };
            if accounts.contains(&id) {
                return Err(invalid(
                    ErrorCode::BadOpponents,
                    match o {
                        TableOpponent::Robot(_) => "one robot of each level per game".to_string(),
                        TableOpponent::Account(_) => format!("account {id} is seated twice"),
                    },
                ));
            }
            accounts.push(id);
        }
        self.ensure_caller(caller).await?;
        // The draw decides who sits at seat 0 (and so moves first).
        let (draws, seats) = self.draw(variant, &accounts)?;
        let invites = !humans.is_empty();
        let status = if invites { GameStatus::Open } else { GameStatus::Active };
        let new = NewGame {
            invited: seats.iter().map(|id| humans.contains(id)).collect(),
            invited_by: invites.then(|| caller.account_id()),
            limits: Some(crate::limits::for_new_game(caller.account_id(), false, invites)),
            ..self.new_game(
                variant,
                status,
                Pinned { time_control, challenge, rated: req.rated, hints: allowance(variant, req.rated, hints) },
                seats.into_iter().map(Some).collect(),
                draws,
            )?
        };
        // The game, its seats, its draw and the opening move of a robot that won the draw commit
        // in one transaction: a crash leaves either all of them or nothing.
        let mut tx = self.game_store.create_game(&new).await?;
        self.limit_rated_pair(&mut tx).await?;
        let seat = seat_of(tx.game(), caller)?;
        let mut game = self.games.rebuild(tx.game())?;
        let view = self.commit_moves(tx, &mut game, Some(seat), None).await?.game;
        self.announce_invitations(&view).await;
        Ok(view)
    }

    /// The game as the caller sees it: a player their seat's view, anyone else the spectator's
    /// view of a game that may be watched ([`crate::spectators`]).
    ///
    /// # Errors
    /// [`ServiceError::NotFound`], also for a game the caller may not watch.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn get_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        match seat_of(&record, caller) {
            Ok(seat) => Ok(build(&record, &game, Some(seat), self.now())),
            Err(_) => self.spectator_view(&record, &game).await,
        }
    }

    /// Validates and applies the caller's move, then any robot replies, under the game's lock.
    /// A request whose `client_move_id` is already in the journal gets the first answer again
    /// when the same player sends the same body, and is refused otherwise.
    ///
    /// # Errors
    /// [`ServiceError::StaleMove`] if `expected_move_no` is not the game's move count,
    /// [`ServiceError::Rejected`] with the family's reason, [`ServiceError::WrongFamily`] for a
    /// move of another family, [`ServiceError::NotYourGame`], [`ServiceError::NotFound`],
    /// [`ServiceError::Conflict`] on a lost race, [`ServiceError::IdempotencyKeyReused`],
    /// [`ServiceError::Withdrawn`], [`ServiceError::AwaitingAcceptance`] while invitees have not
    /// accepted (also for preview, hint, resign and timeout).
    #[tracing::instrument(skip(self, caller, req), fields(account = %caller.account_id(), expected = req.expected_move_no))]
    pub async fn submit_move(&self, caller: &Caller, game_id: Uuid, req: &SubmitMove) -> Result<Submitted, ServiceError> {
        // Read without a lock and write only if the game is still as read: a request that lost
        // a race to another change reads the game again (and then finds its move stale, or its
        // key's first answer); the last attempt takes the lock, so that it ends.
        let mut attempt = 1;
        loop {
            let lock = attempt == SUBMIT_ATTEMPTS;
            match self.try_submit(caller, game_id, req, lock).await {
                Err(ServiceError::Conflict) if !lock => attempt += 1,
                result => return result,
            }
        }
    }

    /// One attempt of [`Service::submit_move`], with the game locked or read without a lock.
    async fn try_submit(&self, caller: &Caller, game_id: Uuid, req: &SubmitMove, lock: bool) -> Result<Submitted, ServiceError> {
        let (tx, mut game) = self.settled(game_id, req.client_move_id, lock).await?;
        let seat = seat_of(tx.game(), caller)?;
        let key = req.client_move_id.map(|id| Key { id, hash: request_hash(caller, req) });
        if let Some(first) = &tx.client_move() {
            let key = key.as_ref().expect("a recorded client move was looked up by its key");
            // The hash binds the caller (a challenge's entry is the challenged seat's, not the
            // caller's); a row from before hashes were kept is matched by its seat.
            if first.request_hash.as_ref().map_or(first.seat != seat.0, |h| h[..] != key.hash[..]) {
                return Err(ServiceError::IdempotencyKeyReused);
            }
            return match &first.response {
                Some(text) => Ok(Submitted::Replayed(
                    RawValue::from_string(text.clone()).map_err(|e| store::StoreError::Corrupt(format!("stored answer: {e}")))?,
                )),
                // Recorded before answers were kept: rebuilt from the journal.
                None => Ok(Submitted::Made(Box::new(replayed_outcome(tx.game(), &game, seat, first.move_no, self.now())))),
            };
        }
        ensure_not_withdrawn(tx.game())?;
        ensure_not_awaiting(tx.game())?;
        // The flag fell before this move arrived: the loss is recorded (as of the fall), the
        // move is not.
        if let Some(lapse) = self.lapse_due(tx.game(), &game) {
            self.commit_moves(tx, &mut game, None, Some(lapse)).await?;
            ensure_not_lost_on_time(&game, seat)?;
            // Over on another seat's time: refused as any move after the end is.
            return Err(game.check(seat, &req.mv, self.now_ts()).err().map_or(ServiceError::Conflict, ServiceError::from));
        }
        ensure_not_lost_on_time(&game, seat)?;
        if req.expected_move_no != tx.game().move_count {
            return Err(ServiceError::StaleMove { expected: req.expected_move_no, actual: tx.game().move_count });
        }
        let checked = game.check(seat, &req.mv, self.now_ts())?;
        let human = Human { checked, key, at: self.now() };
        Ok(Submitted::Made(Box::new(self.commit_moves(tx, &mut game, Some(seat), Some(human)).await?)))
    }

    /// Resigns the caller's seat (allowed out of turn).
    ///
    /// # Errors
    /// As [`Service::submit_move`], without the staleness check; [`ServiceError::NotStarted`]
    /// for an open game (withdraw it instead).
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn resign(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let (tx, mut game) = self.lock_settled(game_id, None).await?;
        let seat = seat_of(tx.game(), caller)?;
        ensure_started(tx.game())?;
        let checked = game.check(seat, &Move::Resign, self.now_ts())?;
        self.commit_moves(tx, &mut game, Some(seat), Some(Human { checked, key: None, at: self.now() })).await
    }

    /// Records that the seat to move ran out of time; any seated player may claim it. A lapse
    /// that ends the game (a flag fall) is recorded as of the moment the time ran out, so the
    /// result is the same whoever noticed it, and whenever.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with `deadline_not_passed` or `game_over`;
    /// [`ServiceError::NotStarted`] for an open game; as above.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn claim_timeout(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let (tx, mut game) = self.lock_settled(game_id, None).await?;
        let seat = seat_of(tx.game(), caller)?;
        ensure_started(tx.game())?;
        let lapse = self.lapse(tx.game(), &game)?;
        self.commit_moves(tx, &mut game, Some(seat), Some(lapse)).await
    }

    /// The lapse of the seat to move, checked at now: it loses its turn (recorded now) or the
    /// game (recorded at its deadline, when its time ran out).
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with `deadline_not_passed` or `game_over`.
    pub(crate) fn lapse(&self, record: &GameRecord, game: &AnyGame<'_>) -> Result<Human, ServiceError> {
        let lapse = record.time_control.lapse(record.variant.family());
        let checked = game.check_timeout(self.now_ts(), lapse)?;
        let at = match (lapse, record.turn_deadline) {
            (Lapse::Game, Some(deadline)) => deadline.min(self.now()),
            _ => self.now(),
        };
        Ok(Human { checked, key: None, at })
    }

    /// The lapse due on an active game whose running seat's time ran out and whose lapse costs
    /// the game (a flag fall, a chain's timeout): whatever touches the game first records it.
    /// A lapse that costs only the turn waits for a claim or the sweep, as it always did.
    fn lapse_due(&self, record: &GameRecord, game: &AnyGame<'_>) -> Option<Human> {
        let due = record.turn_deadline.is_some_and(|d| d <= self.now())
            && running(record, game).is_some()
            && record.time_control.lapse(record.variant.family()) == Lapse::Game;
        due.then(|| self.lapse(record, game).ok()).flatten()
    }

    /// Scores a move as submit would, writing nothing.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with exactly the reason submit would give.
    #[tracing::instrument(skip(self, caller, mv), fields(account = %caller.account_id()))]
    pub async fn preview_move(&self, caller: &Caller, game_id: Uuid, mv: &Move) -> Result<Preview, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        ensure_not_withdrawn(&record)?;
        ensure_not_awaiting(&record)?;
        let checked = game.check(seat, mv, self.now_ts())?;
        Ok(Preview { score: game.preview(&checked) })
    }

    /// The game, read without a lock, after any robot whose turn it is has moved and any flag
    /// that has fallen is recorded.
    pub(crate) async fn load_settled(&self, game_id: Uuid) -> Result<(GameRecord, AnyGame<'_>), ServiceError> {
        let (record, game) = self.games.read(game_id).await?;
        if !robot_due(&record, &game) && self.lapse_due(&record, &game).is_none() {
            return Ok((record, game));
        }
        let (tx, mut game) = self.lock_settled(game_id, None).await?;
        if let Some(lapse) = self.lapse_due(tx.game(), &game) {
            self.commit_moves(tx, &mut game, None, Some(lapse)).await?;
            return self.games.read(game_id).await;
        }
        let record = tx.game().clone();
        drop(tx);
        Ok((record, game))
    }

    /// The game locked for a change, after any robot whose turn it was has moved (in a
    /// transaction of its own, committed first).
    pub(crate) async fn lock_settled(&self, game_id: Uuid, client_move_id: Option<Uuid>) -> Result<(GameEdit, AnyGame<'_>), ServiceError> {
        self.settled(game_id, client_move_id, true).await
    }

    /// The game read for a change, locked or not (then its write applies only if the game is
    /// unchanged), after any robot whose turn it was has moved.
    async fn settled(&self, game_id: Uuid, client_move_id: Option<Uuid>, lock: bool) -> Result<(GameEdit, AnyGame<'_>), ServiceError> {
        let (tx, mut game) = self.games.read_for_change(game_id, client_move_id, lock).await?;
        if !robot_due(tx.game(), &game) {
            return Ok((tx, game));
        }
        tracing::warn!(game_id = %game_id, move_count = tx.game().move_count, "a robot's turn was waiting; moving it now");
        self.commit_moves(tx, &mut game, None, None).await?;
        self.games.read_for_change(game_id, client_move_id, lock).await
    }

    /// Plays out `human` (a checked move and its idempotency key, if any) and the robots'
    /// replies on `game`, read in `tx`, and commits them (the moves and the game's new state,
    /// with a rated end's ratings and a keyed move's answer, in one statement); keeps the game
    /// as written for the next request, and only then announces the moves: the answer as
    /// `viewer` sees it.
    pub(crate) async fn commit_moves(
        &self,
        mut tx: GameEdit,
        game: &mut AnyGame<'_>,
        viewer: Option<Seat>,
        human: Option<Human>,
    ) -> Result<MoveOutcome, ServiceError> {
        let played = play_out(&self.runtime, tx.game(), game, viewer, human)?;
        // A rated game's end: both ratings, locked, computed and written with the end; the
        // answer is built once they are known.
        let mut ratings = Vec::new();
        if crate::rating::rates(tx.game(), game) {
            let record = tx.game();
            let accounts: Vec<Uuid> = record.players.iter().filter_map(|p| p.account.as_ref().map(|a| a.account_id)).collect();
            let newcomer = ratings::Rating::default();
            let (variant, speed) = (record.variant, record.time_control.speed());
            let defaults = (newcomer.rating, newcomer.deviation, newcomer.volatility);
            let before = tx.lock_ratings(&accounts, variant, speed, defaults, self.now()).await?;
            ratings = crate::rating::writes(tx.game(), game, &before, self.now());
        }
        let rated = (!ratings.is_empty()).then(|| crate::rating::view_of_writes(tx.game(), &ratings)).flatten();
        let played = played.answer(&self.runtime, game, rated)?;
        self.games.finish(tx, (&played.rows, &played.update, &ratings), game).await?;
        // Committed: now, and only now, the moves are announced.
        self.announce(&played.events).await;
        Ok(played.outcome)
    }
}

/// The result a retried submit gets when its first answer was not kept (moves recorded before
/// answers were): the move it first made and the robot moves right after, as `seat` may see
/// them, with the game as it is now.
fn replayed_outcome(record: &GameRecord, game: &AnyGame<'_>, seat: Seat, move_no: u32, now: DateTime<Utc>) -> MoveOutcome {
    let moves: Vec<EntryView> = game
        .entries()
        .iter()
        .skip(move_no as usize)
        .enumerate()
        .take_while(|(i, e)| *i == 0 || is_robot(record, e.seat()))
        .filter_map(|(_, e)| game.entry_view(e.move_no(), Viewer::Seat(seat)))
        .collect();
    MoveOutcome { moves, thinking_ms: 0, game: build(record, game, Some(seat), now) }
}

fn is_robot(record: &GameRecord, seat: Seat) -> bool {
    record.players.get(seat.index()).and_then(|p| p.account.as_ref()).is_some_and(|a| a.kind == AccountKind::Robot)
}

/// Whether a robot is to move in an active game: it moves before anything else is done.
fn robot_due(record: &GameRecord, game: &AnyGame<'_>) -> bool {
    record.status == GameStatus::Active && game.next_seat().is_some_and(|s| robot_level(record, s).is_some())
}

/// Refuses a change to a withdrawn game.
pub(crate) fn ensure_not_withdrawn(record: &GameRecord) -> Result<(), ServiceError> {
    if record.status == GameStatus::Withdrawn {
        return Err(ServiceError::Withdrawn);
    }
    Ok(())
}

/// Refuses a resignation or timeout of a game that nobody has joined or accepted (or that was
/// withdrawn).
fn ensure_started(record: &GameRecord) -> Result<(), ServiceError> {
    ensure_not_withdrawn(record)?;
    ensure_not_awaiting(record)?;
    if record.status == GameStatus::Open {
        return Err(ServiceError::NotStarted);
    }
    Ok(())
}

/// The draw's log as rows, each naming its participant's account (`None` for the nil
/// placeholder of an open game).
fn draw_rows(drawn: &Draw, participants: &[Uuid]) -> Vec<DrawRow> {
    drawn
        .log
        .iter()
        .map(|d| {
            let id = participants[d.participant];
            DrawRow {
                round: d.round as i16,
                pick_no: d.pick_no as i16,
                account_id: (!id.is_nil()).then_some(id),
                letter: d.letter.map(|c| c.to_string()),
                is_blank: d.is_blank,
                rank: d.rank,
            }
        })
        .collect()
}

/// The time control a create or open request asks for, checked for `variant`: `time_control`,
/// or the older `turn_seconds` (a correspondence limit with no bank), not both.
///
/// # Errors
/// [`ErrorCode::BadTurnSeconds`] for turn seconds out of range; [`ErrorCode::BadTimeControl`] for
/// both fields, a control out of its bounds or one the variant's family does not play.
pub(crate) fn checked_time_control(
    variant: Variant,
    time_control: Option<TimeControl>,
    turn_seconds: Option<i32>,
) -> Result<TimeControl, ServiceError> {
    let control = match (time_control, turn_seconds) {
        (Some(_), Some(_)) => {
            return Err(invalid(ErrorCode::BadTimeControl, "give time_control or turn_seconds, not both".into()));
        }
        (Some(control), None) => control,
        (None, Some(t)) if !(10..=2_592_000).contains(&t) => {
            return Err(invalid(ErrorCode::BadTurnSeconds, format!("turn_seconds must be 10..=2592000, not {t}")));
        }
        (None, t) => TimeControl::from_turn_seconds(t.and_then(|t| u32::try_from(t).ok())),
    };
    control.check(variant.family()).map_err(|e| invalid(ErrorCode::BadTimeControl, e.to_string()))
}

/// What a new game is pinned to besides its variant: its time control, its challenge rule,
/// whether it is rated, its hints.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pinned {
    /// The time control.
    pub(crate) time_control: TimeControl,
    /// The challenge rule.
    pub(crate) challenge: ChallengeRule,
    /// Whether it is rated.
    pub(crate) rated: bool,
    /// Hints each seat may take ([`crate::hints::allowance`]); `None`: as many as it likes.
    pub(crate) hints: Option<u8>,
}

/// The challenge rule a new game of `variant` is pinned to: void when none is given; the
/// chain has only void.
pub(crate) fn checked_challenge_rule(variant: Variant, rule: Option<ChallengeRule>) -> Result<ChallengeRule, ServiceError> {
    rule.unwrap_or_default().check(variant.family()).map_err(|e| invalid(ErrorCode::BadChallengeRule, e.to_string()))
}

/// Refuses a move by a seat that lost the game on time, with `time_over` rather than the plain
/// `game_over`, whoever noticed the flag first.
fn ensure_not_lost_on_time(game: &AnyGame<'_>, seat: Seat) -> Result<(), ServiceError> {
    match game.outcome() {
        Some(o) if o.reason == EndReason::Timeout && o.seat == Some(seat) => Err(ServiceError::TimeOver),
        _ => Ok(()),
    }
}

pub(crate) fn invalid(reason: ErrorCode, message: String) -> ServiceError {
    ServiceError::Invalid { reason, message }
}

#[cfg(test)]
mod tests;
