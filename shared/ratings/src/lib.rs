//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), computed by the `skillratings`
//! crate (chosen: well kept, MIT/Apache-2.0, no dependencies, and its output is checked here
//! against the paper's worked example). Each rated game is its own rating period for its two
//! players, as online services rate; between games a player's deviation grows by one rating
//! period for each whole day without a rated game, up to a newcomer's. Pure: nothing here reads
//! a clock; the caller says how many days passed.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// A newcomer's rating.
pub const DEFAULT_RATING: f64 = 1500.0;
/// A newcomer's deviation (also the most inactivity can grow a deviation to).
pub const DEFAULT_DEVIATION: f64 = 350.0;
/// A newcomer's volatility.
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// The system constant τ, which limits how fast volatility changes (the paper's example uses 0.5).
pub const TAU: f64 = 0.5;
/// A player is provisional while their deviation is at least this (as lichess: 110).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The length of a rating period for the deviation's growth with inactivity, in seconds.
pub const PERIOD_SECONDS: i64 = 86_400;

/// One player's rating in one variant and speed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (1500 for a newcomer).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is.
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating { rating: DEFAULT_RATING, deviation: DEFAULT_DEVIATION, volatility: DEFAULT_VOLATILITY }
    }
}

/// A rated game's result for the first player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The first player won.
    Win,
    /// A draw (or a shared win).
    Draw,
    /// The first player lost.
    Loss,
}

impl Rating {
    /// Whether the rating is still provisional (its deviation at least [`PROVISIONAL_DEVIATION`]).
    pub fn is_provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after `periods` rating periods without a rated game: the deviation grows by
    /// the volatility each period (Glicko-2's step 6 with no games), never past a newcomer's.
    #[must_use]
    pub fn after_idle(self, periods: u32) -> Rating {
        let mut r = glicko(self);
        for _ in 0..periods.min(10_000) {
            if r.deviation >= DEFAULT_DEVIATION {
                break;
            }
            r = decay_deviation(&r);
        }
        ours(r)
    }

    /// Both players' ratings after a rated game between them that `first` scored `score`
    /// against `second` (each rating already grown by its idle periods).
    #[must_use]
    pub fn rated_game(first: Rating, second: Rating, score: Score) -> (Rating, Rating) {
        let outcome = match score {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        };
        let (a, b) = glicko2(&glicko(first), &glicko(second), &outcome, &config());
        (ours(a), ours(b))
    }
}

/// Whole rating periods in `seconds` (none for a negative span: a clock that went back).
pub fn periods_in(seconds: i64) -> u32 {
    u32::try_from(seconds.max(0) / PERIOD_SECONDS).unwrap_or(u32::MAX)
}

fn config() -> Glicko2Config {
    Glicko2Config { tau: TAU, ..Glicko2Config::new() }
}

fn glicko(r: Rating) -> Glicko2Rating {
    Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
}

fn ours(r: Glicko2Rating) -> Rating {
    Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn the_papers_worked_example_is_reproduced() {
        // Glickman's example: a 1500 (RD 200, σ 0.06) player beats a 1400 (RD 30), loses to a
        // 1550 (RD 100) and to a 1700 (RD 300) in one period, τ = 0.5: r' = 1464.06,
        // RD' = 151.52, σ' = 0.05999.
        let player = glicko(Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 });
        let opponent = |rating, deviation| Glicko2Rating { rating, deviation, volatility: 0.06 };
        let results =
            [(opponent(1400.0, 30.0), Outcomes::WIN), (opponent(1550.0, 100.0), Outcomes::LOSS), (opponent(1700.0, 300.0), Outcomes::LOSS)];
        let after = glicko2_rating_period(&player, &results, &config());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_moves_ratings_apart_and_a_draw_between_equals_moves_neither() {
        let (a, b) = Rating::rated_game(Rating::default(), Rating::default(), Score::Win);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!((a.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-9, "equal and opposite between equals");
        assert!(a.deviation < DEFAULT_DEVIATION && b.deviation < DEFAULT_DEVIATION);
        let (c, d) = Rating::rated_game(Rating::default(), Rating::default(), Score::Draw);
        assert!((c.rating - 1500.0).abs() < 1e-9 && (d.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn the_deviation_grows_with_idle_periods_up_to_a_newcomers() {
        let settled = Rating { rating: 1800.0, deviation: 50.0, volatility: 0.06 };
        let month = settled.after_idle(30);
        let year = settled.after_idle(365);
        assert!(settled.deviation < month.deviation && month.deviation < year.deviation, "{month:?} {year:?}");
        assert_eq!(month.rating, 1800.0, "idleness moves no rating");
        assert!((settled.after_idle(100_000).deviation - DEFAULT_DEVIATION).abs() < 1e-9);
        assert_eq!(settled.after_idle(0), settled);
        assert_eq!(periods_in(86_399), 0);
        assert_eq!(periods_in(3 * 86_400 + 5), 3);
        assert_eq!(periods_in(-5), 0);
    }
}
