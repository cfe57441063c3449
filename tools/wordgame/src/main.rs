//! `wordgame`: the developer tool. `movegen` lists the plays of a position; `robot` the move a
//! robot level would play there; `bench` measures the move generator; `ladder` plays robots
//! against each other and `endgame-loss` measures what the hard level's endgame loses to its
//! budget; `positions` records benchmark positions from seeded self-play; `leaves` refines the
//! leave table from self-play; `serve` is the local gateway and `token` prints a development
//! token for it; `loadtest` measures submit-move through a running gateway; `chaos` crash-tests
//! a private gateway and PostgreSQL; `graphs` writes the word graphs for the Lambda lexicon
//! layer.

mod bench;
mod census;
mod cgp_file;
mod chaos;
mod cpu;
mod endgame_loss;
mod graphs;
mod ladder;
mod leaves;
mod loadtest;
mod movegen;
mod positions;
mod postgres;
mod proto;
mod robot;
mod selfplay;
mod serve;
mod superleaves;
mod token;

use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "wordgame", version, about = "Word game engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lists the legal plays of a position given in CGP.
    Movegen(movegen::Args),
    /// Prints the move a robot level would play in a position given in CGP.
    Robot(robot::Args),
    /// Measures the move generator over a file of CGP positions.
    Bench(bench::Args),
    /// Prints positions from seeded self-play, one CGP per line.
    Positions(positions::Args),
    /// Refines the leave table from self-play and measures equity against pure score.
    Leaves(leaves::Args),
    /// Serves every route locally, as API Gateway would, on 127.0.0.1:3000.
    Serve(serve::Args),
    /// Prints a development token for a demo account.
    Token(token::Args),
    /// Measures submit-move throughput and latency through a running gateway.
    Loadtest(loadtest::Args),
    /// Plays seeded robot-vs-robot games between the three levels and prints the ladder.
    Ladder(ladder::Args),
    /// Measures what the hard level's endgame loses to its time budget.
    EndgameLoss(endgame_loss::Args),
    /// Crash-tests a private gateway and PostgreSQL under load and checks what was acknowledged.
    Chaos(chaos::Args),
    /// Writes this build's word graphs as files, for the Lambda lexicon layer.
    Graphs(graphs::Args),
    /// Starts only a throwaway private PostgreSQL, prints its URL and runs until killed.
    Postgres(postgres::Args),
}

/// A failure the user can fix: printed as one line, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input was wrong.
    #[error("{0}")]
    Input(String),
}

/// When `main` started, for "ready from process start" figures.
pub static START: OnceLock<Instant> = OnceLock::new();

fn main() -> ExitCode {
    START.get_or_init(Instant::now);
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Movegen(args) => movegen::run(&args),
        Command::Robot(args) => robot::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Positions(args) => positions::run(&args),
        Command::Leaves(args) => leaves::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Token(args) => token::run(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::Ladder(args) => ladder::run(&args),
        Command::EndgameLoss(args) => endgame_loss::run(&args),
        Command::Graphs(args) => graphs::run(&args),
        Command::Chaos(args) => chaos::run(&args),
        Command::Postgres(args) => postgres::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wordgame: {e}");
            ExitCode::from(2)
        }
    }
}
