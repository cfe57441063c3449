//! The use cases.

use chrono::{DateTime, Duration, Utc};
use engine::seating;
use engine::{
    Game, JournalEntry, LeaveTable, Move, MoveGenerator, PlacementInput, Ranking, ScoreBreakdown, Seat, Timestamp, Variant, replay,
};
use serde::{Deserialize, Serialize};
use store::{AccountKind, DrawRow, GameRecord, GameStatus, GameTx, GameUpdate, NewGame, RobotLevel};
use uuid::Uuid;

use crate::view::{GameView, build, reason_id};
use crate::{Caller, OsEntropy, Service, ServiceError, robot};

/// Who else sits at a new table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// A robot of this level: easy, medium or hard.
    Robot(String),
    /// A human account, by id.
    Account(Uuid),
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

/// A request to open a game for auto-match: the caller against whoever joins.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenGame {
    /// The variant id.
    pub variant: String,
    /// Seconds per turn (10 s to 30 days), or untimed.
    #[serde(default)]
    pub turn_seconds: Option<i32>,
}

/// An open game in the lobby.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct OpenGameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant id.
    pub variant: String,
    /// When it was opened.
    pub created_at: DateTime<Utc>,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// Who opened it.
    pub opener_id: Uuid,
    /// Their name.
    pub opener_name: String,
}

/// A move submission.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitMove {
    /// The game's `move_count` the move was built on.
    pub expected_move_no: u32,
    /// The client's id for this move: a retry with the same id returns the first result.
    pub client_move_id: Option<Uuid>,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
}

/// What a submitted move (and any robot replies) did.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveOutcome {
    /// Journal entries written by this request: the caller's move, then robot moves.
    pub moves: Vec<JournalEntry>,
    /// How long the client should take to reveal the robots' moves, in total.
    pub thinking_ms: u32,
    /// The game afterwards.
    pub game: GameView,
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
    fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Creates a game: the caller at seat 0, the opponents after, the bag seeded afresh.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for an unknown variant, 0 or more than 3 opponents, an unknown
    /// robot level, the caller or a robot account as a human opponent, a seat twice, or
    /// turn seconds out of range; [`ServiceError::NotFound`] for an unknown account.
    #[tracing::instrument(skip(self, req), fields(account = %caller.account_id))]
    pub async fn create_game(&self, caller: &Caller, req: &CreateGame) -> Result<GameView, ServiceError> {
        let variant: Variant = req.variant.parse().map_err(|e: engine::variant::VariantError| invalid("unknown_variant", e.to_string()))?;
        if req.opponents.is_empty() || req.opponents.len() > 3 {
            return Err(invalid("bad_opponents", format!("a game has 1 to 3 opponents, not {}", req.opponents.len())));
        }
        check_turn_seconds(req.turn_seconds)?;
        self.ensure_caller(caller).await?;
        let mut seats = vec![Some(caller.account_id)];
        for o in &req.opponents {
            let id = match o {
                Opponent::Robot(level) => RobotLevel::parse(level)
                    .ok_or_else(|| invalid("unknown_robot_level", format!("unknown robot level {level:?}")))?
                    .account_id(),
                Opponent::Account(id) => {
                    let account = self.store.account(*id).await?;
                    if account.kind != AccountKind::Human {
                        return Err(invalid("bad_opponents", "robots are seated by level, not by account".into()));
                    }
                    *id
                }
            };
            if seats.contains(&Some(id)) {
                return Err(invalid(
                    "bad_opponents",
                    match o {
                        Opponent::Robot(_) => "one robot of each level per game".to_string(),
                        Opponent::Account(_) => format!("account {id} is seated twice"),
                    },
                ));
            }
            seats.push(Some(id));
        }
        // The official first-move draw decides who sits at seat 0 (and so moves first).
        let accounts: Vec<Uuid> = seats.iter().map(|s| s.expect("every seat is filled at creation")).collect();
        let drawn = seating::draw(variant.rules(), accounts.len(), &mut OsEntropy).map_err(|e| invalid("bad_opponents", e.to_string()))?;
        let draws = draw_rows(&drawn, &accounts);
        let seats: Vec<Option<Uuid>> = seating::rotate(&accounts, drawn.leader).into_iter().map(Some).collect();
        let deadline = req.turn_seconds.map(|t| self.now() + Duration::seconds(i64::from(t)));
        let new = new_game(variant, GameStatus::Active, req.turn_seconds, deadline, seats, draws);
        let game_id = new.game_id;
        self.store.create_game(&new).await?;
        let tx = self.store.lock_game(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        let mut game = rebuild(&tx.game)?;
        // A robot that won the draw opens at once.
        Ok(self.commit_moves(tx, &mut game, seat, None, None).await?.game)
    }

    /// Opens a game for auto-match: the first-move draw runs at once between the caller and a
    /// placeholder opponent (the nil UUID; its draw rows are stored without an account), the
    /// caller takes the seat the draw decided, and the other seat waits for a joiner or a robot.
    /// If the caller leads, they may play their opening move while waiting.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for an unknown variant or bad turn seconds.
    #[tracing::instrument(skip(self, req), fields(account = %caller.account_id))]
    pub async fn open_game(&self, caller: &Caller, req: &OpenGame) -> Result<GameView, ServiceError> {
        let variant: Variant = req.variant.parse().map_err(|e: engine::variant::VariantError| invalid("unknown_variant", e.to_string()))?;
        check_turn_seconds(req.turn_seconds)?;
        self.ensure_caller(caller).await?;
        let participants = [caller.account_id, Uuid::nil()];
        let drawn = seating::draw(variant.rules(), 2, &mut OsEntropy).map_err(|e| invalid("bad_opponents", e.to_string()))?;
        let draws = draw_rows(&drawn, &participants);
        let seats: Vec<Option<Uuid>> =
            seating::rotate(&participants, drawn.leader).into_iter().map(|id| (!id.is_nil()).then_some(id)).collect();
        let new = new_game(variant, GameStatus::Open, req.turn_seconds, None, seats, draws);
        let game_id = new.game_id;
        self.store.create_game(&new).await?;
        self.get_game(caller, game_id).await
    }

    /// Open games to join, oldest first, without the caller's own (at most 50).
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for an unknown variant.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn list_open_games(&self, caller: &Caller, variant: Option<&str>) -> Result<Vec<OpenGameView>, ServiceError> {
        let variant = variant.map(|v| v.parse::<Variant>().map_err(|e| invalid("unknown_variant", e.to_string()))).transpose()?;
        let games = self.store.open_games(variant, caller.account_id, 50).await?;
        Ok(games
            .into_iter()
            .map(|g| OpenGameView {
                game_id: g.game_id,
                variant: g.variant.id().to_string(),
                created_at: g.created_at,
                turn_seconds: g.turn_seconds,
                opener_id: g.opener.account_id,
                opener_name: g.opener.display_name,
            })
            .collect())
    }

    /// Joins an open game: the caller takes the empty seat, the placeholder's draw rows are
    /// back-filled with the caller's account, and the game becomes active, in one transaction.
    ///
    /// # Errors
    /// [`ServiceError::NotOpen`] if the game is full or finished (also for the loser of a race),
    /// [`ServiceError::AlreadySeated`] for one's own game, [`ServiceError::NotFound`].
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn join_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let account = self.ensure_caller(caller).await?;
        let mut tx = self.store.lock_game(game_id, None).await?;
        if seat_of(&tx.game, caller).is_ok() {
            return Err(ServiceError::AlreadySeated);
        }
        if tx.game.status != GameStatus::Open {
            return Err(ServiceError::NotOpen);
        }
        let seat = tx.fill_open_seat(&account).await?;
        let mut game = rebuild(&tx.game)?;
        Ok(self.commit_moves(tx, &mut game, Seat(seat as u8), None, None).await?.game)
    }

    /// Fills the empty seat of the caller's open game with a robot of `level`; if it is then
    /// the robot's turn, the robot moves in the same request.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for an unknown level, [`ServiceError::NotYourGame`],
    /// [`ServiceError::NotOpen`].
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn attach_robot(&self, caller: &Caller, game_id: Uuid, level: &str) -> Result<MoveOutcome, ServiceError> {
        let level = RobotLevel::parse(level).ok_or_else(|| invalid("unknown_robot_level", format!("unknown robot level {level:?}")))?;
        let robot = self.store.account(level.account_id()).await?;
        let mut tx = self.store.lock_game(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        if tx.game.status != GameStatus::Open {
            return Err(ServiceError::NotOpen);
        }
        tx.fill_open_seat(&robot).await?;
        let mut game = rebuild(&tx.game)?;
        self.commit_moves(tx, &mut game, seat, None, None).await
    }

    /// The caller's human account, created on first sight.
    async fn ensure_caller(&self, caller: &Caller) -> Result<store::Account, ServiceError> {
        self.store.ensure_human(caller.account_id, &caller.display_name).await.map_err(|e| match e {
            store::StoreError::Conflict(_) => invalid("robot_identity", "a robot's identity cannot play as a human".into()),
            other => other.into(),
        })
    }

    /// The game as the caller sees it.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`] for a non-player.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn get_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let record = self.store.game(game_id).await?;
        let seat = seat_of(&record, caller)?;
        let game = rebuild(&record)?;
        Ok(build(&record, &game, Some(seat)))
    }

    /// Validates and applies the caller's move, then any robot replies, under the game's lock.
    ///
    /// # Errors
    /// [`ServiceError::StaleMove`] if `expected_move_no` is not the game's move count,
    /// [`ServiceError::Rejected`] with the engine's reason, [`ServiceError::NotYourGame`],
    /// [`ServiceError::NotFound`], [`ServiceError::Conflict`] on a lost race.
    #[tracing::instrument(skip(self, req), fields(account = %caller.account_id, expected = req.expected_move_no))]
    pub async fn submit_move(&self, caller: &Caller, game_id: Uuid, req: &SubmitMove) -> Result<MoveOutcome, ServiceError> {
        let tx = self.store.lock_game(game_id, req.client_move_id).await?;
        let seat = seat_of(&tx.game, caller)?;
        if let Some(move_no) = tx.client_move_no {
            return replayed_outcome(&tx.game, seat, move_no);
        }
        if req.expected_move_no != tx.game.move_count {
            return Err(ServiceError::StaleMove { expected: req.expected_move_no, actual: tx.game.move_count });
        }
        let mut game = rebuild(&tx.game)?;
        let checked = game.check(self.graph(game.rules().variant)?, seat, &req.mv, timestamp(self.now()))?;
        self.commit_moves(tx, &mut game, seat, Some(checked), req.client_move_id).await
    }

    /// Resigns the caller's seat (allowed out of turn).
    ///
    /// # Errors
    /// As [`Service::submit_move`], without the staleness check.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn resign(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let tx = self.store.lock_game(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        let mut game = rebuild(&tx.game)?;
        let checked = game.check(self.graph(game.rules().variant)?, seat, &Move::Resign, timestamp(self.now()))?;
        self.commit_moves(tx, &mut game, seat, Some(checked), None).await
    }

    /// Records that the seat to move ran out of time; any seated player may claim it.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with `deadline_not_passed` or `game_over`; as above.
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn claim_timeout(&self, caller: &Caller, game_id: Uuid) -> Result<MoveOutcome, ServiceError> {
        let tx = self.store.lock_game(game_id, None).await?;
        let seat = seat_of(&tx.game, caller)?;
        let mut game = rebuild(&tx.game)?;
        let checked = game.check_timeout(timestamp(self.now()))?;
        self.commit_moves(tx, &mut game, seat, Some(checked), None).await
    }

    /// Scores a move as submit would, writing nothing.
    ///
    /// # Errors
    /// [`ServiceError::Rejected`] with exactly the reason submit would give.
    #[tracing::instrument(skip(self, mv), fields(account = %caller.account_id))]
    pub async fn preview_move(&self, caller: &Caller, game_id: Uuid, mv: &Move) -> Result<Preview, ServiceError> {
        let record = self.store.game(game_id).await?;
        let seat = seat_of(&record, caller)?;
        let game = rebuild(&record)?;
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
    #[tracing::instrument(skip(self), fields(account = %caller.account_id))]
    pub async fn hint(&self, caller: &Caller, game_id: Uuid, limit: usize) -> Result<Vec<Hint>, ServiceError> {
        let record = self.store.game(game_id).await?;
        let seat = seat_of(&record, caller)?;
        let game = rebuild(&record)?;
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

    /// Applies `checked` (if any) and then robot moves while a robot is to move, and writes
    /// them all with the game's new state in one statement before committing.
    async fn commit_moves(
        &self,
        tx: GameTx,
        game: &mut Game,
        seat: Seat,
        checked: Option<engine::CheckedMove>,
        cmid: Option<Uuid>,
    ) -> Result<MoveOutcome, ServiceError> {
        let mut moves: Vec<JournalEntry> = checked.into_iter().map(|c| game.apply(c).clone()).collect();
        let human_moves = moves.len();
        let mut thinking_ms = 0;
        while let Some(level) = (!game.is_over()).then(|| robot_level(&tx.game, game.to_move())).flatten() {
            // A robot's turn has no deadline of its own; the request's budget bounds its thinking.
            let graph = self.graph(game.rules().variant)?;
            let choice = robot::choose(game, graph, level, None);
            let robot_seat = game.to_move();
            let checked = game.check(graph, robot_seat, &choice.mv, timestamp(self.now()))?;
            moves.push(game.apply(checked).clone());
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
        let rows: Vec<(JournalEntry, Option<Uuid>)> =
            moves.iter().enumerate().map(|(i, e)| (e.clone(), if i < human_moves { cmid } else { None })).collect();
        tx.finish(&rows, &update).await?;
        record.move_count = update.move_count;
        record.status = update.status;
        record.turn_deadline = update.turn_deadline;
        record.end_reason = update.end_reason;
        record.journal = game.journal().to_vec();
        game.set_deadline(deadline.map(timestamp));
        Ok(MoveOutcome { moves, thinking_ms, game: build(&record, game, Some(seat)) })
    }
}

/// The result a retried submit gets: the move it first made and the robot moves right after.
fn replayed_outcome(record: &GameRecord, seat: Seat, move_no: u32) -> Result<MoveOutcome, ServiceError> {
    let game = rebuild(record)?;
    let moves: Vec<JournalEntry> = record
        .journal
        .iter()
        .skip(move_no as usize)
        .enumerate()
        .take_while(|(i, e)| *i == 0 || is_robot(record, e.seat))
        .map(|(_, e)| e.clone())
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

/// The caller's seat in the game.
fn seat_of(record: &GameRecord, caller: &Caller) -> Result<Seat, ServiceError> {
    record
        .players
        .iter()
        .find(|p| p.account.as_ref().is_some_and(|a| a.account_id == caller.account_id))
        .map(|p| Seat(p.seat as u8))
        .ok_or(ServiceError::NotYourGame)
}

/// The engine game rebuilt from the record's seed and journal, with its deadline.
fn rebuild(record: &GameRecord) -> Result<Game, ServiceError> {
    let mut game = replay(&crate::admin::setup(record), &record.journal)?;
    game.set_deadline(record.turn_deadline.map(timestamp));
    Ok(game)
}

/// A new game with a fresh id and bag seed, the variant's no-repeat setting pinned.
fn new_game(
    variant: Variant,
    status: GameStatus,
    turn_seconds: Option<i32>,
    turn_deadline: Option<DateTime<Utc>>,
    seats: Vec<Option<Uuid>>,
    draws: Vec<DrawRow>,
) -> NewGame {
    NewGame {
        game_id: Uuid::new_v4(),
        variant,
        seed: rand::random(),
        no_repeat_words: variant.rules().no_repeat_words,
        status,
        turn_seconds,
        turn_deadline,
        seats,
        draws,
    }
}

/// The draw's log as rows, each naming its participant's account (`None` for the nil
/// placeholder of an open game).
fn draw_rows(drawn: &seating::DrawResult, participants: &[Uuid]) -> Vec<DrawRow> {
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

fn check_turn_seconds(turn_seconds: Option<i32>) -> Result<(), ServiceError> {
    match turn_seconds {
        Some(t) if !(10..=2_592_000).contains(&t) => {
            Err(invalid("bad_turn_seconds", format!("turn_seconds must be 10..=2592000, not {t}")))
        }
        _ => Ok(()),
    }
}

fn invalid(code: &'static str, message: String) -> ServiceError {
    ServiceError::Invalid { code, message }
}

fn timestamp(t: DateTime<Utc>) -> Timestamp {
    Timestamp(t.timestamp_millis())
}
