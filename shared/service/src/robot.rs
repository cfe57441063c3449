//! The robot's move for now: the best-scoring play, else a full exchange, else a pass (the
//! robots issue brings the three levels). It reports how long a person would seem to think.

use engine::lexicon::builtin_graph;
use engine::movegen::exchanges;
use engine::{Game, Move, MoveGenerator, Ranking, TileInput};

/// A robot's chosen move and its pacing hint.
pub(crate) struct RobotMove {
    pub(crate) mv: Move,
    pub(crate) thinking_ms: u32,
}

/// The move of the seat to move.
pub(crate) fn choose(game: &Game) -> RobotMove {
    let rules = game.rules();
    let rack = game.rack(game.to_move());
    let generator = MoveGenerator::new(rules, builtin_graph(rules.variant));
    match engine::norepeat::best_plays(game, &generator, rack, 1, Ranking::Score).first() {
        Some(best) => {
            let thinking_ms = (700 + 150 * best.tiles_placed() as u32 + 8 * best.score.max(0) as u32).min(4_000);
            RobotMove { mv: Move::play(rules, &best.placements()), thinking_ms }
        }
        None => {
            let mv = match exchanges(rules, rack, game.bag().len()).into_iter().max_by_key(|r| r.len()) {
                Some(all) => Move::Exchange { tiles: all.tiles().map(|t| TileInput::from_rack_tile(rules, t)).collect() },
                None => Move::Pass,
            };
            RobotMove { mv, thinking_ms: 1_200 }
        }
    }
}
