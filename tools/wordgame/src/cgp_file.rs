//! A file of CGP positions, one per line, as `movegen` and `robot` read it.

use std::io::BufRead;

use crate::CliError;

/// Calls `answer` with each non-blank line of the file at `path` and its 1-based number; an
/// error names the file and line.
///
/// # Errors
/// [`CliError::Input`] for an unreadable file, or `answer`'s error with the line prefixed.
pub fn each_line(path: &str, mut answer: impl FnMut(&str, usize) -> Result<(), CliError>) -> Result<(), CliError> {
    let file = std::fs::File::open(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| CliError::Input(format!("{path}: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        answer(&line, i + 1).map_err(|e| CliError::Input(format!("{path}:{}: {e}", i + 1)))?;
    }
    Ok(())
}
