//! `lab endgame-loss`: what the hard level's endgame loses to its time budget. Seeded
//! medium self-play runs until the bag is empty; there the hard level decides within
//! `--budget-ms`, and the endgame search with `--long-ms` values both that move and its own
//! best (each by the search's value of the position after it). The loss is the difference, in
//! points of spread, per position. Release build recommended.

use std::time::{Duration, Instant};

use engine::endgame;
use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, seeded};
use engine::{Game, GeneratedPlay, LeaveTable, MoveGenerator, TileMove, TileVariant, Timestamp};
use games::Budget;

use wordgame::CliError;

/// Arguments of `lab endgame-loss`.
#[derive(clap::Args)]
pub struct Args {
    /// The tile variant.
    #[arg(long, default_value = "scrabble-en")]
    variant: String,
    /// Endgame positions to measure (one per seed; a game that ends before its bag empties is
    /// skipped).
    #[arg(long, default_value_t = 40)]
    positions: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The hard level's budget per decision, in milliseconds (the service's is 40).
    #[arg(long, default_value_t = 40)]
    budget_ms: u64,
    /// The budget of each valuing search, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    long_ms: u64,
}

/// One position's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Measure {
    /// The long search's value of its own best move (spread, points).
    pub best: i32,
    /// The long search's value of the hard level's move.
    pub chosen: i32,
    /// Plies of the long search's deepest completed iteration at the root.
    pub depth: u32,
}

/// Measures the positions and prints a line each and the mean loss.
///
/// # Errors
/// [`CliError::Input`] for an unknown or non-tile variant, or no positions.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    if args.positions == 0 {
        return Err(CliError::Input("--positions must be at least 1".into()));
    }
    let (budget, long) = (Duration::from_millis(args.budget_ms), Duration::from_millis(args.long_ms));
    let mut losses = Vec::new();
    let mut seed = args.seed;
    while (losses.len() as u64) < args.positions {
        if let Some(m) = measure(variant, seed, budget, long)? {
            println!("seed {seed}: best {} chosen {} loss {} (depth {})", m.best, m.chosen, m.best - m.chosen, m.depth);
            losses.push(f64::from(m.best - m.chosen));
        }
        seed += 1;
    }
    let n = losses.len() as f64;
    let mean = losses.iter().sum::<f64>() / n;
    let sd = (losses.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let lost = losses.iter().filter(|&&l| l > 0.0).count();
    println!(
        "{variant}: {} positions, hard at {} ms against the search at {} ms: mean loss {mean:.2} ± {:.2} points (95%), {lost} positions lost points",
        losses.len(),
        args.budget_ms,
        args.long_ms,
        1.96 * sd / n.sqrt()
    );
    Ok(())
}

/// The first position of seed `seed`'s medium self-play with the bag empty, measured; `None`
/// when that game ends first.
///
/// # Errors
/// [`CliError::Input`] when the long search completes no iteration in its budget.
pub fn measure(variant: TileVariant, seed: u64, budget: Duration, long: Duration) -> Result<Option<Measure>, CliError> {
    let graph = builtin_graph(variant);
    let mut rng = seeded(seed);
    let Some(game) = endgame_position(variant, seed, &mut rng) else { return Ok(None) };
    let hard = LevelRobot::new(Level::Hard, &game, graph);
    let leave = LeaveTable::standard(game.rules());
    let generator = MoveGenerator::new(game.rules(), graph);
    let chosen = hard.decide(&RobotView::new(&game), &mut rng, &mut Budget::Until(Instant::now() + budget)).play;
    let ranked = endgame::ranked(&game, &generator, game.to_move(), usize::MAX, &leave);
    let best = endgame::solve(&game, &generator, &ranked, &mut Budget::Until(Instant::now() + long)).ok_or_else(|| no_iteration(long))?;
    let value = |play| value_after(&game, play, &generator, &leave, long);
    Ok(Some(Measure { best: value(best.play)?, chosen: value(chosen)?, depth: best.depth }))
}

/// The error of a long search that completed no iteration.
fn no_iteration(long: Duration) -> CliError {
    CliError::Input(format!("the endgame search completed no iteration in {} ms; raise --long-ms", long.as_millis()))
}

/// Seed `seed`'s game of medium against medium at its first turn with the bag empty; `None`
/// when it ends before.
fn endgame_position(variant: TileVariant, seed: u64, rng: &mut rand_chacha::ChaCha8Rng) -> Option<Game> {
    let graph = builtin_graph(variant);
    let mut game = Game::new(variant, 2, seed).expect("two seats");
    let medium = LevelRobot::new(Level::Medium, &game, graph);
    while !game.bag().is_empty() {
        // Medium runs no search: its budget is never asked.
        let decision = medium.decide(&RobotView::new(&game), rng, &mut Budget::Until(Instant::now()));
        game.play(graph, game.to_move(), &decision.mv, Timestamp(0)).expect("a robot's move is legal");
        if game.is_over() {
            return None;
        }
    }
    Some(game)
}

/// The spread `play` (`None`: a pass) gains the seat to move in `game`: its own points, then
/// less what the long search finds for the opponent after it (or the settlement, if it ends
/// the game).
fn value_after(
    game: &Game,
    play: Option<GeneratedPlay>,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    long: Duration,
) -> Result<i32, CliError> {
    let me = game.to_move().index();
    let spread = |g: &Game| g.scores()[me] - g.scores()[1 - me];
    let mv = play.map_or(TileMove::Pass, |p| TileMove::play(game.rules(), &p.placements()));
    let mut after = game.clone();
    after.play(builtin_graph(game.rules().variant), game.to_move(), &mv, Timestamp(0)).expect("a searched move is legal");
    let gained = spread(&after) - spread(game);
    if after.is_over() {
        return Ok(gained);
    }
    let ranked = endgame::ranked(&after, generator, after.to_move(), usize::MAX, leave);
    let answer = endgame::solve(&after, generator, &ranked, &mut Budget::Until(Instant::now() + long)).ok_or_else(|| no_iteration(long))?;
    Ok(gained - answer.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::seat::Seat;

    #[test]
    fn a_play_going_out_is_worth_its_score_and_twice_the_other_rack() {
        let variant = TileVariant::ScrabbleEn;
        let graph = builtin_graph(variant);
        let mut checked = 0;
        for seed in 1..30 {
            let Some(game) = endgame_position(variant, seed, &mut seeded(seed)) else { continue };
            let generator = MoveGenerator::new(game.rules(), graph);
            let leave = LeaveTable::standard(game.rules());
            let rack = game.rack(game.to_move());
            let opponent = endgame::rack_points(game.rules(), game.rack(Seat(1 - game.to_move().index() as u8)));
            let ranked = endgame::ranked(&game, &generator, game.to_move(), usize::MAX, &leave);
            if let Some(out) = ranked.iter().find(|p| endgame::goes_out(p, rack)) {
                let long = Duration::from_millis(5);
                assert_eq!(value_after(&game, Some(*out), &generator, &leave, long).unwrap(), out.score + 2 * opponent);
                checked += 1;
            }
        }
        assert!(checked > 0, "some position has a play that goes out");
    }

    #[test]
    fn an_unknown_variant_or_no_positions_is_refused_before_any_game() {
        let args = |variant: &str, positions| Args { variant: variant.into(), positions, seed: 1, budget_ms: 40, long_ms: 2000 };
        for bad in [args("noi-tu", 1), args("scrabble-xx", 1), args("scrabble-en", 0)] {
            assert!(matches!(run(&bad), Err(CliError::Input(_))));
        }
    }
}
