//! `wordgame bench`: CPU time of the move generator over a file of CGP positions, the time to a
//! usable word graph and leave table, and the resident memory of a process holding all three graphs.
//!
//! Build with `--release`. Each position runs `--repeat` times per mode; its time is the median
//! of those runs, measured as this thread's CPU time.
//! Top-1 by score and by equity are also reported for racks with and without a blank, with what
//! their search did (anchors, searches, graph visits, candidate plays), and checked against the
//! best of all plays sorted on every position.

use std::time::{Duration, Instant};

use engine::cgp::CgpPosition;
use engine::lexicon::{Lexicon, builtin_graph};
use engine::{LeaveTable, MoveGenerator, Ranking, SearchCounts, TileVariant};

use crate::CliError;
use crate::cpu::{resident_kib, thread_time};

/// Arguments of `wordgame bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant of the positions.
    #[arg(long)]
    variant: String,
    /// A file of CGP positions, one per line.
    #[arg(long)]
    positions: String,
    /// Runs per position and mode; the median counts.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
}

/// Runs the benchmark and prints its figures.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant, an unreadable or invalid positions file, or a
/// top-1 play that is not the best of all plays sorted.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let rules = variant.rules();
    let ready = {
        let graph = builtin_graph(variant);
        let probe = rules.alphabet().take(2).collect::<Vec<_>>();
        std::hint::black_box(graph.contains(&probe));
        crate::START.get().map(Instant::elapsed)
    };
    let text = std::fs::read_to_string(&args.positions).map_err(|e| CliError::Input(format!("{}: {e}", args.positions)))?;
    let positions = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| CgpPosition::parse(rules, l).map_err(|e| CliError::Input(format!("{}:{}: {e}", args.positions, i + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    let generator = MoveGenerator::new(rules, builtin_graph(variant));
    // The leaves hints and robots use (the fitted whole-leave table where the variant has one),
    // timed at its first use: unpacking the compiled-in table and indexing it.
    let unpacking = thread_time();
    let leave = LeaveTable::standard(rules);
    let unpacked = thread_time().saturating_sub(unpacking);
    let blanks = positions.iter().filter(|p| p.racks[0].blanks() > 0).count();

    println!("machine: {}, 1 thread", cpu_model());
    if let Some(ready) = ready {
        println!("word graph ready: {} µs from process start ({variant}, first lookup included)", ready.as_micros());
    }
    println!(
        "leave table ready: {} µs of CPU at first use ({} whole leaves unpacked and indexed)",
        unpacked.as_micros(),
        leave.superleaves().map_or(0, engine::leave::SuperLeaves::len)
    );
    println!(
        "positions: {} ({} with a blank on the rack, {:.1}%)",
        positions.len(),
        blanks,
        100.0 * blanks as f64 / positions.len().max(1) as f64
    );
    let mut plays = 0usize;
    let all = measure(&positions, args.repeat, |p| generator.all(&p.board, &p.racks[0]).len());
    let mut visits = Vec::with_capacity(positions.len());
    for p in &positions {
        let (found, v) = generator.all_counted(&p.board, &p.racks[0]);
        plays += found.len();
        visits.push(v);
    }
    let total: Duration = all.iter().sum();
    report("all plays with scores", &all);
    println!("  {plays} plays, {:.0} plays/s", plays as f64 / total.as_secs_f64());
    visits.sort_unstable();
    println!(
        "  graph visits per position: mean {:.0}, median {}, p90 {} ({:.2} visits per play)",
        visits.iter().sum::<u64>() as f64 / visits.len().max(1) as f64,
        visits.get(visits.len() / 2).copied().unwrap_or(0),
        visits.get(visits.len() * 9 / 10).copied().unwrap_or(0),
        visits.iter().sum::<u64>() as f64 / plays.max(1) as f64
    );
    let with_blank: Vec<Duration> = positions.iter().zip(&all).filter(|(p, _)| p.racks[0].blanks() > 0).map(|(_, d)| *d).collect();
    report("  of which racks with a blank", &with_blank);
    let rankings = [("top-1 by score", Ranking::Score), ("top-1 by equity", Ranking::Equity(&leave))];
    for (label, ranking) in rankings {
        let times = measure(&positions, args.repeat, |p| generator.top(&p.board, &p.racks[0], 1, ranking).len());
        report(label, &times);
        let (with, without): (Vec<_>, Vec<_>) = positions.iter().zip(&times).partition(|(p, _)| p.racks[0].blanks() > 0);
        report("  racks with a blank", &with.iter().map(|(_, d)| **d).collect::<Vec<_>>());
        report("  racks without", &without.iter().map(|(_, d)| **d).collect::<Vec<_>>());
        for (part, blank) in [("with a blank", true), ("without", false)] {
            let counts: Vec<SearchCounts> = positions
                .iter()
                .filter(|p| (p.racks[0].blanks() > 0) == blank)
                .map(|p| generator.top_counted(&p.board, &p.racks[0], 1, ranking).1)
                .collect();
            if counts.is_empty() {
                continue;
            }
            let mean = |f: fn(&SearchCounts) -> u64| counts.iter().map(f).sum::<u64>() as f64 / counts.len() as f64;
            println!(
                "  per position, racks {part}: {:.1} anchors, {:.1} searches, {:.0} graph visits, {:.0} candidate plays",
                mean(|c| c.anchors),
                mean(|c| c.searched),
                mean(|c| c.visits),
                mean(|c| c.candidates)
            );
        }
    }
    let mut touched = 0u64;
    for v in TileVariant::ALL {
        let g = builtin_graph(v).graph();
        touched = (0..g.len() as u32).fold(touched, |acc, i| acc.wrapping_add(u64::from(g.node(i).0)));
    }
    std::hint::black_box(touched);
    if let Some((peak, now)) = resident_kib() {
        println!(
            "memory with all three word graphs loaded and touched: {:.1} MiB resident (peak {:.1} MiB)",
            now as f64 / 1024.0,
            peak as f64 / 1024.0
        );
    }
    // The pruned search must pick what sorting every play picks, on every position.
    for (label, ranking) in rankings {
        for (i, p) in positions.iter().enumerate() {
            let mut all = generator.all(&p.board, &p.racks[0]);
            generator.rank(&p.racks[0], &mut all, ranking);
            let top = generator.top(&p.board, &p.racks[0], 1, ranking);
            if top.first() != all.first() {
                return Err(CliError::Input(format!("{}:{}: the {label} differs from the best of all plays", args.positions, i + 1)));
            }
        }
    }
    println!("top-1 by score and by equity equal the best of all plays sorted, on all {} positions", positions.len());
    Ok(())
}

/// Per position, the median CPU time of `repeat` runs of `f`.
fn measure(positions: &[CgpPosition], repeat: usize, mut f: impl FnMut(&CgpPosition) -> usize) -> Vec<Duration> {
    positions
        .iter()
        .map(|p| {
            let mut runs: Vec<Duration> = (0..repeat.max(1))
                .map(|_| {
                    let t0 = thread_time();
                    std::hint::black_box(f(p));
                    thread_time() - t0
                })
                .collect();
            runs.sort();
            runs[runs.len() / 2]
        })
        .collect()
}

fn report(label: &str, times: &[Duration]) {
    if times.is_empty() {
        return;
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let mean = times.iter().sum::<Duration>().as_secs_f64() / times.len() as f64;
    let median = sorted[sorted.len() / 2].as_secs_f64();
    let p90 = sorted[sorted.len() * 9 / 10].as_secs_f64();
    println!("{label}: mean {:.0} µs, median {:.0} µs, p90 {:.0} µs (n = {})", mean * 1e6, median * 1e6, p90 * 1e6, times.len());
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|m| m.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".to_string())
}
