//! The lobby: open a game for auto-match, list the open games a page at a time, join one,
//! seat a robot in one's own, or withdraw it before anyone joins.

use chrono::{DateTime, Utc};
use games::{ChallengeRule, Seat, TimeControl, TimeControlKind, Variant};
use serde::Serialize;
use store::{GameStatus, Level, NewGame};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::error::ErrorCode;
use crate::hints::{allowance, checked_hints};
use crate::invitation::{ensure_inviter, ensure_not_awaiting};
use crate::requests::OpenGame;
use crate::usecases::{Pinned, checked_challenge_rule, checked_time_control, invalid};
use crate::view::{GameView, build};
use crate::{Caller, MoveOutcome, Service, ServiceError};

/// The largest page of the lobby.
pub const MAX_LOBBY_PAGE: usize = 50;

/// A page of the lobby.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct OpenGamesPage {
    /// The open games, oldest first.
    pub games: Vec<OpenGameView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// An open game in the lobby.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct OpenGameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// When it was opened.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub created_at: DateTime<Utc>,
    /// How it is timed.
    pub time_control: TimeControl,
    /// A correspondence game's seconds a turn (as `time_control` says; kept for clients written
    /// before time controls), else null.
    pub turn_seconds: Option<u32>,
    /// How a word not in the list is settled.
    pub challenge_rule: ChallengeRule,
    /// Whether it is rated (then only a human may join).
    pub rated: bool,
    /// Rated, but the caller and its opener have played their rated games against each other
    /// for the day: joined by the caller, it is played casual.
    pub pair_limited: bool,
    /// A rated game's opener's rating in its variant and speed, rounded (null when casual).
    pub opener_rating: Option<i32>,
    /// A rated game's acceptable distance of a joiner's rating, ± points (null: anyone).
    pub rating_range: Option<u32>,
    /// Who opened it.
    pub opener_id: Uuid,
    /// Their name.
    pub opener_name: String,
}

impl Service {
    /// Opens a game for auto-match: the first-move draw runs at once between the caller and a
    /// placeholder opponent (the nil UUID; its draw rows are stored without an account), the
    /// caller takes the seat the draw decided, and the other seat waits for a joiner or a robot.
    /// If the caller leads, they may play their opening move while waiting.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for bad turn seconds or a bad time control; [`ServiceError::TooManyOpenGames`] past
    /// [`crate::MAX_OPEN_PER_VARIANT`]; [`ServiceError::TooManyGames`] past
    /// [`crate::MAX_UNFINISHED_GAMES`].
    #[tracing::instrument(skip(self, caller, req), fields(account = %caller.account_id()))]
    pub async fn open_game(&self, caller: &Caller, req: &OpenGame) -> Result<GameView, ServiceError> {
        let variant = req.variant;
        let time_control = checked_time_control(variant, req.time_control, req.turn_seconds)?;
        let challenge = checked_challenge_rule(variant, req.challenge_rule)?;
        let hints = checked_hints(req.hints)?;
        match req.rating_range {
            Some(_) if !req.rated => return Err(invalid(ErrorCode::BadRatingRange, "a rating range is for a rated game".into())),
            Some(r) if !(25..=1000).contains(&r) => {
                return Err(invalid(ErrorCode::BadRatingRange, format!("rating_range must be 25..=1000, not {r}")));
            }
            _ => {}
        }
        self.ensure_caller(caller).await?;
        let (draws, seats) = self.draw(variant, &[caller.account_id(), Uuid::nil()])?;
        let seats: Vec<Option<Uuid>> = seats.into_iter().map(|id| (!id.is_nil()).then_some(id)).collect();
        let new = NewGame {
            limits: Some(crate::limits::for_new_game(caller.account_id(), true, false)),
            rating_range: req.rating_range,
            ..self.new_game(
                variant,
                GameStatus::Open,
                Pinned { time_control, challenge, rated: req.rated, hints: allowance(variant, req.rated, hints) },
                seats,
                draws,
            )?
        };
        let tx = self.game_store.create_game(&new).await?;
        let seat = seat_of(tx.game(), caller)?;
        let mut game = self.games.rebuild(tx.game())?;
        Ok(self.commit_moves(tx, &mut game, Some(seat), None).await?.game)
    }

    /// Open games (of `variant` and of a time control of `control`'s kind, where given) to
    /// join, oldest first, without the caller's own: a
    /// page of at most `limit` (1..=50) from `cursor` (the previous page's `next_cursor`), so
    /// every open game can be reached however many there are.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for a cursor this service did not write (`bad_cursor`).
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn list_open_games(
        &self,
        caller: &Caller,
        variant: Option<Variant>,
        (control, rated, joinable): (Option<TimeControlKind>, Option<bool>, bool),
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<OpenGamesPage, ServiceError> {
        let after = cursor.map(parse_cursor).transpose()?;
        let limit = limit.clamp(1, MAX_LOBBY_PAGE);
        let asker = (caller.account_id(), crate::rating::pair_window_start(self.now()));
        let mut games = self.store.open_games(variant, (control, rated, joinable), asker, after, limit as i64 + 1).await?;
        let more = games.len() > limit;
        games.truncate(limit);
        let next_cursor = more.then(|| games.last().map(|g| write_cursor(g.created_at, g.game_id))).flatten();
        let games = games
            .into_iter()
            .map(|g| OpenGameView {
                game_id: g.game_id,
                variant: g.variant,
                created_at: g.created_at,
                turn_seconds: match g.time_control {
                    TimeControl::Correspondence { turn_seconds, .. } => Some(turn_seconds),
                    _ => None,
                },
                time_control: g.time_control,
                challenge_rule: g.challenge_rule,
                rated: g.rated,
                pair_limited: g.pair_rated_games.is_some_and(|n| !crate::rating::pair_may_play_rated(n)),
                opener_rating: g.opener_rating.map(|r| r.round() as i32),
                rating_range: g.rating_range,
                opener_id: g.opener.account_id,
                opener_name: g.opener.display_name,
            })
            .collect();
        Ok(OpenGamesPage { games, next_cursor })
    }

    /// Withdraws the caller's open game before anyone has joined, or the caller's invitation
    /// before every invitee has accepted: no result and nobody's loss (a move the opener made
    /// while waiting stays in its journal).
    ///
    /// # Errors
    /// [`ServiceError::NotYourGame`] for someone else's game, [`ServiceError::NotInviter`] for
    /// an invitee (they decline), [`ServiceError::NotOpen`] once someone has joined (resign
    /// instead) or for a finished one, [`ServiceError::Withdrawn`] if it already was,
    /// [`ServiceError::NotFound`].
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn withdraw_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let tx = self.game_store.lock_game(game_id, None, None).await?;
        let seat = seat_of(tx.game(), caller)?;
        match tx.game().status {
            GameStatus::Open => {}
            GameStatus::Withdrawn => return Err(ServiceError::Withdrawn),
            GameStatus::Drawing | GameStatus::Active | GameStatus::Finished => return Err(ServiceError::NotOpen),
        }
        ensure_inviter(tx.game(), caller.account_id(), seat)?;
        let mut record = tx.game().clone();
        tx.withdraw().await?;
        record.status = GameStatus::Withdrawn;
        record.turn_deadline = None;
        let game = self.games.rebuild(&record)?;
        Ok(build(&record, &game, Some(seat), self.now()))
    }

    /// Joins an open game (or accepts the invitation the caller received): the caller takes the
    /// empty seat, the placeholder's draw rows are back-filled with the caller's account, and
    /// the game becomes active, in one transaction.
    ///
    /// # Errors
    /// [`ServiceError::NotOpen`] if the game is full, finished, withdrawn or declined, or an
    /// invitation to others (also for the loser of a race), [`ServiceError::AlreadySeated`] for
    /// one's own live game,
    /// [`ServiceError::TooManyGames`] past [`crate::MAX_UNFINISHED_GAMES`],
    /// [`ServiceError::NotFound`].
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn join_game(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let mut tx = self.game_store.lock_game(game_id, None, None).await?;
        if let Ok(seat) = seat_of(tx.game(), caller) {
            // An invitation the caller received: joining accepts it.
            if tx.game().status == GameStatus::Open && tx.game().players[seat.index()].invited {
                self.ensure_caller(caller).await?;
                return self.accept(tx, seat).await;
            }
            // A withdrawn, declined or finished game is no longer open to anyone, its own
            // players included; only a live one the caller sits in is theirs already.
            return Err(match tx.game().status {
                GameStatus::Withdrawn | GameStatus::Finished => ServiceError::NotOpen,
                GameStatus::Open | GameStatus::Drawing | GameStatus::Active => ServiceError::AlreadySeated,
            });
        }
        if tx.game().status != GameStatus::Open || tx.game().players.iter().any(|p| p.invited) {
            return Err(ServiceError::NotOpen);
        }
        if let Some(range) = tx.game().rating_range.filter(|_| tx.game().rated) {
            // The opener's rating (a newcomer's when none) against the joiner's.
            let newcomer = ratings::DEFAULT_RATING;
            let opener = tx.game().ratings.iter().find_map(|r| r.rating.map(|x| (r.seat, x)));
            let opener = opener.map_or(newcomer, |(_, x)| x);
            let speed = tx.game().time_control.speed();
            let own = self.accounts.ratings_of(caller.account_id()).await?;
            let mine = own.iter().find(|r| r.variant == tx.game().variant && r.speed == speed).map_or(newcomer, |r| r.rating);
            if (mine - opener).abs() > f64::from(range) {
                return Err(ServiceError::RatingOutOfRange { rating: mine.round() as i32, opener: opener.round() as i32, range });
            }
        }
        let account = self.ensure_caller(caller).await?;
        self.ensure_room(&mut tx, account.account_id).await?;
        let seat = tx.fill_open_seat(&account).await?;
        self.limit_rated_pair(&mut tx).await?;
        let mut game = self.games.rebuild(tx.game())?;
        Ok(self.commit_moves(tx, &mut game, Some(Seat(seat as u8)), None).await?.game)
    }

    /// Fills the empty seat of the caller's open game with a robot of `level`; if it is then
    /// the robot's turn, the robot moves in the same request.
    ///
    /// # Errors
    /// [`ServiceError::NotYourGame`], [`ServiceError::AwaitingAcceptance`] for an invitation
    /// (its seats are the invitees'), [`ServiceError::NotOpen`].
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn attach_robot(&self, caller: &Caller, game_id: Uuid, level: Level) -> Result<MoveOutcome, ServiceError> {
        let robot = self.accounts.account(store::robot_account(level)).await?;
        let mut tx = self.game_store.lock_game(game_id, None, None).await?;
        let seat = seat_of(tx.game(), caller)?;
        ensure_not_awaiting(tx.game())?;
        if tx.game().status != GameStatus::Open {
            return Err(ServiceError::NotOpen);
        }
        if tx.game().rated {
            return Err(ServiceError::RatedGame);
        }
        tx.fill_open_seat(&robot).await?;
        let mut game = self.games.rebuild(tx.game())?;
        self.commit_moves(tx, &mut game, Some(seat), None).await
    }

    /// The caller's human account, created on first sight (and renamed to the token's name).
    pub(crate) async fn ensure_caller(&self, caller: &Caller) -> Result<store::Account, ServiceError> {
        self.accounts.ensure_human(caller.account_id(), caller.display_name()).await.map_err(|e| match e {
            store::StoreError::Conflict(store::Conflict::RobotIdentity) => ServiceError::ReservedIdentity(crate::ReservedIdentity::Robot),
            other => other.into(),
        })
    }
}

/// A page cursor: a time (microseconds since the epoch) and the id of the last game on a page
/// (the lobby's creation time, "my games"' last activity, the admin's game list's last change).
/// Every cursor written dates from 1970 to 9999, the range [`parse_cursor`] accepts.
pub(crate) fn write_cursor(created_at: DateTime<Utc>, game_id: Uuid) -> String {
    format!("{}.{}", created_at.timestamp_micros(), game_id.simple())
}

/// The last microsecond a cursor may name: the end of the year 9999. PostgreSQL's `timestamptz`
/// holds 4713 BC to 294276 AD; a forged time outside it would fail the query (a 500), so a
/// cursor outside 1970 ..= 9999 is refused before anything is queried.
const LAST_CURSOR_MICROS: i64 = 253_402_300_799_999_999;

/// Reads a cursor [`write_cursor`] wrote: every page's one decoding place (lobby, my games, the
/// admin's game list).
///
/// # Errors
///
/// [`ServiceError::Invalid`] (`bad_cursor`) for anything else, including a time before 1970 or
/// after 9999.
pub(crate) fn parse_cursor(cursor: &str) -> Result<(DateTime<Utc>, Uuid), ServiceError> {
    let bad = || invalid(ErrorCode::BadCursor, format!("{cursor:?} is not a cursor this service wrote"));
    let (micros, id) = cursor.split_once('.').ok_or_else(bad)?;
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    if !(0..=LAST_CURSOR_MICROS).contains(&micros) {
        return Err(bad());
    }
    let at = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    let id = Uuid::try_parse(id).map_err(|_| bad())?;
    Ok((at, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_foreign_ones_are_refused() {
        let at = DateTime::from_timestamp_micros(1_700_000_000_123_456).unwrap();
        let id = Uuid::new_v4();
        assert_eq!(parse_cursor(&write_cursor(at, id)).unwrap(), (at, id));
        for bad in ["", "x", "1.", ".abc", "12.not-a-uuid", "99999999999999999999.00000000000000000000000000000000", "1;DROP TABLE games"] {
            assert!(matches!(parse_cursor(bad), Err(ServiceError::Invalid { reason: ErrorCode::BadCursor, .. })), "{bad:?}");
        }
    }

    #[test]
    fn a_cursor_outside_1970_to_9999_is_refused() {
        let id = Uuid::nil().simple();
        let last = DateTime::parse_from_rfc3339("9999-12-31T23:59:59.999999Z").unwrap().timestamp_micros();
        assert_eq!(last, LAST_CURSOR_MICROS);
        for ok in [0, LAST_CURSOR_MICROS] {
            assert!(parse_cursor(&format!("{ok}.{id}")).is_ok(), "{ok}");
        }
        // Before 4713 BC, just before 1970, just after 9999, in 287,000 AD, and the ends of i64.
        for micros in [-210_900_000_000_000_000_i64, -1, LAST_CURSOR_MICROS + 1, 9_000_000_000_000_000_000, i64::MIN, i64::MAX] {
            let bad = format!("{micros}.{id}");
            assert!(matches!(parse_cursor(&bad), Err(ServiceError::Invalid { reason: ErrorCode::BadCursor, .. })), "{bad:?}");
        }
    }
}
