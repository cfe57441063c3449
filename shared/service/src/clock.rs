//! A timed game's clock, computed and never stored: every seat's time follows from the game's
//! time control, the moment it started and the commit time of each journal entry (all by the
//! server's clock), as of a `now` the caller gives. Nothing a client sends counts.
//!
//! A turn starts when the previous entry was committed (the first when the game started) and
//! ends with the mover's entry. A resignation and a time penalty are not turns; entries made
//! before the game started (a move while an invitation waited) are not charged. Nor is time
//! when the service could not take a move (its recorded outages, [`Tally::paused`]): every
//! running clock stands still inside them, and a deadline moves on by as much.

use chrono::{DateTime, Duration, Utc};
use games::{MoveKind, Seat, TimeControl};
use serde::Serialize;

/// Points a started minute of overtime costs a real-time tile game's player.
pub const OVERTIME_POINTS_PER_MINUTE: i32 = 10;

/// Every seat's time as of the server's `now`, for a client's display clock.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// The server's time the clock was read at; a client runs its display from it.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub now: DateTime<Utc>,
    /// The seat whose time runs (none before the start, after the end, or while an invitation
    /// waits).
    pub running: Option<usize>,
    /// When the running seat's time is out: its flag falls (real time), or its turn lapses
    /// (correspondence, the chain's turn timer).
    #[serde(serialize_with = "store::timestamp::millis_opt")]
    pub flag_at: Option<DateTime<Utc>>,
    /// Each seat's time, seat 0 first.
    pub seats: Vec<SeatClock>,
}

/// One seat's time.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SeatClock {
    /// Real time: the seat's main time left, in milliseconds, negative in overtime. A limit a
    /// turn (correspondence, the chain's timer): what is left of the running seat's turn before
    /// its bank is drawn on, the whole limit for a seat not to move.
    pub remaining_ms: i64,
    /// Correspondence: the seat's bank left, in milliseconds (absent under other controls).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<i64>,
    /// Real time: the points its overtime costs so far (absent under other controls).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overtime_penalty: Option<i32>,
}

/// A journal entry as the clock reads it: who made it, what kind, when it was committed
/// (`None` for entries written before commit times were kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The seat.
    pub seat: Seat,
    /// The kind.
    pub kind: MoveKind,
    /// The commit time.
    pub at: Option<DateTime<Utc>>,
}

/// The clock folded over a game's entries, as of the start of the current turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    control: TimeControl,
    /// Real time: each seat's main time, in milliseconds.
    main: Vec<i64>,
    /// Correspondence: each seat's bank, in milliseconds.
    bank: Vec<i64>,
    /// When the current turn started (`None` before the start, or when no time is known).
    turn_start: Option<DateTime<Utc>>,
    /// The intervals when the service could not take a move, merged and in order.
    pauses: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

impl Tally {
    /// Folds `entries` of a game under `control` with `seats` seats that started at `started_at`,
    /// the clock standing still during `outages`.
    pub fn new(
        control: TimeControl,
        seats: usize,
        started_at: Option<DateTime<Utc>>,
        entries: &[Stamp],
        outages: &[store::Outage],
    ) -> Tally {
        let (main, bank) = match control {
            TimeControl::Realtime { initial_seconds, .. } => (secs(initial_seconds), 0),
            TimeControl::Correspondence { bank_seconds, .. } => (0, secs(bank_seconds)),
            TimeControl::None | TimeControl::TurnTimer { .. } => (0, 0),
        };
        let pauses = merged(outages);
        let mut tally = Tally { control, main: vec![main; seats], bank: vec![bank; seats], turn_start: started_at, pauses };
        for e in entries {
            let (Some(at), Some(start)) = (e.at, tally.turn_start) else {
                // A time unknown (an old entry), or a move before the start: nothing charged.
                if let (Some(at), None) = (e.at, started_at) {
                    tally.turn_start = Some(at);
                }
                continue;
            };
            if at < start || !is_turn(e.kind) {
                continue;
            }
            let spent = tally.running_ms(start, at);
            // Accepting the play that went out ends the game: the time is charged, no
            // increment earned.
            tally.charge(e.seat, spent, e.kind != MoveKind::Accept);
            tally.turn_start = Some(at);
        }
        tally
    }

    /// Charges a finished turn of `spent` milliseconds to `seat`, with the real-time increment
    /// when `earned`.
    fn charge(&mut self, seat: Seat, spent: i64, earned: bool) {
        let Some(i) = Some(seat.index()).filter(|&i| i < self.main.len()) else { return };
        match self.control {
            TimeControl::Realtime { increment_seconds, .. } => {
                self.main[i] += if earned { secs(increment_seconds) } else { 0 } - spent;
            }
            TimeControl::Correspondence { turn_seconds, .. } => {
                let over = spent - secs(turn_seconds);
                if over > 0 {
                    self.bank[i] = (self.bank[i] - over).max(0);
                }
            }
            TimeControl::None | TimeControl::TurnTimer { .. } => {}
        }
    }

    /// The milliseconds a clock runs from `from` to `to`: the time between, less the outages'
    /// (never negative).
    pub fn running_ms(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
        ((to - from).num_milliseconds() - self.paused_ms(from, to)).max(0)
    }

    /// The milliseconds of outage between `from` and `to`.
    fn paused_ms(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
        self.pauses.iter().map(|&(s, e)| (e.min(to) - s.max(from)).num_milliseconds().max(0)).sum()
    }

    /// When `running`'s time is out if it does not move: its flag falls (real time) or its
    /// turn lapses (a limit a turn, past any bank), each outage within the turn moving it on by
    /// its length. `None` untimed or before the start.
    pub fn deadline(&self, running: Seat) -> Option<DateTime<Utc>> {
        let start = self.turn_start?;
        let i = running.index().min(self.main.len().saturating_sub(1));
        let ms = match self.control {
            TimeControl::None => return None,
            TimeControl::Correspondence { turn_seconds, .. } => secs(turn_seconds) + self.bank.get(i).copied().unwrap_or(0),
            TimeControl::Realtime { max_overtime_minutes, .. } => self.main.get(i).copied().unwrap_or(0) + secs(max_overtime_minutes * 60),
            TimeControl::TurnTimer { turn_seconds } => secs(turn_seconds),
        };
        // The time runs out `ms` of running time after the start: each outage that begins before
        // that moment pushes it on by the part of the outage after the start.
        let mut due = start + Duration::milliseconds(ms);
        for &(s, e) in &self.pauses {
            if e > start && s < due {
                due += e - s.max(start);
            }
        }
        Some(due)
    }

    /// The points `seat`'s overtime costs at the end of a real-time game: 10 a started minute
    /// past zero (none under other controls).
    pub fn overtime_penalty(&self, seat: Seat) -> i32 {
        match self.control {
            TimeControl::Realtime { .. } => penalty(self.main.get(seat.index()).copied().unwrap_or(0)),
            _ => 0,
        }
    }

    /// The clock as of `now`, `running`'s time running (none: every clock stands).
    pub fn view(&self, running: Option<Seat>, now: DateTime<Utc>) -> ClockView {
        let elapsed = match (running, self.turn_start) {
            (Some(_), Some(start)) => self.running_ms(start, now),
            _ => 0,
        };
        let seats = (0..self.main.len())
            .map(|i| {
                let runs = running.is_some_and(|r| r.index() == i);
                let spent = if runs { elapsed } else { 0 };
                match self.control {
                    TimeControl::Realtime { .. } => {
                        let remaining = self.main[i] - spent;
                        SeatClock { remaining_ms: remaining, bank_ms: None, overtime_penalty: Some(penalty(remaining)) }
                    }
                    TimeControl::Correspondence { turn_seconds, .. } => {
                        let limit = secs(turn_seconds);
                        let over = (spent - limit).max(0);
                        SeatClock {
                            remaining_ms: (limit - spent).max(0),
                            bank_ms: Some((self.bank[i] - over).max(0)),
                            overtime_penalty: None,
                        }
                    }
                    TimeControl::TurnTimer { turn_seconds } => {
                        SeatClock { remaining_ms: (secs(turn_seconds) - spent).max(0), bank_ms: None, overtime_penalty: None }
                    }
                    TimeControl::None => SeatClock { remaining_ms: 0, bank_ms: None, overtime_penalty: None },
                }
            })
            .collect();
        let running = running.filter(|_| self.turn_start.is_some());
        ClockView { now, running: running.map(Seat::index), flag_at: running.and_then(|r| self.deadline(r)), seats }
    }
}

/// `outages` as ordered, disjoint intervals (several processes may record overlapping ones).
fn merged(outages: &[store::Outage]) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let mut all: Vec<(DateTime<Utc>, DateTime<Utc>)> =
        outages.iter().filter(|o| o.ended_at > o.started_at).map(|o| (o.started_at, o.ended_at)).collect();
    all.sort();
    let mut out: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// Whether an entry of `kind` ends its seat's turn (and so is charged). A challenge that leaves
/// the challenger to move (a play withdrawn, a bonus, a challenge at no cost) does not: its
/// time runs on into the move it makes next.
fn is_turn(kind: MoveKind) -> bool {
    !matches!(
        kind,
        MoveKind::Resign | MoveKind::TimePenalty | MoveKind::ChallengedOff | MoveKind::ChallengeBonus | MoveKind::ChallengeFailed
    )
}

fn secs(s: u32) -> i64 {
    i64::from(s) * 1000
}

/// 10 points a started minute below zero.
fn penalty(remaining_ms: i64) -> i32 {
    if remaining_ms >= 0 {
        return 0;
    }
    let minutes = (-remaining_ms + 59_999) / 60_000;
    i32::try_from(minutes).unwrap_or(i32::MAX / 10) * OVERTIME_POINTS_PER_MINUTE
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: i64 = 1_800_000_000_000;

    fn at(ms: i64) -> Option<DateTime<Utc>> {
        DateTime::from_timestamp_millis(START + ms)
    }

    fn stamp(seat: u8, kind: MoveKind, ms: i64) -> Stamp {
        Stamp { seat: Seat(seat), kind, at: at(ms) }
    }

    const CLOCK: TimeControl = TimeControl::Realtime { initial_seconds: 600, increment_seconds: 5, max_overtime_minutes: 2 };

    #[test]
    fn a_real_time_clock_runs_only_on_the_seat_to_move_and_adds_the_increment() {
        let entries = [stamp(0, MoveKind::Play, 30_000), stamp(1, MoveKind::Pass, 100_000)];
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[]);
        let v = t.view(Some(Seat(0)), at(110_000).unwrap());
        // Seat 0: 600 s − 30 s + 5 s, then 10 s running; seat 1: 600 s − 70 s + 5 s.
        assert_eq!(v.seats[0].remaining_ms, 565_000);
        assert_eq!(v.seats[1].remaining_ms, 535_000);
        assert_eq!(v.running, Some(0));
        // The flag falls at the turn's start + its time + the overtime allowed.
        assert_eq!(v.flag_at, at(100_000 + 575_000 + 120_000));
        assert_eq!(t.deadline(Seat(0)), v.flag_at);
        let frozen = t.view(None, at(900_000).unwrap());
        assert_eq!((frozen.seats[0].remaining_ms, frozen.running, frozen.flag_at), (575_000, None, None));
    }

    #[test]
    fn overtime_costs_ten_points_a_started_minute() {
        for (over_ms, points) in [(0, 0), (1, 10), (59_000, 10), (60_000, 10), (61_000, 20), (119_999, 20), (120_000, 20), (120_001, 30)] {
            let control = TimeControl::Realtime { initial_seconds: 60, increment_seconds: 0, max_overtime_minutes: 10 };
            let t = Tally::new(control, 2, at(0), &[stamp(0, MoveKind::Play, 60_000 + over_ms)], &[]);
            assert_eq!(t.overtime_penalty(Seat(0)), points, "{over_ms} ms over");
            assert_eq!(t.overtime_penalty(Seat(1)), 0);
            assert_eq!(t.view(None, at(0).unwrap()).seats[0].overtime_penalty, Some(points));
        }
    }

    #[test]
    fn a_correspondence_turn_past_its_limit_draws_on_the_bank_down_to_nothing() {
        let control = TimeControl::Correspondence { turn_seconds: 60, bank_seconds: 100 };
        // Seat 0 takes 90 s (30 s from its bank); seat 1 takes 20 s; seat 0 then 200 s (the
        // other 70 s of its bank, and more).
        let entries = [stamp(0, MoveKind::Play, 90_000), stamp(1, MoveKind::Play, 110_000), stamp(0, MoveKind::Timeout, 310_000)];
        let t = Tally::new(control, 2, at(0), &entries[..2], &[]);
        assert_eq!(t.deadline(Seat(0)), at(110_000 + 60_000 + 70_000));
        let v = t.view(Some(Seat(0)), at(110_000 + 75_000).unwrap());
        assert_eq!((v.seats[0].remaining_ms, v.seats[0].bank_ms), (0, Some(55_000)));
        assert_eq!((v.seats[1].remaining_ms, v.seats[1].bank_ms), (60_000, Some(100_000)));
        let t = Tally::new(control, 2, at(0), &entries, &[]);
        assert_eq!(t.view(None, at(310_000).unwrap()).seats[0].bank_ms, Some(0));
        assert_eq!(t.deadline(Seat(1)), at(310_000 + 60_000 + 100_000), "seat 1's turn starts when the lapse was recorded");
        assert_eq!(t.overtime_penalty(Seat(0)), 0);
    }

    #[test]
    fn resignations_penalties_old_entries_and_moves_before_the_start_are_not_charged() {
        let entries = [
            stamp(0, MoveKind::Play, -50_000),
            Stamp { seat: Seat(1), kind: MoveKind::Play, at: None },
            stamp(1, MoveKind::Resign, 20_000),
            stamp(0, MoveKind::Play, 40_000),
            stamp(0, MoveKind::TimePenalty, 45_000),
        ];
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[]);
        let v = t.view(None, at(0).unwrap());
        assert_eq!(v.seats[0].remaining_ms, 600_000 - 40_000 + 5_000);
        assert_eq!(v.seats[1].remaining_ms, 600_000);
        assert_eq!(Tally::new(CLOCK, 2, None, &[], &[]).deadline(Seat(0)), None, "no clock before the start");
        assert_eq!(Tally::new(TimeControl::None, 2, at(0), &[], &[]).deadline(Seat(0)), None);
    }

    #[test]
    fn a_challenge_that_leaves_the_challenger_to_move_runs_its_time_on_and_a_lost_turn_is_charged() {
        // Seat 0 plays at 30 s; seat 1 challenges it off at 50 s and plays at 80 s: one turn of
        // 50 s for seat 1. Then seat 0 plays at 100 s, seat 1 challenges under double at 130 s
        // and loses the turn (charged 30 s).
        let entries = [
            stamp(0, MoveKind::Play, 30_000),
            stamp(0, MoveKind::ChallengedOff, 50_000),
            stamp(1, MoveKind::Play, 80_000),
            stamp(0, MoveKind::Play, 100_000),
            stamp(1, MoveKind::ChallengeTurnLost, 130_000),
        ];
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[]);
        let v = t.view(None, at(0).unwrap());
        assert_eq!(v.seats[0].remaining_ms, 600_000 - 30_000 + 5_000 - 20_000 + 5_000);
        assert_eq!(v.seats[1].remaining_ms, 600_000 - 50_000 + 5_000 - 30_000 + 5_000);
        // A bonus and a challenge at no cost are not turns either; accepting the play that went
        // out is charged without the increment.
        let entries = [
            stamp(0, MoveKind::Play, 30_000),
            stamp(0, MoveKind::ChallengeBonus, 40_000),
            stamp(1, MoveKind::ChallengeFailed, 45_000),
            stamp(1, MoveKind::Play, 60_000),
            stamp(1, MoveKind::Accept, 70_000),
        ];
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[]);
        let v = t.view(None, at(0).unwrap());
        assert_eq!(v.seats[1].remaining_ms, 600_000 - 30_000 + 5_000 - 10_000);
    }

    #[test]
    fn the_chains_turn_timer_gives_each_turn_the_same_limit() {
        let control = TimeControl::TurnTimer { turn_seconds: 20 };
        let t = Tally::new(control, 2, at(0), &[stamp(0, MoveKind::Word, 15_000)], &[]);
        assert_eq!(t.deadline(Seat(1)), at(35_000));
        let v = t.view(Some(Seat(1)), at(30_000).unwrap());
        assert_eq!((v.seats[1].remaining_ms, v.seats[0].remaining_ms), (5_000, 20_000));
        assert_eq!(serde_json::to_value(&v.seats[1]).unwrap(), serde_json::json!({"remaining_ms": 5000}));
    }

    fn outage(from_ms: i64, to_ms: i64) -> store::Outage {
        store::Outage { started_at: at(from_ms).unwrap(), ended_at: at(to_ms).unwrap() }
    }

    #[test]
    fn an_outage_is_nobody_s_time_and_moves_the_deadline_on() {
        // Seat 0 moves at 30 s, seat 1 at 100 s; outages 40–50 s and, overlapping twice (two
        // processes), 60–65 s and 62–70 s: 20 s of seat 1’s 70 s turn are the service’s.
        let entries = [stamp(0, MoveKind::Play, 30_000), stamp(1, MoveKind::Pass, 100_000)];
        let outages = [outage(40_000, 50_000), outage(62_000, 70_000), outage(60_000, 65_000)];
        let t = Tally::new(CLOCK, 2, at(0), &entries, &outages);
        let v = t.view(Some(Seat(0)), at(110_000).unwrap());
        assert_eq!((v.seats[0].remaining_ms, v.seats[1].remaining_ms), (565_000, 600_000 - 50_000 + 5_000));
        // An outage during the running turn: the view stops the clock, the deadline moves on.
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[outage(105_000, 115_000)]);
        assert_eq!(t.view(Some(Seat(0)), at(120_000).unwrap()).seats[0].remaining_ms, 575_000 - 10_000);
        assert_eq!(t.deadline(Seat(0)), at(100_000 + 575_000 + 120_000 + 10_000));
        // One that began before the turn counts only from the turn's start.
        let t = Tally::new(CLOCK, 2, at(0), &entries, &[outage(95_000, 115_000)]);
        assert_eq!(t.deadline(Seat(0)), at(100_000 + 575_000 + 120_000 + 15_000));
        // One after the time ran out does not bring a fallen flag back.
        let control = TimeControl::TurnTimer { turn_seconds: 5 };
        let t = Tally::new(control, 2, at(0), &[], &[outage(6_000, 9_000)]);
        assert_eq!(t.deadline(Seat(0)), at(5_000));
        // A 4 s stall in a 5 s turn: the turn lapses 4 s later.
        let t = Tally::new(control, 2, at(0), &[], &[outage(1_000, 5_000)]);
        assert_eq!(t.deadline(Seat(0)), at(9_000));
        assert_eq!(t.view(Some(Seat(0)), at(6_000).unwrap()).seats[0].remaining_ms, 3_000);
    }
}
