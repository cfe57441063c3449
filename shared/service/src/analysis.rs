//! The post-game analysis of a finished game, for its players and admins: each move beside the
//! hard level's and a summary per player, as the game's family reviews it (`games::Analysis`). Computed on the first request, within
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

/// How analyses are computed now (the budgets above, and what a row holds: 2 names the move
/// played and the suggestion and says when the move played was as good; 3 names the judge); a
/// stored one of another version is computed again. A change to the hard level bumps it, so the
/// suggestions improve with the robot.
pub const ANALYSIS_VERSION: i32 = 3;

/// The answer: the analysis with each player's summary (`games::Analysis`).
#[derive(Debug, Clone, Serialize)]
struct AnalysisAnswer<'a> {
    game_id: Uuid,
    version: i32,
    #[serde(flatten)]
    analysis: &'a Analysis,
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
                let answer = AnalysisAnswer { game_id: record.game_id, version: ANALYSIS_VERSION, analysis: &analysis };
                let text = serde_json::to_string(&answer).map_err(|e| store::StoreError::Corrupt(e.to_string()))?;
                tracing::info!(game_id = %record.game_id, computed_ms, "analysed");
                let fresh = StoredAnalysis { version: ANALYSIS_VERSION, analysis: text, computed_ms };
                self.store.put_analysis(record.game_id, &fresh, self.now()).await?
            }
        };
        RawValue::from_string(stored.analysis).map_err(|e| store::StoreError::Corrupt(e.to_string()).into())
    }
}
