//! Spectators: who may watch a game (the one rule, [`store::Watch::allowed`], which every read
//! by a stranger and every push to a spectator goes through), what they see (the public view, a tournament's live games some moves behind), the
//! list of live games to pick from, and the player's setting.

use chrono::{DateTime, Utc};
use games::{AnyGame, Family, Position, TimeControl, Variant, Viewer};
use serde::Serialize;
use store::{AccountKind, GameRecord, GameStatus, Spectating, Watch};
use uuid::Uuid;

use crate::error::ErrorCode;
use crate::history::MovesPage;
use crate::lobby::{parse_cursor, write_cursor};
use crate::usecases::invalid;
use crate::view::{GameView, build};
use crate::{Caller, MeView, Service, ServiceError};

/// The most moves a director may hold a tournament's live games back from spectators.
pub const MAX_SPECTATOR_DELAY: u32 = 20;

/// The largest page of the live games.
pub const MAX_LIVE_PAGE: usize = 50;

/// How many games one page of the live list reads at most to fill itself with watchable ones
/// (a page may come back short, with a cursor, when most recent games are private).
const LIVE_SCAN: i64 = 200;

/// A page of live games.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LiveGamesPage {
    /// The watchable games being played, the most recently active first.
    pub games: Vec<LiveGameView>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// A game being played, as the live list shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LiveGameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// Its family.
    pub family: Family,
    /// `active`, or `drawing` (its players drawing for who starts).
    pub status: GameStatus,
    /// Its seats.
    pub seats: Vec<LiveSeatView>,
    /// Moves so far.
    pub move_count: u32,
    /// Whether it is rated.
    pub rated: bool,
    /// How it is timed.
    pub time_control: TimeControl,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// When it last changed.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub updated_at: DateTime<Utc>,
}

/// A seat in the live list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LiveSeatView {
    /// The seat, 0-based.
    pub seat: usize,
    /// Who sits there.
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// human or robot.
    pub kind: Option<AccountKind>,
    /// A robot's level.
    pub robot_level: Option<store::Level>,
}

impl Service {
    /// The game as a stranger sees it: the public view (no rack, no exchanged letters, no
    /// hints), a tournament's live game as many moves behind as its director chose (then with no
    /// clock).
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for a game that may not be watched, as for one that does not
    /// exist.
    pub(crate) async fn spectator_view(&self, record: &GameRecord, game: &AnyGame<'_>) -> Result<GameView, ServiceError> {
        let now = self.now();
        let withheld = self.withheld(record, game).await?;
        if withheld == 0 {
            let mut view = build(record, game, None, now);
            view.spectator = true;
            return Ok(view);
        }
        let behind = self.behind(record, game.move_count() - withheld)?;
        let mut view = build(record, &behind, None, now);
        view.spectator = true;
        view.spectator_delay = withheld;
        view.clock = None;
        view.turn_deadline = None;
        Ok(view)
    }

    /// The journal from move `after` on as a stranger may see it (public entries, a delayed
    /// tournament game's only up to what its spectators see).
    pub(crate) async fn spectator_moves(&self, record: &GameRecord, game: &AnyGame<'_>, after: u32) -> Result<MovesPage, ServiceError> {
        let seen = game.move_count() - self.withheld(record, game).await?;
        let moves = (after..seen).filter_map(|i| game.entry_view(i, Viewer::Public)).collect();
        Ok(MovesPage { game_id: record.game_id, status: record.status, move_count: seen, moves })
    }

    /// How many of `game`'s moves its spectators do not see yet: none of a game that is over or
    /// not in a tournament; else the tournament's delay. A game that may not be watched is
    /// [`ServiceError::NotFound`].
    async fn withheld(&self, record: &GameRecord, game: &AnyGame<'_>) -> Result<u32, ServiceError> {
        if !Watch::from(record).allowed() {
            return Err(ServiceError::NotFound);
        }
        let live = matches!(record.status, GameStatus::Active | GameStatus::Drawing) && !game.is_over();
        let delay = match record.tournament_id {
            Some(tournament) if live => self.store.spectator_delay(tournament).await?,
            _ => 0,
        };
        Ok(delay.min(game.move_count()))
    }

    /// `record`'s game replayed from its setup and its first `moves` journal entries.
    fn behind(&self, record: &GameRecord, moves: u32) -> Result<AnyGame<'_>, ServiceError> {
        let mut entries: Vec<serde_json::Value> =
            serde_json::from_str(&record.journal).map_err(|e| ServiceError::Replay(format!("journal of {}: {e}", record.game_id)))?;
        entries.truncate(moves as usize);
        let journal = serde_json::Value::Array(entries).to_string();
        let stored = games::Stored { journal: &journal, ..crate::repository::stored(record) };
        Ok(self.families.replay(&stored)?)
    }

    /// The watchable games being played (of `variant`, of `tournament`, where given), the most
    /// recently active first, a page at a time: at most `limit` (1 to [`MAX_LIVE_PAGE`]) from
    /// `cursor` on. The caller's own games are listed too.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] (`bad_cursor`) for a cursor this service did not write.
    pub async fn live_games(
        &self,
        variant: Option<Variant>,
        tournament: Option<Uuid>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<LiveGamesPage, ServiceError> {
        let limit = limit.clamp(1, MAX_LIVE_PAGE);
        let mut after = cursor.map(parse_cursor).transpose()?;
        let mut games = Vec::new();
        let mut scanned = 0;
        let batch = (limit as i64 + 1).min(LIVE_SCAN);
        let cursor_at = |after: Option<(DateTime<Utc>, Uuid)>| after.map(|(at, id)| write_cursor(at, id));
        // Read until the page is full, the games run out, or the scan's bound is reached (then
        // the page ends short, its cursor where the scan stopped).
        let next_cursor = 'scan: loop {
            let rows = self.store.live_games(variant, tournament, after, batch).await?;
            let exhausted = (rows.len() as i64) < batch;
            for row in rows {
                if games.len() == limit {
                    break 'scan cursor_at(after);
                }
                after = Some((row.updated_at, row.game_id));
                scanned += 1;
                if Watch::from(&row).allowed() {
                    games.push(live_view(row));
                }
            }
            if exhausted {
                break None;
            }
            if scanned >= LIVE_SCAN {
                break cursor_at(after);
            }
        };
        Ok(LiveGamesPage { games, next_cursor })
    }

    /// Sets who may watch the caller's games ([`Spectating`]); the caller's account after.
    ///
    /// # Errors
    /// [`ServiceError::ReservedIdentity`] for a robot's id; database errors.
    pub async fn set_spectating(&self, caller: &Caller, spectating: Spectating) -> Result<MeView, ServiceError> {
        self.ensure_caller(caller).await?;
        self.store.set_spectating(caller.account_id(), spectating).await?;
        self.me(caller).await
    }
}

/// The spectating setting named `name`.
///
/// # Errors
/// [`ServiceError::Invalid`] (`bad_spectating`) for any other name.
pub fn spectating(name: &str) -> Result<Spectating, ServiceError> {
    Spectating::parse(name).ok_or_else(|| invalid(ErrorCode::BadSpectating, format!("spectating {name:?}: one of standard, always, never")))
}

fn live_view(row: store::LiveGame) -> LiveGameView {
    LiveGameView {
        game_id: row.game_id,
        variant: row.variant,
        family: row.variant.family(),
        status: row.status,
        seats: row
            .players
            .iter()
            .map(|p| LiveSeatView {
                seat: p.seat,
                account_id: p.account.as_ref().map(|a| a.account_id),
                display_name: p.account.as_ref().map(|a| a.display_name.clone()),
                kind: p.account.as_ref().map(|a| a.kind),
                robot_level: p.account.as_ref().and_then(|a| a.robot_level),
            })
            .collect(),
        move_count: row.move_count,
        rated: row.rated,
        time_control: row.time_control,
        tournament_id: row.tournament_id,
        updated_at: row.updated_at,
    }
}
