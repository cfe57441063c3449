//! `wordgame graphs`: writes the word graphs compiled into this build as files, one per variant
//! (`<variant>.kwg`), for the Lambda lexicon layer (`LEXICON_DIR`). With `--time`, then loads each
//! back as a Lambda function does (`api::Config::lexicons`: mapped, fingerprint checked) and prints
//! the best time of 20 loads.

use std::path::PathBuf;

use engine::{TileVariant, builtin_graph};

use crate::CliError;

/// Arguments of `wordgame graphs`.
#[derive(clap::Args)]
pub struct Args {
    /// The directory to write into (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Then time loading each graph back the way a Lambda function does (release build).
    #[arg(long)]
    time: bool,
}

/// Writes the graphs and prints each file's size.
///
/// # Errors
/// [`CliError::Input`] if the directory or a file cannot be written.
pub fn run(args: &Args) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::Input(format!("{}: {e}", args.out.display()));
    std::fs::create_dir_all(&args.out).map_err(fail)?;
    for variant in TileVariant::ALL {
        let path = api::config::graph_path(&args.out, variant);
        let bytes = builtin_graph(variant).to_bytes();
        std::fs::write(&path, &bytes).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        println!("{}\t{}", path.display(), bytes.len());
    }
    if args.time {
        let dir = args.out.to_string_lossy().into_owned();
        let config = api::Config::from_vars(|name| match name {
            "DATABASE_URL" => Some("postgres://unused@127.0.0.1/unused".to_string()),
            "LEXICON_DIR" => Some(dir.clone()),
            _ => None,
        })
        .map_err(|e| CliError::Input(e.to_string()))?;
        for variant in TileVariant::ALL {
            let mut best = std::time::Duration::MAX;
            for _ in 0..20 {
                let lexicons = config.lexicons().map_err(|e| CliError::Input(e.to_string()))?;
                let started = std::time::Instant::now();
                std::hint::black_box(lexicons.get(variant).map_err(|e| CliError::Input(e.to_string()))?);
                best = best.min(started.elapsed());
            }
            println!("{variant}: ready in {:.3} ms (best of 20: mapped, fingerprint checked)", best.as_secs_f64() * 1e3);
        }
    }
    Ok(())
}
