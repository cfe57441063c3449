//! The intervals when the service could not take a move (`outages`), which every running clock
//! skips, and the local gateway's heartbeat that tells since when it was down.

use chrono::{DateTime, Utc};

use crate::{Store, StoreError};

/// An interval when the service could not take a move: clocks stand still inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct Outage {
    /// When it began.
    pub started_at: DateTime<Utc>,
    /// When it ended.
    pub ended_at: DateTime<Utc>,
}

/// How the service learnt of an outage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutageSource {
    /// A request was answered `503 unavailable`: from its arrival to the first write after.
    Refused,
    /// The local gateway was down: from its last heartbeat to its next start.
    GatewayDown,
}

impl OutageSource {
    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            OutageSource::Refused => "refused",
            OutageSource::GatewayDown => "gateway_down",
        }
    }
}

impl Store {
    /// Records that the service could not take a move from `started_at` to `ended_at` (nothing
    /// for an empty interval).
    ///
    /// # Errors
    /// Database errors.
    pub async fn record_outage(&self, started_at: DateTime<Utc>, ended_at: DateTime<Utc>, source: OutageSource) -> Result<(), StoreError> {
        if ended_at <= started_at {
            return Ok(());
        }
        sqlx::query("INSERT INTO outages (started_at, ended_at, source) VALUES ($1, $2, $3)")
            .bind(started_at)
            .bind(ended_at)
            .bind(source.id())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Writes `name`'s heartbeat at `at`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn beat(&self, name: &str, at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO heartbeats (name, at) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET at = excluded.at")
            .bind(name)
            .bind(at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// `name`'s last heartbeat, if it ever beat.
    ///
    /// # Errors
    /// Database errors.
    pub async fn last_beat(&self, name: &str) -> Result<Option<DateTime<Utc>>, StoreError> {
        Ok(sqlx::query_scalar("SELECT at FROM heartbeats WHERE name = $1").bind(name).fetch_optional(&self.pool).await?)
    }
}
