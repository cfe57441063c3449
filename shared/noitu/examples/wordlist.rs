//! The built-in word list measured: its counts, how long parsing it takes, and how many words of
//! a list of your own it knows.
//!
//! ```sh
//! cargo run --release -p noitu --example wordlist            # counts and parse time
//! cargo run --release -p noitu --example wordlist -- FILE    # and the coverage of FILE
//! WORD_LIST=pyvi cargo run --release -p noitu --example wordlist  # the list of older games
//! ```
//!
//! FILE holds one word a line (any spelling the game accepts); the words it does not know are
//! printed. Parse time is the median of 15 parses of the compiled gzip, from the bytes to the
//! graph and the familiarity scores (what `Dictionary::of` does once per process and list).

use std::io::Read;
use std::time::Instant;

use noitu::{Dictionary, WordListEdition, normalize};

fn gunzip(gz: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz).read_to_string(&mut text).expect("valid gzip");
    text
}

/// What `Dictionary::of` does: the list, then its familiarity scores if it has them.
fn parse(list: WordListEdition) -> Dictionary {
    let text = gunzip(list.gzip());
    let dict = Dictionary::from_words(text.lines()).expect("the list spells");
    match list.familiarity_gzip() {
        Some(gz) => {
            let scores = gunzip(gz);
            dict.with_familiarity(text.lines().zip(scores.lines().map(|l| l.parse::<u8>().expect("a digit")))).expect("scores")
        }
        None => dict,
    }
}

fn main() {
    let list = match std::env::var("WORD_LIST").as_deref() {
        Ok("pyvi") => WordListEdition::Pyvi,
        _ => WordListEdition::CURRENT,
    };
    let gz = list.gzip();
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            let d = parse(list);
            std::hint::black_box(&d);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let dict = Dictionary::of(list);
    println!("word list: {list:?}");
    let s = dict.stats();
    println!("gzip: {} bytes, familiarity {} bytes", gz.len(), list.familiarity_gzip().map_or(0, <[u8]>::len));
    println!("parse: median {:.1} ms (min {:.1}, max {:.1})", times[7], times[0], times[14]);
    println!(
        "words: {} ({} of two syllables, {} of three, {} of four, {} longer); syllables {}; dead ends {}; \
         syllables beginning 10+ words {}; links {}",
        s.words,
        s.by_syllables[0],
        s.by_syllables[1],
        s.by_syllables[2],
        s.by_syllables[3],
        s.syllables,
        s.dead_ends,
        s.out_degree_10,
        s.links
    );
    let options = noitu::Options { word_list: list, ..noitu::Options::default() };
    let openings = noitu::setup::eligible_openings(&options, dict);
    let mut ends: Vec<_> = openings.iter().map(|&w| dict.last(w)).collect();
    ends.sort_unstable();
    ends.dedup();
    println!("openings drawn from: {} words ending in {} syllables", openings.len(), ends.len());
    if let Some(path) = std::env::args().nth(1) {
        let list = std::fs::read_to_string(&path).expect("readable list");
        let words: Vec<&str> = list.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let missing: Vec<&str> = words.iter().copied().filter(|w| normalize(w).ok().and_then(|n| dict.lookup(&n)).is_none()).collect();
        let known = words.len() - missing.len();
        println!("{path}: {known} of {} known ({:.1}%)", words.len(), 100.0 * known as f64 / words.len() as f64);
        for w in missing {
            println!("  missing: {w}");
        }
    }
}
