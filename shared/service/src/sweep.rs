//! The sweep: abandoned games end on their own. Every timed game whose deadline has passed gets
//! its timeout recorded (the same rules as a player's claim), batch after batch, the longest
//! overdue first, until none is left or the run's budget (by the injected clock) is spent; what
//! is left is reported as the backlog. Every open game nobody joined within the expiry is
//! withdrawn (no result), a batch per run. Every tournament game whose players have not all drawn
//! by its draw deadline gets the server's draw for them, a batch per run. One game per transaction, and idempotent: a game
//! another request (or another sweep) already moved on is left as it is.

use std::collections::HashSet;

use chrono::{DateTime, Duration, Utc};
use games::{Position, TimeControlKind};
use serde::Serialize;
use store::GameStatus;
use uuid::Uuid;

use crate::{Service, ServiceError};

/// What a sweep does per run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepConfig {
    /// Games listed at a time: the timeouts are swept in batches of this many, open games'
    /// expiries one batch per run.
    pub batch: usize,
    /// An open game nobody joined for this long is withdrawn.
    pub open_expiry: Duration,
    /// A real-time open game nobody joined for this long is withdrawn (its players are waiting
    /// at their screens).
    pub realtime_open_expiry: Duration,
    /// No new batch of timeouts is started once this long has passed since the run began, by
    /// the service's clock (the batch under way is finished).
    pub budget: Duration,
}

impl SweepConfig {
    /// The default batch, with open games expiring after `seconds`.
    pub fn expiring_after(seconds: i64) -> SweepConfig {
        SweepConfig { open_expiry: Duration::seconds(seconds), ..SweepConfig::default() }
    }
}

impl Default for SweepConfig {
    /// Batches of 100; open games expire after 7 days, real-time ones after 15 minutes; a
    /// budget of 30 s (the scheduled function's timeout is 55 s).
    fn default() -> SweepConfig {
        SweepConfig {
            batch: 100,
            open_expiry: Duration::days(7),
            realtime_open_expiry: Duration::minutes(15),
            budget: Duration::seconds(30),
        }
    }
}

/// What one sweep did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SweepReport {
    /// The games whose timeout it recorded.
    pub timed_out: Vec<Uuid>,
    /// The open games it withdrew.
    pub expired: Vec<Uuid>,
    /// The tournament games whose players had not all drawn by the deadline: the server drew
    /// for them (the director's default).
    pub drawn: u32,
    /// Finished games whose winners it recorded (games finished before winners were kept).
    pub rescored: usize,
    /// Push connections past their time to live, deleted.
    pub connections_dropped: u64,
    /// Games it found due but left as they were (another request moved first, or a failure).
    pub skipped: usize,
    /// Active games still past their deadline when it ended (the budget ran out first, or
    /// games it could not end): 0 when it caught up.
    pub backlog: u64,
}

impl Service {
    /// One sweep at the injected clock's now: records the timeout of the games past their
    /// deadline, `config.batch` at a time, the longest overdue first, until none is left or
    /// `config.budget` has passed; withdraws up to `config.batch` open games older than
    /// `config.open_expiry`; each game in a transaction of its own (a failure leaves the others
    /// done, and the game is not tried again in this run); then deletes expired push
    /// connections, and counts the games still overdue (`backlog`). Every move it commits is
    /// announced after its commit, like a player's.
    ///
    /// # Errors
    /// Storage failures while listing the due games; a failure on one game is logged and the
    /// sweep goes on.
    #[tracing::instrument(skip(self))]
    pub async fn sweep(&self, config: SweepConfig) -> Result<SweepReport, ServiceError> {
        let now = self.now();
        let until = now + config.budget;
        let mut report = SweepReport::default();
        // Games left as they were in this run: listed again (they come first), not tried again.
        let mut left: HashSet<Uuid> = HashSet::new();
        loop {
            let listed = self.store.games_past_deadline(now, (config.batch + left.len()) as i64).await?;
            let due: Vec<Uuid> = listed.into_iter().filter(|id| !left.contains(id)).collect();
            if due.is_empty() {
                break;
            }
            for id in due {
                match self.sweep_timeout(id).await {
                    Ok(true) => report.timed_out.push(id),
                    Ok(false) => {
                        report.skipped += 1;
                        left.insert(id);
                    }
                    Err(e) => {
                        tracing::error!(game_id = %id, error = %e, "sweep: cannot record the timeout");
                        report.skipped += 1;
                        left.insert(id);
                    }
                }
            }
            if self.now() >= until {
                break;
            }
        }
        report.drawn = self.default_draws(config.batch as u32).await?;
        let (cutoff, realtime_cutoff) = (now - config.open_expiry, now - config.realtime_open_expiry);
        for id in self.store.open_games_created_before(cutoff, realtime_cutoff, config.batch as i64).await? {
            match self.sweep_expiry(id, cutoff, realtime_cutoff).await {
                Ok(true) => report.expired.push(id),
                Ok(false) => report.skipped += 1,
                Err(e) => {
                    tracing::error!(game_id = %id, error = %e, "sweep: cannot expire the open game");
                    report.skipped += 1;
                }
            }
        }
        report.rescored = self.rescore(None, config.batch as i64).await?;
        report.connections_dropped = self.store.drop_expired_connections(now).await?;
        report.backlog = self.store.count_games_past_deadline(now).await?;
        // The `backlog` field is the metric `SweepBacklog` (a metric filter on this line).
        tracing::info!(
            timed_out = report.timed_out.len(),
            expired = report.expired.len(),
            drawn = report.drawn,
            rescored = report.rescored,
            skipped = report.skipped,
            connections_dropped = report.connections_dropped,
            backlog = report.backlog,
            "swept"
        );
        Ok(report)
    }

    /// Records the timeout of `id` if it is still active and past its deadline under the lock:
    /// whether it did.
    async fn sweep_timeout(&self, id: Uuid) -> Result<bool, ServiceError> {
        let (tx, mut game) = self.lock_settled(id, None).await?;
        if tx.game().status != GameStatus::Active || game.is_over() {
            return Ok(false);
        }
        let lapse = match self.lapse(tx.game(), &game) {
            Ok(lapse) => lapse,
            // The seat moved (or the deadline was renewed, or an outage moved it on) since the
            // list was read: the deadline the clock gives now is written, so the game is not
            // listed again before it.
            Err(ServiceError::Rejected(_)) => {
                let deadline = tx.game().turn_deadline;
                tx.renew_deadline(deadline).await?;
                return Ok(false);
            }
            Err(e) => return Err(e),
        };
        self.commit_moves(tx, &mut game, None, Some(lapse)).await?;
        Ok(true)
    }

    /// Withdraws `id` if it is still open and was created before `cutoff` (`realtime_cutoff`
    /// for a real-time game): whether it did.
    async fn sweep_expiry(&self, id: Uuid, cutoff: DateTime<Utc>, realtime_cutoff: DateTime<Utc>) -> Result<bool, ServiceError> {
        let tx = self.game_store.lock_game(id, None, None).await?;
        let cutoff = if tx.game().time_control.kind() == TimeControlKind::Realtime { realtime_cutoff } else { cutoff };
        if tx.game().status != GameStatus::Open || tx.game().created_at >= cutoff {
            return Ok(false);
        }
        tx.withdraw().await?;
        Ok(true)
    }
}
