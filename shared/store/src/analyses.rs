//! Post-game analyses, stored once per finished game and read back as written.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::{Store, StoreError};

/// A stored analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// How it was computed.
    pub version: i32,
    /// The analysis, as JSON text.
    pub analysis: String,
    /// How long it took to compute, milliseconds.
    pub computed_ms: u32,
}

impl Store {
    /// The analysis of `game_id` at `version`, if one is stored.
    ///
    /// # Errors
    /// Database errors.
    pub async fn analysis(&self, game_id: Uuid, version: i32) -> Result<Option<StoredAnalysis>, StoreError> {
        let row: Option<(i32, String, i32)> =
            sqlx::query_as("SELECT version, analysis::text, computed_ms FROM game_analyses WHERE game_id = $1 AND version = $2")
                .bind(game_id)
                .bind(version)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(version, analysis, ms)| StoredAnalysis { version, analysis, computed_ms: ms.max(0) as u32 }))
    }

    /// Stores `analysis` of `game_id`, replacing one of another version; one of the same version
    /// stored meanwhile (a concurrent request) is kept. The analysis stored.
    ///
    /// # Errors
    /// Database errors.
    pub async fn put_analysis(&self, game_id: Uuid, a: &StoredAnalysis, at: DateTime<Utc>) -> Result<StoredAnalysis, StoreError> {
        let written: Option<(i32, String, i32)> = sqlx::query_as(
            "INSERT INTO game_analyses (game_id, version, analysis, computed_ms, created_at) VALUES ($1, $2, $3::jsonb, $4, $5)
             ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, analysis = EXCLUDED.analysis,
                 computed_ms = EXCLUDED.computed_ms, created_at = EXCLUDED.created_at
               WHERE game_analyses.version <> EXCLUDED.version
             RETURNING version, analysis::text, computed_ms",
        )
        .bind(game_id)
        .bind(a.version)
        .bind(&a.analysis)
        .bind(i32::try_from(a.computed_ms).unwrap_or(i32::MAX))
        .bind(at)
        .fetch_optional(&self.pool)
        .await?;
        match written {
            Some((version, analysis, ms)) => Ok(StoredAnalysis { version, analysis, computed_ms: ms.max(0) as u32 }),
            // Another request stored this version first: its row stands.
            None => self.analysis(game_id, a.version).await?.ok_or(StoreError::NotFound),
        }
    }
}
