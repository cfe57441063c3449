//! How much of an everyday-word list each built-in edition knows, and how much of it as familiar
//! words: `cargo run --release -p noitu --example coverage -- lab/data/everyday-vi.txt`. Lines
//! starting with `#` and blank lines are skipped; a one-syllable entry is not a word of the game.

use noitu::{Dictionary, WordListEdition, normalize};

fn main() {
    let path = std::env::args().nth(1).expect("usage: coverage FILE");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let words: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    println!("{path}: {} entries", words.len());
    for list in [WordListEdition::Pyvi, WordListEdition::Everyday, WordListEdition::Everyday3] {
        let dict = Dictionary::of(list);
        let found: Vec<Option<noitu::WordId>> = words.iter().map(|w| normalize(w).ok().and_then(|k| dict.find(&k))).collect();
        let known = found.iter().flatten().count();
        let familiar = found.iter().flatten().filter(|&&w| dict.is_familiar(w)).count();
        let missing: Vec<&str> = words.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(w, _)| *w).collect();
        let pct = |n: usize| 100.0 * n as f64 / words.len().max(1) as f64;
        println!(
            "{list:?}: known {known} ({:.1}%), familiar {familiar} ({:.1}%); missing: {}",
            pct(known),
            pct(familiar),
            missing.join(", ")
        );
    }
}
