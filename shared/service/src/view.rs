//! What a player sees of a game: what every family shows (seats, scores, whose turn, the time
//! control and the clock, the last move, the result, the draw) and the family's own view (a board and the
//! player's own rack; a chain). A journal entry reaches a player only through
//! its family's [`Position::entry_view`] (the one place deciding what a seat may see of it).

use chrono::{DateTime, Utc};
use games::{AnyGame, DrawPick, EntryView, Family, FamilyView, Position, Revealed, Seat, SeatDetail, TimeControl, Variant, Viewer};
use serde::Serialize;
use store::{AccountKind, GameRecord, GameStatus, Level};
use uuid::Uuid;

use crate::clock::{ClockView, Stamp, Tally};

/// A game as one player sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The variant's family: tile or chain.
    pub family: Family,
    /// open, drawing (a tournament game's players drawing for who starts), active, finished or
    /// withdrawn.
    pub status: GameStatus,
    /// Seats in order, with names and scores.
    pub seats: Vec<SeatView>,
    /// Who invited the other humans, for a game that began as an invitation: the one player
    /// who may withdraw it while an invitee has not accepted (the others decline).
    pub invited_by: Option<Uuid>,
    /// The seat to move (absent once the game is over).
    pub to_move: Option<usize>,
    /// Moves so far; a submit names this as `expected_move_no`.
    pub move_count: u32,
    /// When the player to move times out, if the game is timed (a real-time clock's flag).
    #[serde(serialize_with = "store::timestamp::millis_opt")]
    pub turn_deadline: Option<DateTime<Utc>>,
    /// How the game is timed, pinned when it was created.
    pub time_control: TimeControl,
    /// Every seat's time as of the server's `now` (absent for an untimed game).
    pub clock: Option<ClockView>,
    /// The last move, as the caller may see it.
    pub last_move: Option<EntryView>,
    /// The caller's seat (null for a spectator).
    pub your_seat: Option<usize>,
    /// Whether the caller watches the game without a seat in it (the public view: no rack, no
    /// exchanged letters).
    pub spectator: bool,
    /// For a spectator of a tournament's live game: how many of its moves are held back (the
    /// director's delay; the view is then the game that many moves ago, with no clock).
    pub spectator_delay: u32,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Asked rated, played casual: its two players had already played their rated games against
    /// each other for the day ([`crate::rating::RATED_GAMES_PER_PAIR_PER_DAY`]).
    pub pair_limited: bool,
    /// A rated game's ratings: each seat's before the game and, once it ended rated, the
    /// change (null for a casual game).
    pub ratings: Option<crate::rating::RatingsView>,
    /// Hints each seat may take in this game, pinned when it was made; null: as many as one
    /// likes.
    pub hints_allowed: Option<u32>,
    /// Hints the caller's seat has left; null when they are not rationed (or the caller has no
    /// seat).
    pub hints_left: Option<u32>,
    /// The recorded draw for who moves first, once the game is active or being drawn (empty for
    /// games from before it).
    pub draw: Vec<DrawView>,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// While the players draw by hand: who has still to draw, and until when.
    pub drawing: Option<DrawingView>,
    /// The family's own view: board, bag and the caller's rack; or the chain.
    #[serde(flatten)]
    pub position: FamilyView,
}

/// One pick of the draw that decided who moves first: a tile (tile games) or a lot (the chain).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DrawView {
    /// Round, from 1.
    pub round: i16,
    /// Pick within the round.
    pub pick_no: i16,
    /// Who drew.
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// The letter drawn (`?` for a blank); null for a lot.
    pub letter: Option<String>,
    /// Whether it was a blank.
    pub blank: bool,
    /// The rank: −1 for a blank, else the alphabet index; a lot's number. The lowest leads.
    pub rank: i16,
}

/// A manual draw in progress (a tournament game): each player draws a tile with
/// `POST /games/{id}/draw`; ties draw again among the tied; the leader moves first.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DrawingView {
    /// The round of the draw, from 1 (ties draw again in the next).
    pub round: u16,
    /// The seats who have still to draw this round.
    pub to_draw: Vec<usize>,
    /// When the server draws for whoever has not.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub deadline: DateTime<Utc>,
}

/// One seat.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SeatView {
    /// The seat, 0-based; seat 0 moved first.
    pub seat: usize,
    /// Who sits there (absent while open).
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// human or robot.
    pub kind: Option<AccountKind>,
    /// A robot's level.
    pub robot_level: Option<Level>,
    /// Score (final once the game is over).
    pub score: i32,
    /// Invited and not yet accepted (the game waits for every invitee).
    pub invited: bool,
    /// What the family shows of the seat besides (a tile rack's size).
    #[serde(flatten)]
    pub detail: SeatDetail,
}

/// How a game ended.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// Why.
    pub reason: games::EndReason,
    /// The seat that went out, resigned, had no word or ran out of time.
    pub seat: Option<usize>,
    /// The winning seats (more than one on a tie).
    pub winners: Vec<usize>,
    /// The end-of-game settlement per seat.
    pub adjustments: Vec<i32>,
    /// What the end reveals, as the family says (an object, flattened): a tile game's `racks`,
    /// every seat's leftover rack (letters, `?` for a blank), seat 0 first; null for the chain,
    /// which has no racks.
    #[serde(flatten)]
    pub revealed: Revealed,
}

/// The view of `record` (rebuilt as `game`) for the caller in `seat`, its clock read at `now`.
pub(crate) fn build(record: &GameRecord, game: &impl Position, seat: Option<Seat>, now: DateTime<Utc>) -> GameView {
    let scores = game.scores();
    let seats = record
        .players
        .iter()
        .map(|p| SeatView {
            seat: p.seat,
            account_id: p.account.as_ref().map(|a| a.account_id),
            display_name: p.account.as_ref().map(|a| a.display_name.clone()),
            kind: p.account.as_ref().map(|a| a.kind),
            robot_level: p.account.as_ref().and_then(|a| a.robot_level),
            score: scores.get(p.seat).copied().unwrap_or(0),
            invited: p.invited,
            detail: game.seat_detail(Seat(p.seat as u8)),
        })
        .collect();
    let result = game.outcome().map(|o| ResultView {
        reason: o.reason,
        seat: o.seat.map(Seat::index),
        winners: o.winners.iter().map(|s| s.index()).collect(),
        adjustments: o.adjustments,
        revealed: game.revealed(),
    });
    let viewer = seat.map_or(Viewer::Public, Viewer::Seat);
    GameView {
        game_id: record.game_id,
        variant: record.variant,
        family: record.variant.family(),
        status: record.status,
        seats,
        invited_by: record.invited_by,
        to_move: (!game.is_over() && !matches!(record.status, GameStatus::Withdrawn | GameStatus::Drawing)).then(|| game.to_move().index()),
        move_count: game.move_count(),
        turn_deadline: record.turn_deadline,
        time_control: record.time_control,
        clock: record.time_control.is_timed().then(|| clock_view(record, game, now)),
        last_move: game.move_count().checked_sub(1).and_then(|i| game.entry_view(i, viewer)),
        your_seat: seat.map(Seat::index),
        spectator: false,
        spectator_delay: 0,
        result,
        rated: record.rated,
        pair_limited: record.pair_limited,
        ratings: crate::rating::view(record, game),
        hints_allowed: record.hints_allowed,
        hints_left: seat.and_then(|s| record.hints_left(s.index())),
        draw: if record.status == GameStatus::Open { Vec::new() } else { draw_view(record) },
        tournament_id: record.tournament_id,
        drawing: drawing_view(record),
        // While the players draw for who starts, nobody holds a seat's rack yet: the draw decides
        // who sits where, so a rack shown now could be the opponent's.
        position: game.view(seat.filter(|_| record.status != GameStatus::Drawing)),
    }
}

/// The clock of `record` (rebuilt as `game`) folded over its journal.
pub(crate) fn tally(record: &GameRecord, game: &impl Position) -> Tally {
    let stamps: Vec<Stamp> = (0..game.move_count())
        .filter_map(|i| game.entry(i))
        .map(|e| Stamp { seat: e.seat(), kind: e.kind(), at: record.move_times.get(e.move_no() as usize).copied().flatten() })
        .collect();
    Tally::new(record.time_control, record.seats, record.started_at, &stamps, &record.outages)
}

/// The stored turn deadline brought up to the clock: after an outage the clock skips, the
/// running seat's time runs out later than the deadline written with the last move, and every
/// lapse, view and sweep reads this one (never earlier than the stored one).
pub(crate) fn clock_deadline(record: &mut GameRecord, game: &mut AnyGame<'_>) {
    if record.outages.is_empty() || record.turn_deadline.is_none() {
        return;
    }
    let Some(due) = running(record, &*game).and_then(|seat| tally(record, &*game).deadline(seat)) else { return };
    if record.turn_deadline.is_some_and(|stored| due > stored) {
        record.turn_deadline = Some(due);
        game.set_deadline(Some(crate::runtime::timestamp(due)));
    }
}

/// The seat whose time runs: the seat to move of an active game no invitation holds up.
pub(crate) fn running(record: &GameRecord, game: &impl Position) -> Option<Seat> {
    let waiting = record.players.iter().any(|p| p.account.is_none() || p.invited);
    (record.status == GameStatus::Active && !game.is_over() && !waiting).then(|| game.to_move())
}

/// The clock as of `now`; a game from before clocks were kept shows its stored deadline.
fn clock_view(record: &GameRecord, game: &impl Position, now: DateTime<Utc>) -> ClockView {
    let running = running(record, game);
    let mut view = tally(record, game).view(running, now);
    if view.flag_at.is_none() && running.is_some() {
        view.flag_at = record.turn_deadline;
        view.running = running.map(Seat::index);
    }
    view
}

/// The manual draw of a drawing game: who has still to draw (none if the recorded picks do not
/// replay, which the draw itself reports).
fn drawing_view(record: &GameRecord) -> Option<DrawingView> {
    let deadline = record.draw_deadline.filter(|_| record.status == GameStatus::Drawing)?;
    let state = games::draw_state(record.variant, record.seats, &picks(record)).ok()?;
    Some(DrawingView { round: state.round, to_draw: state.pending, deadline })
}

/// The recorded picks as the draw reads them: each naming its player's index among the seats.
pub(crate) fn picks(record: &GameRecord) -> Vec<DrawPick> {
    record
        .draws
        .iter()
        .map(|d| DrawPick {
            round: d.round as u16,
            pick_no: d.pick_no as u16,
            participant: d.account_id.and_then(|a| participant_of(record, a)).unwrap_or(usize::MAX),
            letter: d.letter.as_deref().and_then(|l| l.chars().next()),
            is_blank: d.is_blank,
            rank: d.rank,
        })
        .collect()
}

pub(crate) fn participant_of(record: &GameRecord, account: Uuid) -> Option<usize> {
    record.players.iter().position(|p| p.account.as_ref().is_some_and(|a| a.account_id == account))
}

pub(crate) fn draw_view(record: &GameRecord) -> Vec<DrawView> {
    let name = |id: Option<Uuid>| {
        record.players.iter().filter_map(|p| p.account.as_ref()).find(|a| Some(a.account_id) == id).map(|a| a.display_name.clone())
    };
    record
        .draws
        .iter()
        .map(|d| DrawView {
            round: d.round,
            pick_no: d.pick_no,
            account_id: d.account_id,
            display_name: name(d.account_id),
            letter: d.letter.clone(),
            blank: d.is_blank,
            rank: d.rank,
        })
        .collect()
}
