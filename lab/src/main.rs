//! `lab`: the robot research, apart from the product. `ladder` plays prototypes of the hard level
//! (and hard built up from its parts) against the static players and the levels; `leaves` refines
//! the leave tables from self-play, fits whole leaves by the product's fits (`wordgame data
//! leaves` makes the engine's compiled tables) with research parameters and measures them;
//! `endgame-loss` measures what the hard level's endgame loses to its budget. The
//! notebook of what was measured is NOTEBOOK.md beside this crate.

mod endgame_loss;
mod ladder;
mod leaves;
mod proto;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "lab", version, about = "Robot research: prototypes, leave fitting, endgame studies")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays prototypes of hard, or hard's parts, against the static players or medium.
    Ladder(ladder::Args),
    /// Refines the leave table from self-play and measures equity against pure score.
    Leaves(leaves::Args),
    /// Measures what the hard level's endgame loses to its time budget.
    EndgameLoss(endgame_loss::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Ladder(args) => ladder::run(&args),
        Command::Leaves(args) => leaves::run(&args),
        Command::EndgameLoss(args) => endgame_loss::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lab: {e}");
            ExitCode::from(2)
        }
    }
}
