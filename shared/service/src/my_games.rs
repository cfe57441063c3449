//! "My games": the caller's games, most recent activity first, a page at a time, for an app
//! that plays many games over days.

use chrono::{DateTime, Utc};
use games::{Family, TimeControl, Variant};
use serde::Serialize;
use store::{GameStatus, LastMove, MyGame, MyGameSeat, MyGamesFilter};
use uuid::Uuid;

use crate::error::ErrorCode;
use crate::lobby::{parse_cursor, write_cursor};
use crate::usecases::invalid;
use crate::{Caller, Service, ServiceError};

/// The largest page of "my games".
pub const MAX_MY_GAMES_PAGE: usize = 50;

/// A page of the caller's games.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MyGamesPage {
    /// The games, most recent activity first.
    pub games: Vec<MyGameView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// One of the caller's games, as the list shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MyGameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// Its family.
    pub family: Family,
    /// open, active, finished or withdrawn.
    pub status: GameStatus,
    /// Moves so far.
    pub move_count: u32,
    /// The caller's seat.
    pub your_seat: usize,
    /// The seat to move, while the game is open or active.
    pub to_move: Option<usize>,
    /// Whether it is the caller's turn.
    pub your_turn: bool,
    /// A rematch waiting for the caller to accept (join) or decline.
    pub awaits_you: bool,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// When the player to move times out, if timed.
    #[serde(serialize_with = "store::timestamp::millis_opt")]
    pub turn_deadline: Option<DateTime<Utc>>,
    /// How it is timed.
    pub time_control: TimeControl,
    /// How a word not in the list is settled.
    pub challenge_rule: games::ChallengeRule,
    /// Whether it is rated.
    pub rated: bool,
    /// The tournament whose round it is a game of (null outside tournaments).
    pub tournament_id: Option<Uuid>,
    /// When the game last changed.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub last_activity: DateTime<Utc>,
    /// The last move's seat, kind and time.
    pub last_move: Option<LastMove>,
    /// Every seat: who sits there and its score.
    pub seats: Vec<MyGameSeat>,
}

impl Service {
    /// The caller's games, most recent activity first: only those in `status` if given (open,
    /// active, finished, withdrawn), only those where it is the caller's turn if `turn` is
    /// `mine`; a page of at most `limit` (1..=50) from `cursor` (the previous page's
    /// `next_cursor`). A game that moves while the client pages comes again at the top, never
    /// twice on one pass down.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] with `unknown_status`, `unknown_turn` or `bad_cursor`.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn my_games(
        &self,
        caller: &Caller,
        status: Option<&str>,
        turn: Option<&str>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<MyGamesPage, ServiceError> {
        let status = status
            .map(|s| {
                GameStatus::from_id(s)
                    .ok_or_else(|| invalid(ErrorCode::UnknownStatus, format!("status {s:?} is none of open, active, finished, withdrawn")))
            })
            .transpose()?;
        let my_turn = match turn {
            None => false,
            Some("mine") => true,
            Some(other) => return Err(invalid(ErrorCode::UnknownTurn, format!("turn {other:?} is not `mine`"))),
        };
        let after = cursor.map(parse_cursor).transpose()?;
        let limit = limit.clamp(1, MAX_MY_GAMES_PAGE);
        let mut games = self.store.my_games(caller.account_id(), MyGamesFilter { status, my_turn }, after, limit as i64 + 1).await?;
        let more = games.len() > limit;
        games.truncate(limit);
        let next_cursor = more.then(|| games.last().map(|g| write_cursor(g.last_activity, g.game_id))).flatten();
        Ok(MyGamesPage { games: games.into_iter().map(listed).collect(), next_cursor })
    }
}

fn listed(g: MyGame) -> MyGameView {
    let playing = matches!(g.status, GameStatus::Open | GameStatus::Active);
    let to_move = g.seats.iter().find(|s| s.my_turn).map(|s| s.seat).filter(|_| playing);
    MyGameView {
        game_id: g.game_id,
        variant: g.variant,
        family: g.variant.family(),
        status: g.status,
        move_count: g.move_count,
        your_seat: g.seat,
        to_move,
        your_turn: to_move == Some(g.seat),
        awaits_you: g.invited && g.status == GameStatus::Open,
        rematch_of: g.rematch_of,
        turn_deadline: g.turn_deadline,
        time_control: g.time_control,
        challenge_rule: g.challenge_rule,
        rated: g.rated,
        tournament_id: g.tournament_id,
        last_activity: g.last_activity,
        last_move: g.last_move,
        seats: g.seats,
    }
}
