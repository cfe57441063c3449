//! What a function's first request of each family pays on top of its init, in this build: a
//! tile game's word graph read from `LEXICON_DIR` and checked, or the chain's dictionary parsed.
//! `scripts/coldstart.py` runs it after timing the functions' init; prints one line per family.
//!
//!     LEXICON_DIR=target/lambda/lexicon-layer/lexicon cargo run --release -p api --example first_use

use std::time::Instant;

fn main() {
    let dir = std::env::var("LEXICON_DIR").expect("LEXICON_DIR names the directory `wordgame graphs --out` wrote");
    let config = api::Config::from_vars(|name| match name {
        "DATABASE_URL" => Some("postgres://nobody@127.0.0.1:1/none".to_string()),
        "LEXICON_DIR" => Some(dir.clone()),
        _ => None,
    })
    .expect("a configuration");
    let started = Instant::now();
    let lexicons = config.lexicons().expect("the graph files are there");
    lexicons.get(engine::TileVariant::ScrabbleEn).expect("the English graph reads and checks");
    println!("tile scrabble-en graph {:.2} ms", started.elapsed().as_secs_f64() * 1000.0);
    let started = Instant::now();
    let words = noitu::Dictionary::builtin().len();
    println!("chain noi-tu dictionary {:.1} ms ({words} words)", started.elapsed().as_secs_f64() * 1000.0);
}
