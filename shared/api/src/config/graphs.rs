//! The word graphs as files (`LEXICON_DIR`): each mapped into memory and checked against this
//! build on first use.

use std::path::{Path, PathBuf};

use engine::{LexiconError, Lexicons, TileVariant, WordGraph};

use super::env::{Config, ConfigError};

impl Config {
    /// The word graphs as files in [`Config::lexicon_dir`], each read and checked against this
    /// build on first use. Checks now that every file is there.
    ///
    /// # Errors
    /// [`ConfigError::Lexicons`] if `LEXICON_DIR` is unset or a file is missing.
    pub fn lexicons(&self) -> Result<Lexicons, ConfigError> {
        let dir = self.lexicon_dir.clone().ok_or_else(|| ConfigError::Lexicons("LEXICON_DIR is not set".into()))?;
        for variant in TileVariant::ALL {
            let path = graph_path(&dir, variant);
            std::fs::metadata(&path).map_err(|e| ConfigError::Lexicons(format!("{}: {e}", path.display())))?;
        }
        Ok(Lexicons::with_loader(move |variant| {
            let path = graph_path(&dir, variant);
            let unreadable = |e: std::io::Error| LexiconError::Unreadable { variant, reason: format!("{}: {e}", path.display()) };
            #[cfg(unix)]
            return {
                let bytes = mapped(&path).map_err(unreadable)?;
                WordGraph::from_static_bytes(variant, bytes).inspect_err(|_| unmap(bytes))
            };
            #[cfg(not(unix))]
            return WordGraph::from_nodes(variant, read_nodes(&path).map_err(unreadable)?);
        }))
    }
}

/// The file at `path`, mapped read-only into memory: a graph is then read in place, its pages
/// shared with the page cache, nothing copied. The mapping is never undone unless
/// [`unmap`]ped: a graph read from it lives as long as the process (a function's graphs do; a
/// layer's files never change while it runs).
#[cfg(unix)]
fn mapped(path: &Path) -> std::io::Result<&'static [u8]> {
    use std::os::fd::AsRawFd;

    let file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
    if len == 0 {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "empty file"));
    }
    // SAFETY: a fresh read-only private mapping of the `len` bytes of an open file (which may
    // be closed once mapped). The slice stays valid until `unmap`, which is called only on a
    // slice nothing borrows any more; nothing writes to it (PROT_READ).
    #[allow(unsafe_code)]
    unsafe {
        let ptr = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0);
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(std::slice::from_raw_parts(ptr.cast::<u8>(), len))
    }
}

/// Undoes [`mapped`]: for bytes whose graph was refused, so nothing borrows them.
#[cfg(unix)]
fn unmap(bytes: &'static [u8]) {
    // SAFETY: `bytes` is a whole mapping made by `mapped`, and its one borrower (the refused
    // graph) is gone.
    #[allow(unsafe_code)]
    unsafe {
        libc::munmap(bytes.as_ptr().cast_mut().cast(), bytes.len());
    }
}

/// The graph file's little-endian nodes, read in one pass through a small buffer straight into
/// the nodes (no copy of the whole file), for [`WordGraph::from_nodes`] to check: where no
/// memory map is had.
#[cfg(not(unix))]
fn read_nodes(path: &Path) -> std::io::Result<Vec<u32>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
    if !len.is_multiple_of(4) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{len} bytes is not a whole number of nodes")));
    }
    let mut nodes = Vec::with_capacity(len / 4);
    let mut buf = vec![0u8; 1 << 16];
    let mut left = len;
    while left > 0 {
        let n = left.min(buf.len());
        file.read_exact(&mut buf[..n])?;
        nodes.extend(buf[..n].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        left -= n;
    }
    Ok(nodes)
}

/// The file holding the word graph of `variant` in `dir`: `<variant id>.kwg`.
pub fn graph_path(dir: &Path, variant: TileVariant) -> PathBuf {
    dir.join(format!("{}.kwg", variant.id()))
}

#[cfg(test)]
mod tests {
    use super::super::env::vars;
    use super::*;

    #[test]
    fn word_graph_files_are_found_checked_and_loaded() {
        let dir = std::env::temp_dir().join(format!("wordgame-lexicons-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config =
            |dir: &Path| Config::from_vars(vars(&[("DATABASE_URL", "postgres://x"), ("LEXICON_DIR", dir.to_str().unwrap())])).unwrap();

        let unset = Config::from_vars(vars(&[("DATABASE_URL", "postgres://x")])).unwrap();
        assert!(matches!(unset.lexicons(), Err(ConfigError::Lexicons(m)) if m.contains("LEXICON_DIR")));
        assert!(matches!(config(&dir).lexicons(), Err(ConfigError::Lexicons(m)) if m.contains("scrabble-en.kwg")));

        for variant in TileVariant::ALL {
            std::fs::write(graph_path(&dir, variant), engine::builtin_graph(variant).to_bytes()).unwrap();
        }
        let lexicons = config(&dir).lexicons().unwrap();
        lexicons.load_all().unwrap();
        let word = engine::lexicon::encode(TileVariant::Erudit.rules(), "ЁЖ").unwrap();
        assert!(engine::Lexicon::contains(lexicons.get(TileVariant::Erudit).unwrap(), &word));

        // A graph swapped for another variant's is refused when it is read, naming the variant.
        std::fs::copy(graph_path(&dir, TileVariant::ScrabbleRu), graph_path(&dir, TileVariant::Erudit)).unwrap();
        let err = config(&dir).lexicons().unwrap().load_all().unwrap_err();
        assert!(matches!(err, LexiconError::WrongGraph { variant: TileVariant::Erudit, .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
