//! `lab leaves`: refines the heuristic leave table from self-play and measures how the
//! equity robot does against the pure-score robot.
//!
//! Refinement: in games between two heuristic-equity robots, every play records the tiles kept
//! and the score of that seat's next move. A letter's refined value is 1000 × (the mean next
//! score when the leave holds it − the mean next score over all leaves); the same for blanks.
//! The duplicate, balance and Q terms of the heuristic stay as they are.
//!
//! `--superleaves FILE` also fits whole-leave values by the product's fits
//! ([`wordgame::leaves`], what `wordgame data leaves` runs with the shipped parameters), here with
//! any parameters and the research targets, writes the table, then measures it against the
//! heuristic and the refined per-letter table.

use std::collections::HashMap;

use engine::leave::SuperLeaves;
use engine::{LeaveTable, RackTile, Seat, TileVariant};
use serde::Serialize;

use wordgame::CliError;
use wordgame::ladder::progress;
use wordgame::leaves::residuals::{LeaveTarget, SeatTurn, next_equity};
use wordgame::leaves::{LeaveFit, LeaveRecipe};
use wordgame::selfplay::{StaticStrategy, play_game};

/// Arguments of `lab leaves`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// Games for refining, and again for each evaluation match.
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// The first game's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also fit whole-leave values (superleaves) and write them to this file: 12-byte entries in
    /// key order, or packed when it ends in `.lv`, as the engine's compiled-in
    /// `shared/engine/data/leaves/<variant>.lv`.
    #[arg(long)]
    superleaves: Option<String>,
    /// Self-play games for the superleave fit, per generation.
    #[arg(long, default_value_t = 20_000)]
    fit_games: u64,
    /// Generations: the first plays the heuristic, each next one the table just fitted.
    #[arg(long, default_value_t = 1)]
    generations: u32,
    /// What a leave is fitted to: the seat's next score (`next`), the sum of its next
    /// `--horizon` scores (`turns`), its next equity (`equity`), the spread it gains to the
    /// end (`spread`), or the best value of every full rack that holds it (`racks`, the rack
    /// census; `--min-samples` is then a leave's least support and `--shrink` pulls toward the
    /// heuristic).
    #[arg(long, value_enum, default_value_t = FitTarget::Equity)]
    fit_target: FitTarget,
    /// Turns summed by `--fit-target turns`.
    #[arg(long, default_value_t = 3)]
    horizon: usize,
    /// Samples a leave needs before it gets a fitted value.
    #[arg(long, default_value_t = 1)]
    min_samples: u32,
    /// Pseudo-samples each leave's own residual is shrunk toward the feature model by.
    #[arg(long, default_value_t = 300.0)]
    shrink: f64,
    /// Every leave of at most this many tiles goes in the table (unseen ones valued by the
    /// feature model), so that few leaves fall back to the heuristic.
    #[arg(long, default_value_t = 4)]
    all_up_to: usize,
    /// Threads for the rack census's self-play (`--fit-target racks`); the table is the same on
    /// any count.
    #[arg(long, default_value_t = 2)]
    threads: u64,
}

/// `--fit-target`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FitTarget {
    Next,
    Turns,
    Equity,
    Spread,
    Racks,
}

#[derive(Serialize)]
struct Refined {
    variant: String,
    games: u64,
    per_letter: Vec<(char, i32)>,
    blank: i32,
}

/// Runs the command: prints the refined table (JSON) and the evaluation matches.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let rules = variant.rules();
    let heuristic = LeaveTable::heuristic(rules);
    let refined = refine(variant, &heuristic, args);
    let out = Refined {
        variant: variant.id().to_string(),
        games: args.games,
        per_letter: rules.alphabet().map(|l| (rules.char_of(l), refined.per_letter[l.index()])).collect(),
        blank: refined.blank,
    };
    println!("{}", serde_json::to_string(&out).expect("plain data serializes"));
    let base = args.seed + 1_000_000;
    report("heuristic equity vs score", &play_match(variant, StaticStrategy::Equity(&heuristic), StaticStrategy::Score, args.games, base));
    report("refined equity vs score", &play_match(variant, StaticStrategy::Equity(&refined), StaticStrategy::Score, args.games, base));
    report(
        "refined equity vs heuristic equity",
        &play_match(variant, StaticStrategy::Equity(&refined), StaticStrategy::Equity(&heuristic), args.games, base),
    );
    if let Some(path) = &args.superleaves {
        let recipe = match args.fit_target {
            FitTarget::Racks => LeaveRecipe::Census { shrink: args.shrink, min_support: args.min_samples, threads: args.threads },
            target => LeaveRecipe::Residuals {
                target: research_target(target, args.horizon),
                shrink: args.shrink,
                min_samples: args.min_samples,
                all_up_to: args.all_up_to,
            },
        };
        let fit = LeaveFit { games: args.fit_games, generations: args.generations, seed: args.seed + 2_000_000, recipe };
        let entries = fit.run(variant);
        wordgame::leaves::write(path, &entries)?;
        let fitted = heuristic.clone().with_superleaves(SuperLeaves::read(wordgame::leaves::to_bytes(&entries)));
        println!("superleaves: {} leaves written to {path}", fitted.superleaves().map_or(0, |t| t.len()));
        report(
            "superleave equity vs score",
            &play_match(variant, StaticStrategy::Equity(&fitted), StaticStrategy::Score, args.games, base),
        );
        report(
            "superleave equity vs heuristic equity",
            &play_match(variant, StaticStrategy::Equity(&fitted), StaticStrategy::Equity(&heuristic), args.games, base),
        );
        report(
            "superleave equity vs refined equity",
            &play_match(variant, StaticStrategy::Equity(&fitted), StaticStrategy::Equity(&refined), args.games, base),
        );
    }
    Ok(())
}

/// `--fit-target`'s target for the residual fit (`racks` is the census, no target).
fn research_target(target: FitTarget, horizon: usize) -> LeaveTarget {
    let score = |t: &SeatTurn| f64::from(t.score);
    match target {
        FitTarget::Next => Box::new(move |turns, _| turns.get(1).map_or(0.0, score)),
        FitTarget::Turns => Box::new(move |turns, _| turns.iter().skip(1).take(horizon).map(score).sum()),
        FitTarget::Equity | FitTarget::Racks => Box::new(next_equity),
        FitTarget::Spread => Box::new(|turns, final_spread| f64::from(final_spread - turns[0].spread)),
    }
}

fn refine(variant: TileVariant, heuristic: &LeaveTable, args: &Args) -> LeaveTable {
    let rules = variant.rules();
    // Per seat: the leave of its last play, waiting for that seat's next score.
    let mut samples: Vec<(Vec<RackTile>, i32)> = Vec::new();
    for g in 0..args.games {
        let mut pending: HashMap<Seat, Vec<RackTile>> = HashMap::new();
        let robot = StaticStrategy::Equity(heuristic);
        let game = play_game(variant, args.seed + g, [robot, robot], |game, play| {
            let seat = game.to_move();
            let rack = *game.rack(seat);
            if let Some(p) = play {
                if let Some(leave) = pending.insert(seat, p.leave(&rack).tiles().collect()) {
                    samples.push((leave, p.score));
                }
            } else {
                pending.remove(&seat);
            }
        });
        let _ = game;
        progress("refining", g + 1, args.games);
    }
    eprintln!();
    let mean = samples.iter().map(|s| f64::from(s.1)).sum::<f64>() / samples.len().max(1) as f64;
    let value_of = |pred: &dyn Fn(&RackTile) -> bool| -> Option<i32> {
        let with: Vec<f64> = samples.iter().filter(|(l, _)| l.iter().any(pred)).map(|s| f64::from(s.1)).collect();
        (with.len() >= 20).then(|| (1000.0 * (with.iter().sum::<f64>() / with.len() as f64 - mean)).round() as i32)
    };
    let per_letter =
        rules.alphabet().map(|l| value_of(&|t| *t == RackTile::Letter(l)).unwrap_or(heuristic.per_letter[l.index()])).collect();
    let blank = value_of(&|t| *t == RackTile::Blank).unwrap_or(heuristic.blank);
    heuristic.clone().with_tile_values(per_letter, blank)
}

/// Results of a match: wins, draws and mean scores of the first strategy and the second.
struct MatchResult {
    games: u64,
    wins: u64,
    draws: u64,
    mean_a: f64,
    mean_b: f64,
}

/// `games` games between `a` and `b`, alternating who moves first.
fn play_match(variant: TileVariant, a: StaticStrategy<'_>, b: StaticStrategy<'_>, games: u64, seed: u64) -> MatchResult {
    let (mut wins, mut draws, mut sum_a, mut sum_b) = (0, 0, 0i64, 0i64);
    for g in 0..games {
        let a_first = g % 2 == 0;
        let seats = if a_first { [a, b] } else { [b, a] };
        let game = play_game(variant, seed + g / 2, seats, |_, _| {});
        let (sa, sb) = if a_first { (game.scores()[0], game.scores()[1]) } else { (game.scores()[1], game.scores()[0]) };
        sum_a += i64::from(sa);
        sum_b += i64::from(sb);
        progress("match", g + 1, games);
        match sa.cmp(&sb) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => {}
        }
    }
    eprintln!();
    MatchResult { games, wins, draws, mean_a: sum_a as f64 / games as f64, mean_b: sum_b as f64 / games as f64 }
}

fn report(label: &str, r: &MatchResult) {
    let n = r.games as f64;
    let p = (r.wins as f64 + 0.5 * r.draws as f64) / n;
    let half = 1.96 * (p * (1.0 - p) / n).sqrt();
    println!(
        "{label}: {:.1}% ± {:.1}% over {} games (wins {}, draws {}), mean scores {:.1} vs {:.1}",
        100.0 * p,
        100.0 * half,
        r.games,
        r.wins,
        r.draws,
        r.mean_a,
        r.mean_b
    );
}
