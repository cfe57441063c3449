//! The play-out of a change to a game, pure: the checked move a player made (if any), then the
//! robots' moves while a robot is to move, and all that the write and the answer need (the
//! game's new columns, the answer built from its record as it will read, the journal rows, the
//! push events). No I/O and no `await`: the clock, the seeds and the robots' budget come from the
//! injected [`Runtime`].

use chrono::{DateTime, Utc};
use games::{AnyGame, Checked, Entry, EntryView, Opponent, Position, Seat, TimeControl, Viewer};
use serde::Serialize;
use store::{GameRecord, GameStatus, GameUpdate, Level, NewMove};

use crate::idempotency::Key;
use crate::runtime::{Runtime, timestamp};
use crate::view::{GameView, build, running, tally};
use crate::{MoveEvent, RatingsView, ServiceError};

/// What a submitted move (and any robot replies) did.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveOutcome {
    /// Journal entries written by this request, as the caller may see them: the caller's move,
    /// then robot moves.
    pub moves: Vec<EntryView>,
    /// How long the client should take to reveal the robots' moves, in total.
    pub thinking_ms: u32,
    /// The game afterwards.
    pub game: GameView,
}

/// A change played out, not yet written.
#[derive(Debug)]
pub(crate) struct PlayedOut {
    /// The game's columns the change sets.
    pub(crate) update: GameUpdate,
    /// The answer, as the viewer sees the game afterwards.
    pub(crate) outcome: MoveOutcome,
    /// The journal rows to append, the player's move first (with its key and the answer).
    pub(crate) rows: Vec<NewMove>,
    /// One event per move, to announce once the change is committed.
    pub(crate) events: Vec<MoveEvent>,
}

/// The moves of a change made on the game, before its answer: [`Played::answer`] builds that
/// once, with the ratings a rated end locked and computed in between.
pub(crate) struct Played {
    /// The record as it will read once written.
    record: GameRecord,
    /// The game's columns the change sets.
    pub(crate) update: GameUpdate,
    /// The moves made, each with when it counts as made and the seat to move after it.
    entries: Vec<Entry>,
    times: Vec<DateTime<Utc>>,
    next: Vec<Option<usize>>,
    /// How many of `entries` are the player's (the rest are robots' and penalties).
    human_moves: usize,
    key: Option<Key>,
    thinking_ms: u32,
    viewer: Option<Seat>,
}

/// A player's move (or a lapse recorded on a seat), checked, with its idempotency key and the
/// time it is recorded at: now, or for a lapse that ends the game the moment the time ran out.
pub(crate) struct Human {
    /// The checked move.
    pub(crate) checked: Checked,
    /// Its key, if the client sent one.
    pub(crate) key: Option<Key>,
    /// When it counts as made.
    pub(crate) at: DateTime<Utc>,
}

/// Applies `human` to `game`, read as `record`, then robot moves while a robot is to move (none
/// while a seat waits for a player), each at its commit time by the runtime's clock (a robot's
/// after its real decision time); at an end by the rules of a real-time game, each seat's
/// overtime penalty; sets the next turn's deadline from the clock on `game`. The answer, as
/// `viewer` sees it, is [`Played::answer`]'s.
///
/// # Errors
/// A robot's move that its family refuses ([`ServiceError::Rejected`]), a robot without a word
/// graph ([`ServiceError::Lexicon`]).
pub(crate) fn play_out(
    runtime: &Runtime,
    record: &GameRecord,
    game: &mut AnyGame<'_>,
    viewer: Option<Seat>,
    human: Option<Human>,
) -> Result<Played, ServiceError> {
    let now = runtime.clock.now();
    let (checked, key, human_at) = human.map_or((None, None, now), |h| (Some(h.checked), h.key, h.at));
    let mut entries: Vec<Entry> = checked.map(|c| applied(game, c)).unwrap_or_default();
    let mut times: Vec<DateTime<Utc>> = entries.iter().map(|_| human_at).collect();
    // After each move: the seat to move next, for its push message.
    let mut next: Vec<Option<usize>> = entries.iter().map(|_| game.next_seat().map(Seat::index)).collect();
    // The player's own move (keyed, with the answer); what the game wrote after it is not.
    let human_moves = entries.len().min(1);
    let mut thinking_ms = 0;
    let waiting = record.players.iter().any(|p| p.account.is_none() || p.invited);
    while let Some(level) = game.next_seat().filter(|_| !waiting).and_then(|s| robot_level(record, s)) {
        // A robot moves at once: its turn has no deadline of its own (one left over from a
        // crash must not refuse it); the request's budget bounds its thinking.
        game.set_deadline(None);
        let against = opponent_of(record, game.to_move());
        let Some(choice) = game.robot(level, runtime.seeds.seed(), runtime.thinking.budget(), against)? else { break };
        // Its clock is charged with its real decision time, not the delay it asks the client to
        // show.
        let decided = runtime.clock.now();
        let checked = game.check(game.to_move(), &choice.mv, timestamp(decided))?;
        for entry in applied(game, checked) {
            entries.push(entry);
            times.push(decided);
            next.push(game.next_seat().map(Seat::index));
        }
        thinking_ms += choice.thinking_ms;
    }
    let mut record = record.clone();
    let starts = !waiting && record.started_at.is_none() && record.status != GameStatus::Finished;
    if starts {
        record.started_at = Some(now);
    }
    record.move_times.extend(times.iter().map(|t| Some(*t)));
    // A real-time game that ended by its rules: each seat's overtime costs it points, recorded
    // as entries of their own after the end.
    if game.is_over() && matches!(record.time_control, TimeControl::Realtime { .. }) {
        let clock = tally(&record, &*game);
        let end = times.last().copied().unwrap_or(now);
        for seat in (0..record.seats).map(|s| Seat(s as u8)) {
            if let Some(penalty) = game.time_penalty(seat, clock.overtime_penalty(seat)) {
                entries.push(game.apply(penalty));
                times.push(end);
                record.move_times.push(Some(end));
                next.push(None);
            }
        }
    }
    record.status = if game.is_over() {
        GameStatus::Finished
    } else if waiting {
        GameStatus::Open
    } else {
        GameStatus::Active
    };
    let deadline = running(&record, &*game).and_then(|seat| tally(&record, &*game).deadline(seat));
    let update = GameUpdate {
        move_count: game.move_count(),
        status: record.status,
        turn_deadline: deadline,
        started_at: record.started_at.filter(|_| starts),
        finished_at: game.is_over().then(|| times.last().copied().unwrap_or(now)),
        end_reason: game.outcome().map(|o| o.reason),
        winners: crate::results::winners(&*game),
        // Nobody's turn while invitees have not accepted: an invitation is nobody's move yet.
        to_move: (!game.is_over() && !record.players.iter().any(|p| p.invited)).then(|| game.to_move().0),
        scores: game.scores(),
    };
    record.move_count = update.move_count;
    record.turn_deadline = update.turn_deadline;
    record.end_reason = update.end_reason;
    game.set_deadline(deadline.map(timestamp));
    Ok(Played { record, update, entries, times, next, human_moves, key, thinking_ms, viewer })
}

impl Played {
    /// The answer, built once, with `ratings` (a rated end's, once computed) and serialized
    /// once (kept with a keyed move for its retries); the journal rows and the push events.
    ///
    /// # Errors
    /// An answer that does not serialize.
    pub(crate) fn answer(self, runtime: &Runtime, game: &AnyGame<'_>, ratings: Option<RatingsView>) -> Result<PlayedOut, ServiceError> {
        let Played { record, update, entries, times, next, human_moves, key, thinking_ms, viewer } = self;
        let seen = viewer.map_or(Viewer::Public, Viewer::Seat);
        let mut view = build(&record, game, viewer, runtime.clock.now());
        if ratings.is_some() {
            view.ratings.clone_from(&ratings);
        }
        let outcome =
            MoveOutcome { moves: entries.iter().filter_map(|e| game.entry_view(e.move_no(), seen)).collect(), thinking_ms, game: view };
        let response = match &key {
            Some(_) => Some(serde_json::to_string(&outcome).map_err(|e| store::StoreError::Corrupt(e.to_string()))?),
            None => None,
        };
        let rows: Vec<NewMove> = entries
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                let (client_move_id, request_hash, response) = match (&key, i < human_moves) {
                    (Some(k), true) => (Some(k.id), Some(k.hash), response.clone()),
                    _ => (None, None, None),
                };
                NewMove {
                    move_no: entry.move_no(),
                    seat: entry.seat().0,
                    kind: entry.kind(),
                    score: entry.score(),
                    entry: entry.to_json(),
                    client_move_id,
                    request_hash,
                    response,
                    played_at: times[i],
                }
            })
            .collect();
        let last = entries.len().saturating_sub(1);
        let events: Vec<MoveEvent> = entries
            .iter()
            .zip(next)
            .enumerate()
            .map(|(i, (e, to_move))| MoveEvent {
                game_id: record.game_id,
                move_no: e.move_no(),
                to_move: to_move.filter(|_| update.status != GameStatus::Withdrawn),
                status: if to_move.is_none() { GameStatus::Finished } else { update.status },
                clock: outcome.game.clock.clone(),
                // The end's ratings go with the last move.
                ratings: if i == last { ratings.clone() } else { None },
            })
            .collect();
        Ok(PlayedOut { update, outcome, rows, events })
    }
}

/// The entries applying `checked` to `game` writes: its own, then any the game wrote itself
/// after it (a group chain's new round, when the move cost a seat a life).
fn applied(game: &mut AnyGame<'_>, checked: Checked) -> Vec<Entry> {
    let first = game.apply(checked);
    let after = first.move_no() + 1..game.move_count();
    std::iter::once(first).chain(after.filter_map(|n| game.entry(n))).collect()
}

/// The level of the robot in `seat`, if a robot sits there.
pub(crate) fn robot_level(record: &GameRecord, seat: Seat) -> Option<Level> {
    record.players.get(seat.index()).and_then(|p| p.account.as_ref()).and_then(|a| a.robot_level)
}

/// Whom the robot at `seat` plays against: robots when every other seat is one, else a person.
fn opponent_of(record: &GameRecord, seat: Seat) -> Opponent {
    let others = (0..record.players.len()).filter(|&s| s != seat.index());
    if others.into_iter().all(|s| robot_level(record, Seat(s as u8)).is_some()) { Opponent::Robot } else { Opponent::Person }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chrono::{DateTime, Utc};
    use games::{Families, Lexicons, Move, Variant};
    use store::{Account, AccountKind, Player};
    use uuid::Uuid;

    use super::*;
    use crate::{ManualClock, Runtime};

    const AT: i64 = 1_800_000_000;

    fn at() -> DateTime<Utc> {
        DateTime::from_timestamp(AT, 0).unwrap()
    }

    fn account(account_id: Uuid, kind: AccountKind, robot_level: Option<Level>) -> Account {
        Account { account_id, display_name: "Ann".into(), kind, robot_level, created_at: at(), spectating: store::Spectating::Standard }
    }

    /// An English game, timed at a minute a turn, just begun: a human in seat 0 and in seat 1
    /// the easy robot, or nobody yet.
    fn record(families: &Families, robot: bool) -> GameRecord {
        let variant: Variant = "scrabble-en".parse().unwrap();
        let setup = families.setup(variant, 2, 7).unwrap();
        let robot = robot.then(|| account(store::robot_account(Level::Easy), AccountKind::Robot, Some(Level::Easy)));
        GameRecord {
            game_id: Uuid::from_u128(1),
            variant,
            seed: setup.seed,
            seats: 2,
            no_repeat_words: setup.no_repeat_words,
            setup: Some(setup.setup),
            status: if robot.is_some() { GameStatus::Active } else { GameStatus::Open },
            move_count: 0,
            time_control: TimeControl::Correspondence { turn_seconds: 60, bank_seconds: 0 },
            turn_deadline: None,
            started_at: None,
            created_at: at(),
            updated_at: at(),
            finished_at: None,
            rematch_of: None,
            invited_by: None,
            end_reason: None,
            players: vec![
                Player { seat: 0, account: Some(account(Uuid::from_u128(2), AccountKind::Human, None)), invited: false, hints_used: 0 },
                Player { seat: 1, account: robot, invited: false, hints_used: 0 },
            ],
            journal: "[]".into(),
            move_times: Vec::new(),
            draws: Vec::new(),
            rated: false,
            pair_limited: false,
            outages: Vec::new(),
            tournament_id: None,
            draw_deadline: None,
            hints_allowed: None,
            ratings: Vec::new(),
            rating_range: None,
            version: "1".into(),
        }
    }

    /// Seat 0's pass in the game `record` reads to, played out with seed 11 at [`at`]: what it
    /// made and the game afterwards.
    fn pass<'a>(families: &'a Families, record: &GameRecord, viewer: Option<Seat>, key: Option<Key>) -> (PlayedOut, AnyGame<'a>) {
        let runtime = Runtime::seeded(Arc::new(ManualClock::new(at())), 11);
        let mut game = families.replay(&crate::repository::stored(record)).unwrap();
        let checked = game.check(Seat(0), &Move::Pass, timestamp(at())).unwrap();
        let played = play_out(&runtime, record, &mut game, viewer, Some(Human { checked, key, at: at() })).unwrap();
        (played.answer(&runtime, &game, None).unwrap(), game)
    }

    #[test]
    fn a_keyed_move_and_the_robots_reply_are_played_out_without_a_database() {
        let families = Families::new(Arc::new(Lexicons::builtin()));
        let record = record(&families, true);
        let key = Key { id: Uuid::from_u128(3), hash: [9; 32] };

        let (played, game) = pass(&families, &record, Some(Seat(0)), Some(key));

        let deadline = Some(at() + chrono::Duration::seconds(60));
        assert_eq!(played.outcome.moves.len(), 2, "the pass, then the robot's reply");
        assert_eq!(played.rows.iter().map(|r| (r.move_no, r.seat)).collect::<Vec<_>>(), [(0, 0), (1, 1)]);
        let answer = serde_json::to_string(&played.outcome).unwrap();
        let first = &played.rows[0];
        assert_eq!((first.client_move_id, first.request_hash, first.response.as_deref()), (Some(key.id), Some(key.hash), Some(&*answer)));
        let reply = &played.rows[1];
        assert_eq!(
            (reply.client_move_id, reply.request_hash, reply.response.as_deref()),
            (None, None, None),
            "the robot's row is not keyed"
        );
        let u = &played.update;
        assert_eq!((u.move_count, u.status, u.turn_deadline, u.end_reason, u.to_move), (2, GameStatus::Active, deadline, None, Some(0)));
        assert_eq!(u.scores, [0, reply.score]);
        let g = &played.outcome.game;
        assert_eq!((g.move_count, g.status, g.turn_deadline, g.to_move), (2, GameStatus::Active, deadline, Some(0)));
        let events: Vec<_> = played.events.iter().map(|e| (e.game_id, e.move_no, e.to_move, e.status)).collect();
        assert_eq!(events, [(record.game_id, 0, Some(1), GameStatus::Active), (record.game_id, 1, Some(0), GameStatus::Active)]);
        assert_eq!((game.move_count(), game.to_move()), (2, Seat(0)), "the game is left as written");

        // The same seeds play the same reply.
        assert_eq!(pass(&families, &record, Some(Seat(0)), Some(key)).0.rows[1].entry, reply.entry);
    }

    #[test]
    fn while_a_seat_waits_for_a_player_nobody_else_moves_and_no_clock_runs() {
        let families = Families::new(Arc::new(Lexicons::builtin()));
        let record = record(&families, false);

        let (played, _) = pass(&families, &record, None, None);

        assert_eq!(played.rows.len(), 1);
        assert_eq!((played.rows[0].client_move_id, played.rows[0].response.as_deref()), (None, None));
        let u = &played.update;
        assert_eq!((u.move_count, u.status, u.turn_deadline, u.to_move), (1, GameStatus::Open, None, Some(1)));
        assert_eq!(played.outcome.game.your_seat, None, "seen by nobody in particular");
        let events: Vec<_> = played.events.iter().map(|e| (e.move_no, e.to_move, e.status)).collect();
        assert_eq!(events, [(0, Some(1), GameStatus::Open)]);
    }
}
