//! Golden files: for 100 self-play positions per variant, the number of legal plays and the best
//! score, as found by the brute-force enumerator (`examples/golden.rs`); the GADDAG generator
//! must agree exactly.

use engine::cgp::CgpPosition;
use engine::lexicon::builtin_graph;
use engine::{MoveGenerator, TileVariant};

fn check(variant: TileVariant, golden: &str) {
    let rules = variant.rules();
    let generator = MoveGenerator::new(rules, builtin_graph(variant));
    let mut lines = 0;
    for (i, line) in golden.lines().enumerate() {
        let mut fields = line.splitn(3, ' ');
        let count: usize = fields.next().unwrap().parse().unwrap();
        let best: i32 = fields.next().unwrap().parse().unwrap();
        let position = CgpPosition::parse(rules, fields.next().unwrap()).unwrap();
        let plays = generator.all(&position.board, &position.racks[0]);
        let got_best = plays.iter().map(|p| p.score).max().unwrap_or(0);
        assert_eq!((plays.len(), got_best), (count, best), "{variant} line {}", i + 1);
        lines += 1;
    }
    assert!(lines >= 100, "{variant}: only {lines} golden positions");
}

#[test]
fn english_plays_match_the_golden_file() {
    check(TileVariant::ScrabbleEn, include_str!("data/golden-en.txt"));
}

#[test]
fn russian_plays_match_the_golden_file() {
    check(TileVariant::ScrabbleRu, include_str!("data/golden-ru.txt"));
}

#[test]
fn erudit_plays_match_the_golden_file() {
    check(TileVariant::Erudit, include_str!("data/golden-erudit.txt"));
}
