//! Writes the move-generator golden file for a variant: for each CGP line on stdin, the number
//! of legal tile-placement plays of the first rack and the best score, as found by the
//! brute-force enumerator (`engine::brute`) over the shipped word list, which shares nothing
//! with the GADDAG generator but the validator that scores each candidate.
//!
//! `cargo run --release -p engine --example golden -- scrabble-en < positions.cgp > golden.txt`
//! Output lines: `<plays> <best score> <CGP>`.

use std::io::BufRead;

use engine::brute::BruteForce;
use engine::cgp::CgpPosition;
use engine::{TileVariant, WordList};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let variant: TileVariant = std::env::args().nth(1).unwrap_or_else(|| "scrabble-en".into()).parse()?;
    let rules = variant.rules();
    let words = WordList::builtin(variant)?;
    let brute = BruteForce::new(&words);
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let position = CgpPosition::parse(rules, &line)?;
        let plays = brute.plays(rules, &position.board, &position.racks[0]);
        let best = plays.iter().map(|p| p.score.total).max().unwrap_or(0);
        println!("{} {} {}", plays.len(), best, line.trim());
    }
    Ok(())
}
