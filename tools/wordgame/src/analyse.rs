//! `wordgame analyse`: what the post-game analysis costs. Plays `--games` seeded self-play games
//! (score against equity) and times the analysis of each (`engine::review` with the service's
//! budget, `games::ANALYSIS_ROUNDS`), as this thread's CPU time; prints the median, the 99th
//! percentile and the worst per game, and per move. Build with `--release`.

use engine::lexicon::builtin_graph;
use engine::{LeaveTable, TileVariant};

use crate::CliError;
use crate::cpu::thread_time;
use crate::selfplay::{StaticStrategy, play_game};

/// Arguments of `wordgame analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant.
    #[arg(long, default_value = "scrabble-en")]
    variant: String,
    /// Games to play and analyse.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The first game's seed (the others follow it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the measurement and prints its figures.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let leave = LeaveTable::standard(variant.rules());
    let mut per_game = Vec::new();
    let mut per_move = Vec::new();
    let mut moves = 0usize;
    for seed in args.seed..args.seed + args.games {
        let game = play_game(variant, seed, [StaticStrategy::Score, StaticStrategy::Equity(&leave)], |_, _| {});
        let started = thread_time();
        let reviewed = engine::review::review(game.setup(), game.journal(), builtin_graph(variant), games::ANALYSIS_ROUNDS)
            .map_err(|e| CliError::Input(format!("seed {seed}: {e}")))?;
        let took = thread_time().saturating_sub(started);
        moves += reviewed.len();
        per_game.push(took.as_secs_f64() * 1000.0);
        per_move.push(took.as_secs_f64() * 1000.0 / reviewed.len().max(1) as f64);
    }
    let pct = |v: &mut Vec<f64>, p: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() as f64 - 1.0) * p).round() as usize]
    };
    println!(
        "{variant}: {} games, {:.1} moves analysed a game, budget {} rounds a move",
        args.games,
        moves as f64 / args.games as f64,
        games::ANALYSIS_ROUNDS
    );
    println!(
        "per game: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms (CPU)",
        pct(&mut per_game, 0.5),
        pct(&mut per_game, 0.99),
        pct(&mut per_game, 1.0)
    );
    println!("per move: p50 {:.1} ms, p99 {:.1} ms", pct(&mut per_move, 0.5), pct(&mut per_move, 0.99));
    Ok(())
}
