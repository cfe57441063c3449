//! The post-game analysis of a finished game, for its players and admins: each move beside the
//! hard level's (`games::Analysis`) and a summary per player. Computed on the first request, within
//! counted budgets (`games::ANALYSIS_ROUNDS` per tile move, `games::ANALYSIS_NODES` per word),
//! stored, and served from storage afterwards. Nothing is shown before the game's end: the
//! analysis would tell a player the best move of a position still in play.

use games::{Analysis, Position};
use serde::Serialize;
use serde_json::value::RawValue;
use store::{GameRecord, GameStatus, StoredAnalysis};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::{Caller, Service, ServiceError};

/// How analyses are computed now (the budgets above); a stored one of another version is
/// computed again.
pub const ANALYSIS_VERSION: i32 = 1;

/// The answer: the analysis, each player's summary, and how long it took to compute.
#[derive(Debug, Clone, Serialize)]
struct AnalysisAnswer<'a> {
    game_id: Uuid,
    version: i32,
    #[serde(flatten)]
    analysis: &'a Analysis,
    players: Vec<PlayerSummary>,
}

/// One player's moves in sum.
#[derive(Debug, Clone, Serialize, PartialEq)]
struct PlayerSummary {
    seat: usize,
    /// Moves (tile) or words (chain) analysed.
    moves: u32,
    /// Tile: the mean equity given away per move, points.
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_equity_lost: Option<f64>,
    /// Tile: the move that gave away least (the first such); chain: a winning word played.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move: Option<u32>,
    /// Tile: the move that gave away most; chain: the first word where a win was missed.
    #[serde(skip_serializing_if = "Option::is_none")]
    worst_move: Option<u32>,
    /// Chain: words played where a winning word existed and was not played.
    #[serde(skip_serializing_if = "Option::is_none")]
    missed_wins: Option<u32>,
}

impl Service {
    /// The analysis of finished game `game_id` for one of its players.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`];
    /// [`ServiceError::NotFinished`] while the game is not over.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn analysis(&self, caller: &Caller, game_id: Uuid) -> Result<Box<RawValue>, ServiceError> {
        let (record, game) = self.games.read(game_id).await?;
        seat_of(&record, caller)?;
        self.analysis_of(&record, &game).await
    }

    /// The analysis of finished game `game_id`, for an admin.
    ///
    /// # Errors
    /// As [`Service::analysis`], but any game.
    pub async fn admin_analysis(&self, game_id: Uuid) -> Result<Box<RawValue>, ServiceError> {
        let (record, game) = self.games.read(game_id).await?;
        self.analysis_of(&record, &game).await
    }

    async fn analysis_of(&self, record: &GameRecord, game: &games::AnyGame<'_>) -> Result<Box<RawValue>, ServiceError> {
        if record.status != GameStatus::Finished || !game.is_over() {
            return Err(ServiceError::NotFinished("the analysis is shown once the game is over"));
        }
        let stored = match self.store.analysis(record.game_id, ANALYSIS_VERSION).await? {
            Some(stored) => stored,
            None => {
                let started = std::time::Instant::now();
                let analysis = game.analysis()?;
                let computed_ms = started.elapsed().as_millis() as u32;
                let answer = AnalysisAnswer {
                    game_id: record.game_id,
                    version: ANALYSIS_VERSION,
                    players: summaries(&analysis, record.seats),
                    analysis: &analysis,
                };
                let text = serde_json::to_string(&answer).map_err(|e| store::StoreError::Corrupt(e.to_string()))?;
                tracing::info!(game_id = %record.game_id, computed_ms, "analysed");
                let fresh = StoredAnalysis { version: ANALYSIS_VERSION, analysis: text, computed_ms };
                self.store.put_analysis(record.game_id, &fresh, self.now()).await?
            }
        };
        RawValue::from_string(stored.analysis).map_err(|e| store::StoreError::Corrupt(e.to_string()).into())
    }
}

/// Each seat's summary.
fn summaries(analysis: &Analysis, seats: usize) -> Vec<PlayerSummary> {
    (0..seats)
        .map(|seat| match analysis {
            Analysis::Tile { moves } => {
                let mine: Vec<_> = moves.iter().filter(|m| m.seat == seat).collect();
                let lost: f64 = mine.iter().map(|m| m.equity_lost).sum();
                let by_lost = |m: &&&games::TileReview| (m.equity_lost * 10.0).round() as i64;
                PlayerSummary {
                    seat,
                    moves: mine.len() as u32,
                    mean_equity_lost: (!mine.is_empty()).then(|| (lost / mine.len() as f64 * 10.0).round() / 10.0),
                    best_move: mine.iter().min_by_key(by_lost).map(|m| m.move_no),
                    worst_move: mine.iter().rev().max_by_key(by_lost).map(|m| m.move_no),
                    missed_wins: None,
                }
            }
            Analysis::Chain { words } => {
                let mine: Vec<_> = words.iter().filter(|w| w.seat == seat).collect();
                let missed: Vec<_> = mine.iter().filter(|w| w.winning_word.is_some()).collect();
                PlayerSummary {
                    seat,
                    moves: mine.len() as u32,
                    mean_equity_lost: None,
                    best_move: mine.iter().find(|w| w.wins).map(|w| w.move_no),
                    worst_move: missed.first().map(|w| w.move_no),
                    missed_wins: Some(missed.len() as u32),
                }
            }
        })
        .collect()
}
