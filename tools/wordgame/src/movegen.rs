//! `wordgame movegen`: the legal plays of a CGP position, as text or JSON.

use std::io::Write;

use engine::cgp::CgpPosition;
use engine::lexicon::builtin_graph;
use engine::movegen::GeneratedPlay;
use engine::{LeaveTable, MoveGenerator, Rack, RackTile, Ranking, Rules, TileVariant, WordGraph};
use serde::Serialize;

use crate::CliError;

/// Arguments of `wordgame movegen`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant: scrabble-en, scrabble-ru or erudit (it picks the word list, not the CGP's lex).
    #[arg(long)]
    variant: String,
    /// The position, in CGP; the player to move holds the first rack.
    #[arg(long, conflicts_with = "cgp_file", required_unless_present = "cgp_file")]
    cgp: Option<String>,
    /// A file of CGP positions, one per line: prints one JSON object per line.
    #[arg(long)]
    cgp_file: Option<String>,
    /// How many plays to print.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Rank plays by score or by equity (score + leave value).
    #[arg(long, value_enum, default_value_t = By::Score)]
    by: By,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Use this word list (one word per line) instead of the variant's own.
    #[arg(long)]
    lexicon: Option<String>,
}

/// What to rank plays by.
#[derive(Clone, Copy, clap::ValueEnum)]
enum By {
    Score,
    Equity,
}

#[derive(Serialize)]
struct Listing {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    placements: usize,
    plays: Vec<PlayJson>,
}

#[derive(Serialize)]
struct PlayJson {
    coord: String,
    word: String,
    score: i32,
    /// Score + leave, in thousandths of a point.
    equity: i32,
    leave: String,
}

/// Runs the command.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant, a bad CGP or an unreadable word list.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let rules = variant.rules();
    let custom;
    let graph: &WordGraph = match &args.lexicon {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
            custom = WordGraph::compile(rules, &text).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
            &custom
        }
        None => builtin_graph(variant),
    };
    let generator = MoveGenerator::new(rules, graph);
    let leave = LeaveTable::heuristic(rules);
    let mut out = std::io::stdout().lock();
    if let Some(cgp) = &args.cgp {
        let listing = list(rules, &generator, &leave, cgp, args, None)?;
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&listing).expect("plain data serializes")).map_err(io)?;
        } else {
            print_text(&mut out, &listing).map_err(io)?;
        }
        return Ok(());
    }
    crate::cgp_file::each_line(args.cgp_file.as_deref().unwrap_or_default(), |line, n| {
        let listing = list(rules, &generator, &leave, line, args, Some(n))?;
        writeln!(out, "{}", serde_json::to_string(&listing).expect("plain data serializes")).map_err(io)
    })
}

fn io(e: std::io::Error) -> CliError {
    CliError::Input(format!("cannot write the output: {e}"))
}

fn list(
    rules: &Rules,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    cgp: &str,
    args: &Args,
    line: Option<usize>,
) -> Result<Listing, CliError> {
    let position = CgpPosition::parse(rules, cgp).map_err(|e| CliError::Input(format!("bad CGP: {e}")))?;
    let rack = position.racks[0];
    let mut plays = generator.all(&position.board, &rack);
    let ranking = match args.by {
        By::Score => Ranking::Score,
        By::Equity => Ranking::Equity(leave),
    };
    generator.rank(&rack, &mut plays, ranking);
    let shown = plays.iter().take(args.top).map(|p| describe(rules, leave, &rack, p)).collect();
    Ok(Listing { line, placements: plays.len(), plays: shown })
}

fn describe(rules: &Rules, leave: &LeaveTable, rack: &Rack, p: &GeneratedPlay) -> PlayJson {
    let left = p.leave(rack);
    PlayJson {
        coord: p.coordinate(),
        word: p.notation(rules),
        score: p.score,
        equity: p.score * 1000 + leave.value(&left),
        leave: left
            .tiles()
            .map(|t| match t {
                RackTile::Letter(l) => rules.char_of(l),
                RackTile::Blank => '?',
            })
            .collect(),
    }
}

fn print_text(out: &mut impl Write, listing: &Listing) -> std::io::Result<()> {
    writeln!(out, "{} plays", listing.placements)?;
    for (i, p) in listing.plays.iter().enumerate() {
        writeln!(out, "{:>3}. {:<4} {:<16} {:>4}  {:>9.3}  {}", i + 1, p.coord, p.word, p.score, f64::from(p.equity) / 1000.0, p.leave)?;
    }
    Ok(())
}
