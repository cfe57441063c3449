//! The use cases of a game in play: create, view, submit, preview, hint, resign, claim a
//! timeout. Every one that reads a game first moves on a robot whose turn it is ("settling"),
//! so no game ever waits on a robot, even one left so by a crash before robots and their game
//! were committed together.

use chrono::{DateTime, Duration, Utc};
use engine::seating;
use engine::{
    Game, JournalEntry, LeaveTable, Move, MoveGenerator, PlacementInput, Ranking, ScoreBreakdown, Seat, Timestamp, Variant, replay,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use store::{AccountKind, DrawRow, GameRecord, GameStatus, GameTx, GameUpdate, NewGame, NewMove, RobotLevel};
use uuid::Uuid;

use crate::error::Invalid;
use crate::idempotency::{Key, request_hash};
use crate::runtime::Picks;
use crate::view::{EntryView, GameView, Viewer, build, entry_view, reason_id};
use crate::{Caller, Service, ServiceError, robot};

/// Who else sits at a new table: `{"robot": "easy"}` or `{"account": "<uuid>"}`, exactly one.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "OpponentInput")]
pub enum Opponent {
    /// A robot of this level: easy, medium or hard.
    Robot(String),
    /// A human account, by id.
    Account(Uuid),
}

/// The wire form of [`Opponent`]: an object with one of two fields, so that naming both (or
/// neither, or another) is a typed data error rather than a syntax error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpponentInput {
    robot: Option<String>,
    account: Option<Uuid>,
}

impl TryFrom<OpponentInput> for Opponent {
    type Error = String;

    fn try_from(o: OpponentInput) -> Result<Opponent, String> {
        match (o.robot, o.account) {
            (Some(level), None) => Ok(Opponent::Robot(level)),
            (None, Some(id)) => Ok(Opponent::Account(id)),
            (Some(_), Some(_)) => Err("an opponent is a robot or an account, not both".into()),
            (None, None) => Err("an opponent names a robot level or an account id".into()),
        }
    }
}

/// A request to create a game: the caller sits at seat 0, the opponents after.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The variant id.
    pub variant: String,
    /// One to three opponents.
    pub opponents: Vec<Opponent>,
    /// Seconds per turn (10 s to 30 days), or untimed.
    #[serde(default)]
    pub turn_seconds: Option<i32>,
}

/// A move submission.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitMove {
    /// The game's `move_count` the move was built on.
    pub expected_move_no: u32,
    /// The client's id for this move: a retry with the same id, by the same player, with the
    /// same body gets the first answer again; with another body or by another player it is
    /// refused.
    pub client_move_id: Option<Uuid>,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
}

/// What a submitted move (and any robot replies) did.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveOutcome {
    /// Journal entries written by this request, as the caller may see them: the caller's move,
    /// then robot moves.
    pub moves: Vec<EntryView>,
    /// How long the client should take to reveal the robots' moves, in total.
    pub thinking_ms: u32,
    /// The game afterwards.
    pub game: GameView,
}

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
    /// Words formed and their scores, the bingo bonus and the total.
    pub score: ScoreBreakdown,
}

/// A suggested play.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Hint {
    /// GCG coordinate: "8D" across from row 8, "D8" down.
    pub coord: String,
    /// The main word (`.` for board tiles, lower case for blanks).
    pub word: String,
    /// Points.
    pub score: i32,
    /// Score + leave value, thousandths of a point.
    pub equity: i32,
    /// The placements, ready to submit as a play.
    pub placements: Vec<PlacementInput>,
}

const MAX_HINTS: usize = 20;

impl Service {
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.runtime.clock.now()
    }

    /// A new game with a fresh id and bag seed, the variant's no-repeat setting pinned.
    pub(crate) fn new_game(
        &self,
        variant: Variant,
        status: GameStatus,
        turn_seconds: Option<i32>,
        turn_deadline: Option<DateTime<Utc>>,
        seats: Vec<Option<Uuid>>,
        draws: Vec<DrawRow>,
    ) -> NewGame {
        NewGame {
            game_id: self.runtime.ids.id(),
            variant,
            seed: self.runtime.seeds.seed(),
            no_repeat_words: variant.rules().no_repeat_words,
            status,
            turn_seconds,
            turn_deadline,
            seats,
            draws,
            open_limit: None,
        }
    }

    /// Creates a game: the caller at seat 0, the opponents after, the bag seeded afresh.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for an unknown variant, 0 or more than 3 opponents, an unknown
    /// robot level, the caller or a robot account as a human opponent, a seat twice, or
    /// turn seconds out of range; [`ServiceError::NotFound`] for an unknown account.
    #[tracing::instrument(skip(self, req), fields(account = %caller.account_id()))]
    pub async fn create_game(&self, caller: &Caller, req: &CreateGame) -> Result<GameView, ServiceError> {
        let variant: Variant =
            req.variant.parse().map_err(|e: engine::variant::VariantError| invalid(Invalid::UnknownVariant, e.to_string()))?;
        if req.opponents.is_empty() || req.opponents.len() > 3 {
            return Err(invalid(Invalid::BadOpponents, format!("a game has 1 to 3 opponents, not {}", req.opponents.len())));
        }
        check_turn_seconds(req.turn_seconds)?;
        let mut seats = vec![Some(caller.account_id())];
        for o in &req.opponents {
            let id = match o {
                Opponent::Robot(level) => RobotLevel::parse(level)
                    .ok_or_else(|| invalid(Invalid::UnknownRobotLevel, format!("unknown robot level {level:?}")))?
                    .account_id(),
                Opponent::Account(id) => {
                    let account = self.store.account(*id).await.map_err(|e| match e {
                        store::StoreError::NotFound => ServiceError::AccountNotFound(*id),
                        other => other.into(),
                    })?;
                    if account.kind != AccountKind::Human {
                        return Err(invalid(Invalid::BadOpponents, "robots are seated by level, not by account".into()));
                    }
                    *id
                }
            };
            if seats.contains(&Some(id)) {
                return Err(invalid(
                    Invalid::BadOpponents,
                    match o {
                        Opponent::Robot(_) => "one robot of each level per game".to_string(),
                        Opponent::Account(_) => format!("account {id} is seated twice"),
                    },
                ));
            }
            seats.push(Some(id));
        }
        self.ensure_caller(caller).await?;
        // The official first-move draw decides who sits at seat 0 (and so moves first).
        let accounts: Vec<Uuid> = seats.iter().map(|s| s.expect("every seat is filled at creation")).collect();
        let drawn = seating::draw(variant.rules(), accounts.len(), &mut Picks(self.runtime.draws.as_ref()))
            .map_err(|e| invalid(Invalid::BadOpponents, e.to_string()))?;
        let draws = draw_rows(&drawn, &accounts);
        let seats: Vec<Option<Uuid>> = seating::rotate(&accounts, drawn.leader).into_iter().map(Some).collect();
        let deadline = req.turn_seconds.map(|t| self.now() + Duration::seconds(i64::from(t)));
        let new = self.new_game(variant, GameStatus::Active, req.turn_seconds, deadline, seats, draws);
        // The game, its seats, its draw and the opening move of a robot that won the draw commit
        // in one transaction: a crash leaves either all of them or nothing.
        let tx = self.store.create_game(&new).await?;
        let seat = seat_of(&tx.game, caller)?;
        let mut game = rebuild(&tx.game)?;
        Ok(self.commit_moves(tx, &mut game, Some(seat), None).await?.game)
    }

    /// The game as the caller sees it.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`] for a non-player.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id()))]
    pub async fn get_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        Ok(build(&record, &game, Some(seat)))
    }

    /// Validates and applies the caller's move, then any robot replies, under the game's lock.
    /// A request whose `client_move_id` is already in the journal gets the first answer again
    /// when the same player sends the same body, and is refused otherwise.
    ///
    /// # Errors
    /// [`ServiceError::StaleMove`] if `expected_move_no` is not the game's move count,
    /// [`ServiceError::Rejected`] with the engine's reason, [`ServiceError::NotYourGame`],
    /// [`ServiceError::NotFound`], [`ServiceError::Conflict`] on a lost race,
    /// [`ServiceError::IdempotencyKeyReused`], [`ServiceError::Withdrawn`].
    #[tracing::instrument(skip(self, req), fields(account = %caller.account_id(), expected = req.expected_move_no))]
    pub async fn submit_move(&self, caller: &Caller, game_id: Uuid, req: &SubmitMove) -> Result<Submitted, ServiceError> {
        let (tx, mut game) = self.lock_settled(game_id, req.client_move_id).await?;
        let seat = seat_of(&tx.game, caller)?;
        let key = req.client_move_id.map(|id| Key { id, hash: request_hash(caller, req) });
        if let Some(first) = &tx.client_move {
            let key = key.as_ref().expect("a recorded client move was looked up by its key");
            if first.seat != seat.0 || first.request_hash.as_ref().is_some_and(|h| h[..] != key.hash[..]) {
                return Err(ServiceError::IdempotencyKeyReused);
            }
            return match &first.response {
                Some(text) => Ok(Submitted::Replayed(
                    RawValue::from_string(text.clone()).map_err(|e| store::StoreError::Corrupt(format!("stored answer: {e}")))?,
                )),
                // Recorded before answers were kept: rebuilt from the journal.
                None => Ok(Submitted::Made(Box::new(replayed_outcome(&tx.game, seat, first.move_no)?))),
            };
        }
        ensure_not_withdrawn(&tx.game)?;
        if req.expected_move_no != tx.game.move_count {
            return Err(ServiceError::StaleMove { expected: req.expected_move_no, actual: tx.game.move_count });
        }
        let checked = game.check(self.graph(game.rules().variant)?, seat, &req.mv, timestamp(self.now()))?;
        Ok(Submitted::Made(Box::new(self.commit_moves(tx, &mut game, Some(seat), Some((checked, key))).await?)))
    }

    /// Resigns the caller's seat (allowed out of turn).
    ///
    /// # Errors
    /// As [`Service::submit_move`], without the staleness check; [`ServiceError::NotStarted`]
    /// for an open game (withdraw it instead).
    #[tracing::instrument(skip(self), fields(account = %caller.account_id()))]
    pub async fn resign(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let (tx, mut game) = self.lock_settled(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        ensure_started(&tx.game)?;
        let checked = game.check(self.graph(game.rules().variant)?, seat, &Move::Resign, timestamp(self.now()))?;
        self.commit_moves(tx, &mut game, Some(seat), Some((checked, None))).await
    }

    /// Records that the seat to move ran out of time; any seated player may claim it.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with `deadline_not_passed` or `game_over`;
    /// [`ServiceError::NotStarted`] for an open game; as above.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id()))]
    pub async fn claim_timeout(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let (tx, mut game) = self.lock_settled(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        ensure_started(&tx.game)?;
        let checked = game.check_timeout(timestamp(self.now()))?;
        self.commit_moves(tx, &mut game, Some(seat), Some((checked, None))).await
    }

    /// Scores a move as submit would, writing nothing.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with exactly the reason submit would give.
    #[tracing::instrument(skip(self, mv), fields(account = %caller.account_id()))]
    pub async fn preview_move(&self, caller: &Caller, game_id: Uuid, mv: &Move) -> Result<Preview, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        ensure_not_withdrawn(&record)?;
        let checked = game.check(self.graph(game.rules().variant)?, seat, mv, timestamp(self.now()))?;
        let score = match checked.action() {
            engine::moves::CheckedAction::Play { score, .. } => score.clone(),
            _ => ScoreBreakdown { words: Vec::new(), bingo: 0, total: 0 },
        };
        Ok(Preview { score })
    }

    /// The best plays for the caller's rack, by equity (at most 20).
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with `game_over` once the game has ended; as above.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id()))]
    pub async fn hint(&self, caller: &Caller, game_id: Uuid, limit: usize) -> Result<Vec<Hint>, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        ensure_not_withdrawn(&record)?;
        if game.is_over() {
            return Err(engine::Rejection::GameOver.into());
        }
        let rules = game.rules();
        let generator = MoveGenerator::new(rules, self.graph(rules.variant)?);
        let leave = LeaveTable::heuristic(rules);
        let plays = engine::norepeat::best_plays(&game, &generator, game.rack(seat), limit.clamp(1, MAX_HINTS), Ranking::Equity(&leave));
        Ok(plays
            .iter()
            .map(|p| Hint {
                coord: p.coordinate(),
                word: p.notation(rules),
                score: p.score,
                equity: p.equity,
                placements: p.placements().into_iter().map(|pl| PlacementInput::from_placement(rules, pl)).collect(),
            })
            .collect())
    }

    /// The game, read without a lock, after any robot whose turn it is has moved.
    pub(crate) async fn load_settled(&self, game_id: Uuid) -> Result<(GameRecord, Game), ServiceError> {
        let record = self.store.game(game_id).await?;
        let game = rebuild(&record)?;
        if !robot_due(&record, &game) {
            return Ok((record, game));
        }
        let (tx, game) = self.lock_settled(game_id, None).await?;
        let record = tx.game.clone();
        drop(tx);
        Ok((record, game))
    }

    /// The game locked for a change, after any robot whose turn it was has moved (in a
    /// transaction of its own, committed first).
    pub(crate) async fn lock_settled(&self, game_id: Uuid, client_move_id: Option<Uuid>) -> Result<(GameTx, Game), ServiceError> {
        let tx = self.store.lock_game(game_id, client_move_id).await?;
        let mut game = rebuild(&tx.game)?;
        if !robot_due(&tx.game, &game) {
            return Ok((tx, game));
        }
        tracing::warn!(game_id = %game_id, move_count = tx.game.move_count, "a robot's turn was waiting; moving it now");
        self.commit_moves(tx, &mut game, None, None).await?;
        let tx = self.store.lock_game(game_id, client_move_id).await?;
        let game = rebuild(&tx.game)?;
        Ok((tx, game))
    }

    /// Applies `human` (a checked move and its idempotency key, if any) and then robot moves
    /// while a robot is to move, builds the answer as `viewer` sees it, and writes the moves and
    /// the game's new state (with the answer, for a keyed move) in one statement before
    /// committing.
    pub(crate) async fn commit_moves(
        &self,
        tx: GameTx,
        game: &mut Game,
        viewer: Option<Seat>,
        human: Option<(engine::CheckedMove, Option<Key>)>,
    ) -> Result<MoveOutcome, ServiceError> {
        let (checked, key) = human.map_or((None, None), |(c, k)| (Some(c), k));
        let mut entries: Vec<JournalEntry> = checked.into_iter().map(|c| game.apply(c).clone()).collect();
        let human_moves = entries.len();
        let mut thinking_ms = 0;
        while let Some(level) = (!game.is_over()).then(|| robot_level(&tx.game, game.to_move())).flatten() {
            // A robot's turn has no deadline of its own; the request's budget bounds its thinking.
            let graph = self.graph(game.rules().variant)?;
            let choice = robot::choose(game, graph, level, self.runtime.seeds.seed(), None);
            let robot_seat = game.to_move();
            let checked = game.check(graph, robot_seat, &choice.mv, timestamp(self.now()))?;
            entries.push(game.apply(checked).clone());
            thinking_ms += choice.thinking_ms;
        }
        let now = self.now();
        let waiting = tx.game.players.iter().any(|p| p.account.is_none());
        let deadline = match (game.is_over() || waiting, tx.game.turn_seconds) {
            (false, Some(t)) => Some(now + Duration::seconds(i64::from(t))),
            _ => None,
        };
        let update = GameUpdate {
            move_count: game.move_count(),
            status: if game.is_over() {
                GameStatus::Finished
            } else if waiting {
                GameStatus::Open
            } else {
                GameStatus::Active
            },
            turn_deadline: deadline,
            end_reason: game.end().map(|e| reason_id(e.reason).0.to_string()),
        };
        let mut record = tx.game.clone();
        record.move_count = update.move_count;
        record.status = update.status;
        record.turn_deadline = update.turn_deadline;
        record.end_reason = update.end_reason.clone();
        record.journal = game.journal().to_vec();
        game.set_deadline(deadline.map(timestamp));
        let seen = viewer.map_or(Viewer::Public, Viewer::Seat);
        let outcome =
            MoveOutcome { moves: entries.iter().map(|e| entry_view(e, seen)).collect(), thinking_ms, game: build(&record, game, viewer) };
        let response = match &key {
            Some(_) => Some(serde_json::to_string(&outcome).map_err(|e| store::StoreError::Corrupt(e.to_string()))?),
            None => None,
        };
        let rows: Vec<NewMove<'_>> = entries
            .iter()
            .enumerate()
            .map(|(i, entry)| match (&key, i < human_moves) {
                (Some(k), true) => NewMove { entry, client_move_id: Some(k.id), request_hash: Some(k.hash), response: response.clone() },
                _ => NewMove { entry, client_move_id: None, request_hash: None, response: None },
            })
            .collect();
        tx.finish(&rows, &update).await?;
        Ok(outcome)
    }
}

/// The result a retried submit gets when its first answer was not kept (moves recorded before
/// answers were): the move it first made and the robot moves right after, as `seat` may see
/// them, with the game as it is now.
fn replayed_outcome(record: &GameRecord, seat: Seat, move_no: u32) -> Result<MoveOutcome, ServiceError> {
    let game = rebuild(record)?;
    let moves: Vec<EntryView> = record
        .journal
        .iter()
        .skip(move_no as usize)
        .enumerate()
        .take_while(|(i, e)| *i == 0 || is_robot(record, e.seat))
        .map(|(_, e)| entry_view(e, Viewer::Seat(seat)))
        .collect();
    Ok(MoveOutcome { moves, thinking_ms: 0, game: build(record, &game, Some(seat)) })
}

/// The level of the robot in `seat`, if a robot sits there.
fn robot_level(record: &GameRecord, seat: Seat) -> Option<RobotLevel> {
    record.players.get(seat.index()).and_then(|p| p.account.as_ref()).and_then(|a| a.robot_level)
}

fn is_robot(record: &GameRecord, seat: Seat) -> bool {
    record.players.get(seat.index()).and_then(|p| p.account.as_ref()).is_some_and(|a| a.kind == AccountKind::Robot)
}

/// Whether a robot is to move in an active game: it moves before anything else is done.
fn robot_due(record: &GameRecord, game: &Game) -> bool {
    record.status == GameStatus::Active && !game.is_over() && robot_level(record, game.to_move()).is_some()
}

/// Refuses a change to a withdrawn game.
fn ensure_not_withdrawn(record: &GameRecord) -> Result<(), ServiceError> {
    if record.status == GameStatus::Withdrawn {
        return Err(ServiceError::Withdrawn);
    }
    Ok(())
}

/// Refuses a resignation or timeout of a game that nobody has joined (or that was withdrawn).
fn ensure_started(record: &GameRecord) -> Result<(), ServiceError> {
    ensure_not_withdrawn(record)?;
    if record.status == GameStatus::Open {
        return Err(ServiceError::NotStarted);
    }
    Ok(())
}

/// The caller's seat in the game.
pub(crate) fn seat_of(record: &GameRecord, caller: &Caller) -> Result<Seat, ServiceError> {
    record
        .players
        .iter()
        .find(|p| p.account.as_ref().is_some_and(|a| a.account_id == caller.account_id()))
        .map(|p| Seat(p.seat as u8))
        .ok_or(ServiceError::NotYourGame)
}

/// The engine game rebuilt from the record's seed and journal, with its deadline.
pub(crate) fn rebuild(record: &GameRecord) -> Result<Game, ServiceError> {
    let mut game = replay(&crate::admin::setup(record), &record.journal)?;
    game.set_deadline(record.turn_deadline.map(timestamp));
    Ok(game)
}

/// The draw's log as rows, each naming its participant's account (`None` for the nil
/// placeholder of an open game).
pub(crate) fn draw_rows(drawn: &seating::DrawResult, participants: &[Uuid]) -> Vec<DrawRow> {
    drawn
        .log
        .iter()
        .map(|d| {
            let id = participants[d.participant];
            DrawRow {
                round: d.round as i16,
                pick_no: d.pick_no as i16,
                account_id: (!id.is_nil()).then_some(id),
                letter: d.letter.to_string(),
                is_blank: d.is_blank,
                rank: d.rank,
            }
        })
        .collect()
}

pub(crate) fn check_turn_seconds(turn_seconds: Option<i32>) -> Result<(), ServiceError> {
    match turn_seconds {
        Some(t) if !(10..=2_592_000).contains(&t) => {
            Err(invalid(Invalid::BadTurnSeconds, format!("turn_seconds must be 10..=2592000, not {t}")))
        }
        _ => Ok(()),
    }
}

pub(crate) fn invalid(reason: Invalid, message: String) -> ServiceError {
    ServiceError::Invalid { reason, message }
}

fn timestamp(t: DateTime<Utc>) -> Timestamp {
    Timestamp(t.timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opponent_is_exactly_one_of_robot_and_account() {
        let id = Uuid::new_v4();
        let parse = |s: String| serde_json::from_str::<Opponent>(&s);
        assert_eq!(parse(r#"{"robot":"easy"}"#.into()).unwrap(), Opponent::Robot("easy".into()));
        assert_eq!(parse(format!(r#"{{"account":"{id}"}}"#)).unwrap(), Opponent::Account(id));
        for bad in [format!(r#"{{"robot":"easy","account":"{id}"}}"#), "{}".into(), r#"{"robot":"easy","x":1}"#.into()] {
            let e = parse(bad.clone()).unwrap_err();
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{bad}: {e}");
        }
    }
}
