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
    /// When the next thing falls due (a turn's or a draw's deadline, an open game's expiry),
    /// as of the run's start: none when nothing waits. What a sweep that lets the database
    /// sleep waits for (`api::lambda`'s `SweepSleep`).
    pub next_due: Option<DateTime<Utc>>,
}

/// When a scheduled sweep needs the database: a sweep that lets a paused database sleep runs
/// only once something falls due ([`SweepReport::next_due`]) and at least every `longest`; with
/// `longest` zero (the default), every time. A run that left a backlog, or a game it could not
/// move on, runs again at the next invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SweepSleep {
    longest: Duration,
    until: Option<DateTime<Utc>>,
}

impl SweepSleep {
    /// Sleeping at most `longest` between runs (zero: never).
    pub fn at_most(longest: Duration) -> SweepSleep {
        SweepSleep { longest, until: None }
    }

    /// Whether an invocation at `now` finds nothing due: it need not touch the database.
    pub fn asleep(&self, now: DateTime<Utc>) -> bool {
        self.until.is_some_and(|until| now < until)
    }

    /// Until when the sweep sleeps, if it does.
    pub fn until(&self) -> Option<DateTime<Utc>> {
        self.until
    }

    /// After a run begun at `now` that did `report`: asleep until the next thing falls due, at
    /// most `longest` from now.
    pub fn after(&mut self, now: DateTime<Utc>, report: &SweepReport) {
        let caught_up = report.backlog == 0 && report.skipped == 0;
        let latest = now + self.longest;
        self.until = (self.longest > Duration::zero() && caught_up).then(|| report.next_due.map_or(latest, |due| due.min(latest)));
    }
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
        report.next_due = self.store.next_due(now, config.open_expiry, config.realtime_open_expiry).await?;
        // The `backlog` field is the metric `SweepBacklog` (a metric filter on this line).
        tracing::info!(
            timed_out = report.timed_out.len(),
            expired = report.expired.len(),
            drawn = report.drawn,
            rescored = report.rescored,
            skipped = report.skipped,
            connections_dropped = report.connections_dropped,
            backlog = report.backlog,
            next_due = ?report.next_due,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + minute * 60, 0).unwrap()
    }

    #[test]
    fn a_sweep_sleeps_until_the_next_thing_falls_due_and_at_most_its_longest() {
        let mut sleep = SweepSleep::at_most(Duration::hours(1));
        assert!(!sleep.asleep(at(0)), "the first invocation runs");
        sleep.after(at(0), &SweepReport { next_due: Some(at(10)), ..SweepReport::default() });
        assert!(sleep.asleep(at(9)) && !sleep.asleep(at(10)), "awake when the deadline falls: {:?}", sleep.until());
        sleep.after(at(10), &SweepReport { next_due: Some(at(600)), ..SweepReport::default() });
        assert_eq!(sleep.until(), Some(at(70)), "at most an hour");
        sleep.after(at(70), &SweepReport::default());
        assert_eq!(sleep.until(), Some(at(130)), "nothing waits: an hour");
        sleep.after(at(130), &SweepReport { backlog: 3, next_due: Some(at(600)), ..SweepReport::default() });
        assert!(!sleep.asleep(at(131)), "a backlog runs again at once");
        sleep.after(at(131), &SweepReport { skipped: 1, ..SweepReport::default() });
        assert!(!sleep.asleep(at(132)), "a game left as it was is tried again at once");
    }

    #[test]
    fn a_sweep_that_may_not_sleep_runs_every_time() {
        let mut sleep = SweepSleep::default();
        sleep.after(at(0), &SweepReport { next_due: Some(at(600)), ..SweepReport::default() });
        assert!(!sleep.asleep(at(1)));
    }
}
