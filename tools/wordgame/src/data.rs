//! `wordgame data`: builds the engine's data files. `leaves` fits a variant's whole-leave table
//! from seeded self-play ([`wordgame::leaves`]), by default exactly as the shipped
//! `shared/engine/data/leaves/<variant>.lv` was made, so it rebuilds that file byte for byte (in a
//! release build: the English fit plays 300,000 games); `pack-leaves` packs a table of 12-byte
//! entries as the engine compiles it in.

use engine::TileVariant;
use wordgame::leaves::{LeaveFit, LeaveRecipe};

use crate::CliError;

/// Arguments of `wordgame data`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DataCommand,
}

#[derive(clap::Subcommand)]
enum DataCommand {
    /// Fits a variant's whole-leave table from seeded self-play and writes it.
    Leaves(LeavesArgs),
    /// Packs a whole-leave table of 12-byte entries as the engine compiles it in.
    PackLeaves(PackArgs),
}

/// Arguments of `wordgame data leaves`: the variant and the file; the budget and seeds default
/// to the shipped table's fit.
#[derive(clap::Args)]
struct LeavesArgs {
    /// The variant: scrabble-en (the rack census), scrabble-ru or erudit (next equity).
    #[arg(long)]
    variant: String,
    /// Where to write the table: packed when the path ends in `.lv`, else 12-byte entries.
    #[arg(long)]
    out: String,
    /// Self-play games per generation [default: the shipped fit's, 100,000 English, 20,000
    /// Russian].
    #[arg(long)]
    games: Option<u64>,
    /// Generations, each playing the table the last one fitted [default: 3 English, 1 Russian].
    #[arg(long)]
    generations: Option<u32>,
    /// The first game's seed [default: 2,000,001].
    #[arg(long)]
    seed: Option<u64>,
    /// Threads for the rack census's self-play; the table is the same on any count [default: 2].
    #[arg(long)]
    threads: Option<u64>,
}

/// Arguments of `wordgame data pack-leaves`.
#[derive(clap::Args)]
struct PackArgs {
    /// A whole-leave table: 12-byte entries in key order.
    from: String,
    /// Where to write it packed (what the engine compiles in from `data/leaves/<variant>.lv`).
    to: String,
}

/// Runs the data command.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant, a file that cannot be read or written, or no
/// table to pack.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.command {
        DataCommand::Leaves(args) => leaves(args),
        DataCommand::PackLeaves(args) => pack(args),
    }
}

fn leaves(args: &LeavesArgs) -> Result<(), CliError> {
    let variant: TileVariant = args.variant.parse()?;
    let mut fit = LeaveFit::shipped(variant);
    fit.games = args.games.unwrap_or(fit.games);
    fit.generations = args.generations.unwrap_or(fit.generations);
    fit.seed = args.seed.unwrap_or(fit.seed);
    if let (LeaveRecipe::Census { threads, .. }, Some(n)) = (&mut fit.recipe, args.threads) {
        *threads = n;
    }
    let entries = fit.run(variant);
    wordgame::leaves::write(&args.out, &entries)?;
    println!("{} leaves written to {}", entries.len(), args.out);
    Ok(())
}

fn pack(args: &PackArgs) -> Result<(), CliError> {
    let bytes = std::fs::read(&args.from).map_err(|e| CliError::Input(format!("{}: {e}", args.from)))?;
    let packed = engine::leave::pack(&bytes)
        .ok_or_else(|| CliError::Input(format!("{}: not a whole-leave table (12-byte entries in key order)", args.from)))?;
    std::fs::write(&args.to, &packed).map_err(|e| CliError::Input(format!("{}: {e}", args.to)))?;
    println!(
        "{} leaves, {} bytes packed into {} written to {}",
        bytes.len() / engine::leave::SUPERLEAVE_ENTRY,
        bytes.len(),
        packed.len(),
        args.to
    );
    Ok(())
}
