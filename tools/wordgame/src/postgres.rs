//! `wordgame postgres`: only the private PostgreSQL, for scripts that run the functions
//! themselves (`scripts/e2e-lambda.sh`). It starts a throwaway server with an empty database
//! `wordgame`, prints the owner's URL on one line and runs until it is killed; its watchdog then
//! stops the server and deletes the data.

use store::local::{LocalPostgres, StartOptions};

use crate::CliError;
use crate::serve::ensure_database;

/// Arguments of `wordgame postgres`.
#[derive(clap::Args)]
pub struct Args {
    /// Where the throwaway server keeps its data (deleted when this command ends).
    #[arg(long)]
    data_dir: String,
}

/// Starts the server, prints its URL and waits until killed.
///
/// # Errors
/// [`CliError::Input`] when the server cannot start or the database cannot be created.
pub fn run(args: &Args) -> Result<(), CliError> {
    let pg = LocalPostgres::start_with(std::path::Path::new(&args.data_dir), StartOptions::THROWAWAY)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| CliError::Input(e.to_string()))?;
    runtime.block_on(ensure_database(&pg))?;
    println!("{}", pg.url("wordgame"));
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
