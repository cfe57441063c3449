//! `wordgame leaves`: refines the heuristic leave table from self-play and measures how the
//! equity robot does against the pure-score robot.
//!
//! Refinement: in games between two heuristic-equity robots, every play records the tiles kept
//! and the score of that seat's next move. A letter's refined value is 1000 × (the mean next
//! score when the leave holds it − the mean next score over all leaves); the same for blanks.
//! The duplicate, balance and Q terms of the heuristic stay as they are.
//!
//! `--superleaves FILE` also fits whole-leave values (see [`fit_superleaves`]) and writes the
//! table the engine compiles in.

use std::collections::HashMap;

use engine::leave::{SuperLeaves, key_of};
use engine::{LeaveTable, RackTile, Seat, Variant};
use serde::Serialize;

use crate::CliError;
use crate::ladder::progress;
use crate::selfplay::{Strategy, play_game};

/// Arguments of `wordgame leaves`.
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
    /// Also fit whole-leave values (superleaves) and write them to this file: the engine's
    /// `shared/engine/data/leaves/<variant>.bin`, compiled in.
    #[arg(long)]
    superleaves: Option<String>,
    /// Self-play games for the superleave fit.
    #[arg(long, default_value_t = 4000)]
    fit_games: u64,
    /// What a leave is fitted to: the seat's next score, or (a census) the spread it gains from
    /// this play to the end of the game.
    #[arg(long, value_enum, default_value_t = Target::Spread)]
    fit_target: Target,
    /// Samples a leave needs before it gets a fitted value.
    #[arg(long, default_value_t = 30)]
    min_samples: u32,
}

/// The quantity a superleave fit averages per leave.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    /// The seat's next score.
    Next,
    /// The spread the seat gains from after this play to the end (settlement included).
    Spread,
}

/// Pseudo-samples of the heuristic value each fitted value is shrunk toward.
const SHRINK: f64 = 30.0;

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
    let variant: Variant = args.variant.parse().map_err(|e: engine::variant::VariantError| CliError::Input(e.to_string()))?;
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
    report("heuristic equity vs score", &play_match(variant, Strategy::Equity(&heuristic), Strategy::Score, args.games, base));
    report("refined equity vs score", &play_match(variant, Strategy::Equity(&refined), Strategy::Score, args.games, base));
    report(
        "refined equity vs heuristic equity",
        &play_match(variant, Strategy::Equity(&refined), Strategy::Equity(&heuristic), args.games, base),
    );
    if let Some(path) = &args.superleaves {
        let bytes = fit_superleaves(variant, &heuristic, args);
        std::fs::write(path, &bytes).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
        let table = SuperLeaves::from_bytes(Box::leak(bytes.into_boxed_slice()));
        println!("superleaves: {} leaves written to {path}", table.map_or(0, |t| t.len()));
        let fitted = heuristic.clone().with_superleaves(table);
        report(
            "superleave equity vs heuristic equity",
            &play_match(variant, Strategy::Equity(&fitted), Strategy::Equity(&heuristic), args.games, base),
        );
    }
    Ok(())
}

/// Whole-leave values from `args.fit_games` games between two heuristic-equity players: a
/// leave's value is 1000 × (the mean target after keeping it − the mean target over all leaves),
/// the target being the seat's next score or the spread it gains from then to the end, shrunk toward its heuristic value by [`SHRINK`] pseudo-samples; only
/// leaves seen `--min-samples` times get one. Returns the table's bytes, sorted by key.
fn fit_superleaves(variant: Variant, heuristic: &LeaveTable, args: &Args) -> Vec<u8> {
    // Per leave key: the sum of targets, the samples, the heuristic value.
    let mut stats: HashMap<u64, (f64, u32, i32)> = HashMap::new();
    let (mut sum, mut n) = (0f64, 0u64);
    for g in 0..args.fit_games {
        let mut pending: HashMap<Seat, (u64, i32)> = HashMap::new();
        // Spread target: (seat, key, heuristic, the seat's spread right after the play).
        let mut kept: Vec<(usize, u64, i32, i32)> = Vec::new();
        let mut samples: Vec<(u64, i32, f64)> = Vec::new();
        let robot = Strategy::Equity(heuristic);
        let end = play_game(variant, args.seed + 2_000_000 + g, [robot, robot], |game, play| {
            let seat = game.to_move();
            let rack = *game.rack(seat);
            match play {
                Some(p) if !game.bag().is_empty() => {
                    let leave = p.leave(&rack);
                    let (key, h) = (key_of(&leave), heuristic.heuristic_value(&leave));
                    let spread = game.scores()[seat.index()] + p.score - game.scores()[1 - seat.index()];
                    kept.push((seat.index(), key, h, spread));
                    if let Some((key, h)) = pending.insert(seat, (key, h)) {
                        samples.push((key, h, f64::from(p.score)));
                    }
                }
                _ => {
                    pending.remove(&seat);
                }
            }
        });
        if args.fit_target == Target::Spread {
            let finals = end.scores();
            samples = kept.iter().map(|&(s, key, h, spread)| (key, h, f64::from(finals[s] - finals[1 - s] - spread))).collect();
        }
        for (key, h, target) in samples {
            let e = stats.entry(key).or_insert((0.0, 0, h));
            e.0 += target;
            e.1 += 1;
            sum += target;
            n += 1;
        }
        progress("superleaves", g + 1, args.fit_games);
    }
    eprintln!();
    let mean = sum / n.max(1) as f64;
    let mut entries: Vec<(u64, i32)> = stats
        .into_iter()
        .filter(|(_, (_, count, _))| *count >= args.min_samples)
        .map(|(key, (total, count, h))| {
            let fitted = 1000.0 * (total / f64::from(count) - mean);
            (key, ((f64::from(count) * fitted + SHRINK * f64::from(h)) / (f64::from(count) + SHRINK)).round() as i32)
        })
        .collect();
    entries.sort_unstable();
    entries.iter().flat_map(|(k, v)| k.to_le_bytes().into_iter().chain(v.to_le_bytes())).collect()
}

fn refine(variant: Variant, heuristic: &LeaveTable, args: &Args) -> LeaveTable {
    let rules = variant.rules();
    // Per seat: the leave of its last play, waiting for that seat's next score.
    let mut samples: Vec<(Vec<RackTile>, i32)> = Vec::new();
    for g in 0..args.games {
        let mut pending: HashMap<Seat, Vec<RackTile>> = HashMap::new();
        let robot = Strategy::Equity(heuristic);
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
fn play_match(variant: Variant, a: Strategy<'_>, b: Strategy<'_>, games: u64, seed: u64) -> MatchResult {
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
