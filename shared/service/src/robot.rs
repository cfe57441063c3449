//! Robot moves in the service: the engine's robot of the seat's level, seeded from the service's
//! injected seeds, with a wall-clock budget (the engine itself reads no clock). The decision's `thinking_ms` is passed on
//! to the client to pace the reveal; nothing sleeps.

use std::time::{Duration, Instant};

use engine::robot::{Budget, Decision, Level, LevelRobot, Robot, RobotView, seeded};
use engine::{Game, WordGraph};
use store::RobotLevel;

/// How long the hard level may think in a request.
pub const HARD_BUDGET: Duration = Duration::from_millis(40);

/// A wall-clock budget: the simulation stops at `until`.
#[derive(Debug, Clone, Copy)]
pub struct WallBudget {
    /// When to stop.
    pub until: Instant,
}

impl Budget for WallBudget {
    fn expired(&mut self, _rounds_done: u32) -> bool {
        Instant::now() >= self.until
    }
}

/// The engine level of a robot account's level.
pub fn level(level: RobotLevel) -> Level {
    match level {
        RobotLevel::Easy => Level::Easy,
        RobotLevel::Medium => Level::Medium,
        RobotLevel::Hard => Level::Hard,
    }
}

/// The move of the robot of `robot_level` to move in `game` (whose word graph is `graph`), its
/// choices seeded by `seed`: it thinks for at most [`HARD_BUDGET`], and less when the turn's deadline is nearer.
pub(crate) fn choose(game: &Game, graph: &WordGraph, robot_level: RobotLevel, seed: u64, deadline: Option<Instant>) -> Decision {
    let robot = LevelRobot::new(level(robot_level), game, graph);
    let until = Instant::now() + HARD_BUDGET;
    let until = deadline.map_or(until, |d| d.min(until));
    robot.decide(&RobotView::new(game), &mut seeded(seed), &mut WallBudget { until })
}
