//! How the service knows when it could not take a move, so that no clock charges it
//! ([`crate::clock`]). A request answered `503 unavailable` (the database down, frozen or out of
//! connections) marks the start of an outage at its arrival ([`Service::note_refused`]); the
//! next request of the same process records the interval from then to its own start before it
//! does anything else ([`Service::close_outage`]), and so before any clock is read. The local
//! gateway adds the time it was down ([`Service::record_downtime`]). Each process records what it
//! saw; the clock merges overlapping intervals.

use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use store::OutageSource;

use crate::{Service, ServiceError};

/// The start of the outage a process has seen and not yet recorded.
#[derive(Debug, Clone, Default)]
pub(crate) struct Noted(Arc<Mutex<Option<DateTime<Utc>>>>);

impl Service {
    /// Notes that a request that arrived at `arrived` was answered `503 unavailable`: this
    /// process's outage began then at the latest.
    pub fn note_refused(&self, arrived: DateTime<Utc>) {
        let mut began = self.outage.0.lock().unwrap_or_else(PoisonError::into_inner);
        if began.is_none_or(|b| arrived < b) {
            *began = Some(arrived);
        }
    }

    /// Records the outage this process noted, if any, as ending now (the first write after
    /// it), then forgets it. Cheap when there is none.
    ///
    /// # Errors
    /// Storage failures (the database still unavailable): the outage stays noted.
    pub async fn close_outage(&self) -> Result<(), ServiceError> {
        let Some(began) = *self.outage.0.lock().unwrap_or_else(PoisonError::into_inner) else { return Ok(()) };
        let now = self.now();
        self.store.record_outage(began, now, OutageSource::Refused).await?;
        tracing::warn!(from = %began, to = %now, "recorded an outage: no clock charges it");
        let mut noted = self.outage.0.lock().unwrap_or_else(PoisonError::into_inner);
        if *noted == Some(began) {
            *noted = None;
        }
        Ok(())
    }

    /// Records that the local gateway `name` was down since its last heartbeat (if it ever beat
    /// and that was more than `grace` ago), then beats.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn record_downtime(&self, name: &str, grace: std::time::Duration) -> Result<(), ServiceError> {
        let now = self.now();
        if let Some(last) = self.store.last_beat(name).await?.filter(|&last| (now - last).to_std().is_ok_and(|gap| gap > grace)) {
            self.store.record_outage(last, now, OutageSource::GatewayDown).await?;
            tracing::warn!(from = %last, to = %now, "the gateway was down: no clock charges the time");
        }
        self.beat(name).await
    }

    /// Writes the local gateway `name`'s heartbeat at now.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn beat(&self, name: &str) -> Result<(), ServiceError> {
        Ok(self.store.beat(name, self.now()).await?)
    }
}
