//! `wordgame robot`: the move a robot level would play in a CGP position, the same decision the
//! service's robot makes there (the same robot, seed and a wall-clock budget, 40 ms by default
//! as in the service), so that an outside referee can play our levels against another engine.
//!
//! The CGP's first rack is the player to move; the second, when given, the opponent's (else it
//! is dealt from the unseen tiles by the seed, the rest being the bag); its zero-turn count is
//! the consecutive scoreless turns so far.

use std::io::Write;
use std::time::{Duration, Instant};

use engine::cgp::CgpPosition;
use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, seeded};
use engine::{Game, TileInput, TileMove, TileVariant};
use serde::Serialize;
use service::robot::Budget;

use crate::CliError;

/// Arguments of `wordgame robot`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant: scrabble-en, scrabble-ru or erudit.
    #[arg(long)]
    variant: String,
    /// The level: easy, medium or hard.
    #[arg(long)]
    level: String,
    /// The position, in CGP; the player to move holds the first rack.
    #[arg(long, conflicts_with = "cgp_file", required_unless_present = "cgp_file")]
    cgp: Option<String>,
    /// A file of CGP positions, one per line: prints one answer per line.
    #[arg(long)]
    cgp_file: Option<String>,
    /// The robot's seed (its random choices, and the deal of a rack the CGP leaves out).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The hard level's wall-clock budget per decision, in milliseconds (the service's: 40).
    #[arg(long, default_value_t = 40)]
    budget_ms: u64,
    /// Instead of a wall-clock budget, a fixed number of simulation rounds (repeatable).
    #[arg(long, conflicts_with = "budget_ms")]
    rounds: Option<u32>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// One answer.
#[derive(Serialize)]
struct Answer {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    level: &'static str,
    /// `play`, `exchange` or `pass`.
    kind: &'static str,
    /// A play's GCG coordinate ("8D" across, "D8" down).
    #[serde(skip_serializing_if = "Option::is_none")]
    coord: Option<String>,
    /// A play's main word (`.` for tiles on the board, lower case for blanks), or the tiles
    /// exchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    word: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i32>,
    /// Tiles left in the bag before the move.
    bag: usize,
    thinking_ms: u32,
    /// The wall time of the decision.
    elapsed_ms: f64,
}

/// Runs the command.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant or level, a bad CGP or an unreadable file.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let level = Level::ALL
        .into_iter()
        .find(|l| l.id() == args.level)
        .ok_or_else(|| CliError::Input(format!("unknown level {:?} (expected easy, medium or hard)", args.level)))?;
    let mut out = std::io::stdout().lock();
    if let Some(cgp) = &args.cgp {
        let answer = decide(variant, level, cgp, args, None)?;
        return print(&mut out, &answer, args.json).map_err(io);
    }
    crate::cgp_file::each_line(args.cgp_file.as_deref().unwrap_or_default(), |line, n| {
        let answer = decide(variant, level, line, args, Some(n))?;
        print(&mut out, &answer, args.json).map_err(io)
    })
}

fn io(e: std::io::Error) -> CliError {
    CliError::Input(format!("cannot write the output: {e}"))
}

/// The level's decision in one position.
fn decide(variant: TileVariant, level: Level, cgp: &str, args: &Args, line: Option<usize>) -> Result<Answer, CliError> {
    let rules = variant.rules();
    let position = CgpPosition::parse(rules, cgp).map_err(|e| CliError::Input(format!("bad CGP: {e}")))?;
    if position.racks[0].is_empty() {
        return Err(CliError::Input("bad CGP: the player to move has an empty rack".into()));
    }
    let game = Game::from_position(variant, &position, args.seed).map_err(|e| CliError::Input(format!("bad CGP: {e}")))?;
    let graph = builtin_graph(variant);
    let robot = LevelRobot::new(level, &game, graph);
    let started = Instant::now();
    let mut budget = match args.rounds {
        Some(rounds) => Budget::Counted { rounds, nodes: u64::MAX },
        None => Budget::Until(started + Duration::from_millis(args.budget_ms)),
    };
    let decision = robot.decide(&RobotView::new(&game), &mut seeded(args.seed), &mut budget);
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (kind, coord, word, score) = match (&decision.mv, decision.play) {
        (TileMove::Play { .. }, Some(p)) => ("play", Some(p.coordinate()), Some(p.notation(rules)), Some(p.score)),
        (TileMove::Exchange { tiles }, _) => ("exchange", None, Some(tiles_text(tiles)), None),
        _ => ("pass", None, None, None),
    };
    Ok(Answer { line, level: level.id(), kind, coord, word, score, bag: game.bag().len(), thinking_ms: decision.thinking_ms, elapsed_ms })
}

fn tiles_text(tiles: &[TileInput]) -> String {
    tiles
        .iter()
        .map(|t| match t {
            TileInput::Letter(c) => *c,
            TileInput::Blank => '?',
        })
        .collect()
}

fn print(out: &mut impl Write, answer: &Answer, json: bool) -> std::io::Result<()> {
    if json {
        return writeln!(out, "{}", serde_json::to_string(answer).expect("plain data serializes"));
    }
    match answer.kind {
        "play" => writeln!(
            out,
            "{} {} {}",
            answer.coord.as_deref().unwrap_or_default(),
            answer.word.as_deref().unwrap_or_default(),
            answer.score.unwrap_or_default()
        ),
        "exchange" => writeln!(out, "exchange {}", answer.word.as_deref().unwrap_or_default()),
        _ => writeln!(out, "pass"),
    }
}
