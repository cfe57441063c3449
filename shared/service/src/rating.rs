//! Rated games: each seat's rating as the game view shows it (before the game, and the change it
//! made), and the ratings a rated game's end writes, in the transaction that records the end. A
//! game that ends before each player has made a move (or is resigned before each has made two) is
//! aborted: no rating changes. Rated games between the same two accounts count for
//! [`RATED_GAMES_PER_PAIR_PER_DAY`] a day; later ones are played casual.

use chrono::{DateTime, Utc};
use games::{AnyGame, MoveKind, Position, Seat, Speed};
use ratings::{Rating, Score, periods_in};
use serde::Serialize;
use store::{GameRecord, RatingChange, RatingWrite, StoredRating};

/// A rated game's ratings, as its view shows them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RatingsView {
    /// The speed the game is rated at.
    pub speed: Speed,
    /// The game ended before each player had made a move: no rating changed.
    pub aborted: bool,
    /// Each seat, seat 0 first.
    pub seats: Vec<SeatRatingView>,
}

/// A seat's rating in a rated game.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SeatRatingView {
    /// The seat.
    pub seat: usize,
    /// The player's rating before the game (now, while it is played), rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Whether it is provisional (its deviation at least 110).
    pub provisional: bool,
    /// What the game changed it by, rounded, once it ended rated.
    pub change: Option<i32>,
}

/// The ratings of `record`'s game as its view shows them (none for a casual game).
pub(crate) fn view(record: &GameRecord, game: &impl Position) -> Option<RatingsView> {
    if !record.rated {
        return None;
    }
    let seats = (0..record.seats)
        .map(|seat| {
            let r = record.ratings.iter().find(|r| r.seat == seat);
            match r.and_then(|r| Some((r.rating_before?, r.deviation_before?, r.rating_after?))) {
                Some((before, deviation, after)) => seat_view(seat, before, deviation, Some(after - before)),
                None => {
                    let now = Rating::default();
                    seat_view(
                        seat,
                        r.and_then(|r| r.rating).unwrap_or(now.rating),
                        r.and_then(|r| r.deviation).unwrap_or(now.deviation),
                        None,
                    )
                }
            }
        })
        .collect();
    Some(RatingsView { speed: record.time_control.speed(), aborted: game.is_over() && aborted(game, record.seats), seats })
}

/// The view of the ratings `writes` made, for the answer that records the end.
pub(crate) fn view_of_writes(record: &GameRecord, writes: &[RatingWrite]) -> Option<RatingsView> {
    let seats = writes
        .iter()
        .enumerate()
        .map(|(seat, w)| {
            seat_view(seat, w.change.rating_before, w.change.deviation_before, Some(w.change.rating_after - w.change.rating_before))
        })
        .collect();
    record.rated.then(|| RatingsView { speed: record.time_control.speed(), aborted: false, seats })
}

fn seat_view(seat: usize, rating: f64, deviation: f64, change: Option<f64>) -> SeatRatingView {
    SeatRatingView {
        seat,
        rating: rating.round() as i32,
        deviation: deviation.round() as i32,
        provisional: Rating { rating, deviation, volatility: ratings::DEFAULT_VOLATILITY }.is_provisional(),
        change: change.map(|c| c.round() as i32),
    }
}

/// Rated games outside tournaments that the same two accounts may play against each other in
/// any rolling 24 hours ([`Service::limit_rated_pair`]): later ones are played casual, and say
/// so (`pair_limited`). Aborted games do not count.
pub const RATED_GAMES_PER_PAIR_PER_DAY: u32 = 3;

/// Moves each player must have made before a resignation rates the game: a game resigned sooner
/// is aborted.
pub const MOVES_BEFORE_A_RATED_RESIGNATION: usize = 2;

/// Whether a finished game is aborted, so not rated: it ended before each of its `seats` had
/// made a move (a play, a pass, an exchange or a word), or by a resignation before each had
/// made [`MOVES_BEFORE_A_RATED_RESIGNATION`].
pub fn aborted(game: &impl Position, seats: usize) -> bool {
    let resigned = game.outcome().is_some_and(|o| o.reason == games::EndReason::Resigned);
    let needed = if resigned { MOVES_BEFORE_A_RATED_RESIGNATION } else { 1 };
    let moves = |seat: usize| {
        (0..game.move_count())
            .filter_map(|i| game.entry(i))
            .filter(|e| {
                e.seat().index() == seat && matches!(e.kind(), MoveKind::Play | MoveKind::Pass | MoveKind::Exchange | MoveKind::Word)
            })
            .count()
    };
    !(0..seats).all(|seat| moves(seat) >= needed)
}

impl crate::Service {
    /// Plays the rated game of `tx` casual when its two human players have already played
    /// [`RATED_GAMES_PER_PAIR_PER_DAY`] rated games against each other in the last 24 hours
    /// (tournament games, which a director pairs, are not limited). The one rule every path
    /// that seats a rated pair reads: an invitation made, an invitation accepted, an open game
    /// joined.
    ///
    /// # Errors
    /// Storage failures; [`crate::ServiceError::Conflict`] if the game changed meanwhile.
    pub(crate) async fn limit_rated_pair(&self, tx: &mut crate::ports::GameEdit) -> Result<(), crate::ServiceError> {
        if !tx.game().rated || tx.game().tournament_id.is_some() {
            return Ok(());
        }
        let [Some(a), Some(b)] = [0, 1].map(|s| tx.game().players.get(s).and_then(|p| p.account.as_ref()).map(|a| a.account_id)) else {
            return Ok(());
        };
        if !pair_may_play_rated(tx.rated_games_between(a, b, pair_window_start(self.now())).await?) {
            tx.limit_to_casual().await?;
        }
        Ok(())
    }
}

/// Where the pair limit's rolling day starts, seen at `now`.
pub(crate) fn pair_window_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now - chrono::Duration::hours(24)
}

/// Whether a pair that has played `rated_today` rated games against each other in the window
/// may play another rated.
pub(crate) fn pair_may_play_rated(rated_today: u32) -> bool {
    rated_today < RATED_GAMES_PER_PAIR_PER_DAY
}

/// Whether this change ends `record`'s rated game with a result for the ratings.
pub(crate) fn rates(record: &GameRecord, game: &AnyGame<'_>) -> bool {
    record.rated && record.status != store::GameStatus::Finished && game.is_over() && !aborted(game, record.seats)
}

/// The ratings a rated two-player game's end writes: each player's rating grown by its idle
/// periods, then the game's result applied to both, as of `now`.
pub(crate) fn writes(record: &GameRecord, game: &AnyGame<'_>, before: &[StoredRating], now: DateTime<Utc>) -> Vec<RatingWrite> {
    let grown: Vec<Rating> = before
        .iter()
        .map(|r| {
            let stored = Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility };
            stored.after_idle(periods_in((now - r.rated_at).num_seconds()))
        })
        .collect();
    let winners = game.outcome().map(|o| o.winners).unwrap_or_default();
    let score = match (winners.contains(&Seat(0)), winners.contains(&Seat(1))) {
        (true, false) => Score::Win,
        (false, true) => Score::Loss,
        _ => Score::Draw,
    };
    let (a, b) = Rating::rated_game(grown[0], grown[1], score);
    [(0, a), (1, b)]
        .into_iter()
        .map(|(seat, after)| RatingWrite {
            after: StoredRating {
                rating: after.rating,
                deviation: after.deviation,
                volatility: after.volatility,
                games: before[seat].games + 1,
                rated_at: now,
                ..before[seat].clone()
            },
            change: RatingChange {
                game_id: record.game_id,
                account_id: before[seat].account_id,
                variant: record.variant,
                speed: record.time_control.speed(),
                rating_before: grown[seat].rating,
                deviation_before: grown[seat].deviation,
                rating_after: after.rating,
                deviation_after: after.deviation,
                rated_at: now,
            },
        })
        .collect()
}
