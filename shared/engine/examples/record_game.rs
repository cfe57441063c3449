//! Records a complete self-play game as JSON (`{"setup":…,"journal":[…]}`) on stdout: each seat
//! plays its best-scoring play found by the brute-force enumerator over the shipped word list,
//! or exchanges/passes when it has none.
//!
//! `cargo run --release -p engine --example record_game -- scrabble-en 2 SEED > game.json`

use engine::brute::BruteForce;
use engine::{TileMove, TileVariant, Timestamp, WordList};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let variant: TileVariant = args.next().unwrap_or_else(|| "scrabble-en".into()).parse()?;
    let seats: usize = args.next().unwrap_or_else(|| "2".into()).parse()?;
    let seed: u64 = args.next().unwrap_or_else(|| "1".into()).parse()?;
    let words = WordList::builtin(variant)?;
    let brute = BruteForce::new(&words);
    let mut game = engine::Game::new(variant, seats, seed)?;
    let rules = variant.rules();
    while !game.is_over() {
        let seat = game.to_move();
        let plays = brute.plays(rules, game.board(), game.rack(seat));
        let mv = match plays.iter().max_by_key(|p| p.score.total) {
            Some(best) => TileMove::play(rules, &best.placements),
            None if rules.exchange_allowed(rules.rack_size, game.bag().len()) => TileMove::exchange(rules, game.rack(seat)),
            None => TileMove::Pass,
        };
        game.play(&words, seat, &mv, Timestamp(0))?;
    }
    let out = serde_json::json!({ "setup": game.setup(), "journal": game.journal() });
    println!("{}", serde_json::to_string_pretty(&out)?);
    eprintln!("{} moves, scores {:?}, end {:?}", game.move_count(), game.scores(), game.end().map(|e| e.reason));
    Ok(())
}
