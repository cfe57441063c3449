//! Robot moves in the service: the family's robot of the seat's level, seeded from the
//! service's injected seeds, with a wall-clock budget (the engines themselves read no clock). The
//! decision's `thinking_ms` is passed on to the client to pace the reveal; nothing sleeps.

use std::time::{Duration, Instant};

pub use games::WallBudget;
use store::RobotLevel;

/// How long the hard level may think in a request.
pub const HARD_BUDGET: Duration = Duration::from_millis(40);

/// The contract's level of a robot account's level.
pub fn level(level: RobotLevel) -> games::Level {
    match level {
        RobotLevel::Easy => games::Level::Easy,
        RobotLevel::Medium => games::Level::Medium,
        RobotLevel::Hard => games::Level::Hard,
    }
}

/// The budget of one robot move: [`HARD_BUDGET`] from now.
pub(crate) fn budget() -> WallBudget {
    WallBudget { until: Instant::now() + HARD_BUDGET }
}
