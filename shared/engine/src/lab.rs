//! Two internals of the robots, opened to the research crate `lab/` by the `lab` feature. No
//! product build turns the feature on: the service, the functions and `wordgame` never see these.

use rand_chacha::ChaCha8Rng;

use crate::robot::LevelRobot;
use crate::tile::RackTile;
use crate::{Board, GeneratedPlay, Rack};

/// `n` tiles drawn at random from `pool` without replacement, as the hard level deals hidden racks.
pub fn sample(pool: &[RackTile], n: usize, rng: &mut ChaCha8Rng) -> Vec<RackTile> {
    crate::robot::sample(pool, n, rng)
}

/// The hard level's pre-endgame value of `play` on one deal (see the robot's own use).
pub fn pre_endgame_value(
    robot: &LevelRobot<'_>,
    board: Board,
    play: &GeneratedPlay,
    rack: &Rack,
    bag: &[RackTile],
    opponent: &Rack,
) -> i64 {
    robot.pre_endgame_value(board, play, rack, bag, opponent)
}
