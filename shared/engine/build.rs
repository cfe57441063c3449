//! Compiles each committed word list into its word graph (DAWG + GADDAG, see the `wordgraph`
//! crate) in OUT_DIR, with the letter indices of `src/tables.rs`; the engine embeds the result.

use std::io::Read;
use std::path::PathBuf;

include!("src/tables.rs");

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=src/tables.rs");
    let mut fingerprints = String::new();
    for (id, letters, folds) in [
        ("scrabble-en", SCRABBLE_EN_LETTERS, &[][..]),
        ("scrabble-ru", SCRABBLE_RU_LETTERS, &[][..]),
        ("erudit", ERUDIT_LETTERS, ERUDIT_FOLDS),
    ] {
        let path = format!("data/{id}.txt.gz");
        println!("cargo:rerun-if-changed={path}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let words: Vec<Vec<u8>> =
            text.lines().map(|line| encode(line, letters, folds).unwrap_or_else(|| panic!("{path}: {line:?}"))).collect();
        let nodes = wordgraph::build(&words).unwrap_or_else(|e| panic!("{path}: {e}"));
        std::fs::write(out.join(format!("{id}.kwg")), wordgraph::to_bytes(&nodes)).expect("OUT_DIR is writable");
        let name = id.replace('-', "_").to_uppercase();
        fingerprints.push_str(&format!(
            "/// Fingerprint of the {id} graph this build compiled.\nconst {name}_FINGERPRINT: u64 = {:#018x};\n",
            wordgraph::fingerprint(&nodes)
        ));
    }
    std::fs::write(out.join("fingerprints.rs"), fingerprints).expect("OUT_DIR is writable");
}

/// Tile codes (alphabet index + 1) of a word, or `None` for a letter outside the alphabet.
fn encode(word: &str, letters: &[(char, u8, u8)], folds: &[(char, char)]) -> Option<Vec<u8>> {
    word.chars()
        .map(|c| {
            let up = c.to_uppercase().next()?;
            let up = folds.iter().find(|(from, _)| *from == up).map_or(up, |&(_, to)| to);
            letters.iter().position(|&(l, _, _)| l == up).map(|i| i as u8 + 1)
        })
        .collect()
}
