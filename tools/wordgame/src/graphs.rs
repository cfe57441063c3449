//! `wordgame graphs`: writes the word graphs compiled into this build as files, one per variant
//! (`<variant>.kwg`), for the Lambda lexicon layer (`LEXICON_DIR`).

use std::path::PathBuf;

use engine::{Variant, builtin_graph};

use crate::CliError;

/// Arguments of `wordgame graphs`.
#[derive(clap::Args)]
pub struct Args {
    /// The directory to write into (created if missing).
    #[arg(long)]
    out: PathBuf,
}

/// Writes the graphs and prints each file's size.
///
/// # Errors
/// [`CliError::Input`] if the directory or a file cannot be written.
pub fn run(args: &Args) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::Input(format!("{}: {e}", args.out.display()));
    std::fs::create_dir_all(&args.out).map_err(fail)?;
    for variant in Variant::ALL {
        let path = api::config::graph_path(&args.out, variant);
        let bytes = builtin_graph(variant).to_bytes();
        std::fs::write(&path, &bytes).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        println!("{}\t{}", path.display(), bytes.len());
    }
    Ok(())
}
