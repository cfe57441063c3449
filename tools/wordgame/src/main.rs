//! `wordgame`: the developer and operator tool. `movegen` lists the plays of a position; `robot`
//! the move a robot level would play there; `bench` measures the move generator; `ladder` plays
//! robots against each other; `positions` records benchmark positions from seeded self-play;
//! `serve` is the local gateway and `token` prints a development token for it; `loadtest`
//! measures submit-move through a running gateway; `chaos` crash-tests a private gateway and
//! PostgreSQL; `graphs` writes the word graphs for the Lambda lexicon layer; `data` builds the
//! engine's whole-leave tables. The robot research lives apart, in the `lab` crate.

mod analyse;
mod bench;
mod cgp_file;
mod chaos;
mod cpu;
mod data;
mod dev_accounts;
mod graphs;
mod loadtest;
mod movegen;
mod positions;
mod postgres;
mod robot;
mod routes;
mod serve;
mod token;

use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use clap::{Parser, Subcommand};
use wordgame::{CliError, ladder, selfplay};

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
    /// Measures what the post-game analysis of seeded self-play games costs.
    Analyse(analyse::Args),
    /// Prints positions from seeded self-play, one CGP per line.
    Positions(positions::Args),
    /// Serves every route locally, as API Gateway would, on 127.0.0.1:3000.
    Serve(serve::Args),
    /// Prints a development token for a demo account.
    Token(token::Args),
    /// Measures submit-move throughput and latency through a running gateway.
    Loadtest(loadtest::Args),
    /// Plays seeded robot-vs-robot games between the three levels and prints the ladder.
    Ladder(ladder::Args),
    /// Crash-tests a private gateway and PostgreSQL under load and checks what was acknowledged.
    Chaos(chaos::Args),
    /// Writes this build's word graphs as files, for the Lambda lexicon layer.
    Graphs(graphs::Args),
    /// Builds the engine's data files: the whole-leave tables.
    Data(data::Args),
    /// Starts only a throwaway private PostgreSQL, prints its URL and runs until killed.
    Postgres(postgres::Args),
    /// Prints (or checks) what is derived from the route table: the template's functions, the
    /// API document's paths, the README's route table.
    Routes(routes::Args),
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
        Command::Analyse(args) => analyse::run(&args),
        Command::Positions(args) => positions::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Token(args) => token::run(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::Ladder(args) => ladder::run(&args),
        Command::Graphs(args) => graphs::run(&args),
        Command::Data(args) => data::run(&args),
        Command::Chaos(args) => chaos::run(&args),
        Command::Postgres(args) => postgres::run(&args),
        Command::Routes(args) => routes::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wordgame: {e}");
            ExitCode::from(if matches!(e, CliError::Check(_)) { 1 } else { 2 })
        }
    }
}
