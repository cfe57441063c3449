//! Hand-computed scores across the three variants.

use crate::common::{board, placements};
use engine::play::evaluate;
use engine::{Board, Direction::*, Rack, TileVariant};

fn score(variant: TileVariant, board: &Board, start: &str, dir: engine::Direction, word: &str) -> engine::ScoreBreakdown {
    let rules = variant.rules();
    let placed = placements(rules, start, dir, word);
    let rack = Rack::from_tiles(placed.iter().map(|p| p.tile.rack_tile()));
    evaluate(rules, board, &rack, None, &placed).unwrap().score
}

#[test]
fn an_opening_word_doubles_on_the_centre_star() {
    // C3 A1 T1 = 5, H8 double word.
    let s = score(TileVariant::ScrabbleEn, &Board::new(), "H8", Across, "CAT");
    assert_eq!(s.total, 10);
    assert_eq!(s.words.len(), 1);
    assert_eq!(s.words[0].word, "CAT");
}

#[test]
fn a_word_across_two_double_word_squares_scores_four_times() {
    // E5..K5 CLEANER over an A at H5: (3+1+1+1+1+1+1) × 2 × 2.
    let rules = TileVariant::ScrabbleEn.rules();
    let b = board(rules, &[("H5", Across, "A")]);
    let s = score(TileVariant::ScrabbleEn, &b, "E5", Across, "CLE.NER");
    assert_eq!(s.total, 36);
    assert_eq!(s.bingo, 0);
}

#[test]
fn a_word_from_triple_word_to_triple_word_scores_nine_times() {
    // A1..H1 ABSOLUTE over O at D1 and T at G1: letters 10, × 3 × 3; D1's DL is already covered.
    let rules = TileVariant::ScrabbleEn.rules();
    let b = board(rules, &[("D1", Across, "O"), ("G1", Across, "T")]);
    assert_eq!(score(TileVariant::ScrabbleEn, &b, "A1", Across, "ABS.LU.E").total, 90);
}

#[test]
fn a_blank_on_a_letter_premium_scores_nothing() {
    // zEBRA from D8: blank z on D8 (DL) = 0, E1 B3 R1 A1 = 6, H8 double word.
    assert_eq!(score(TileVariant::ScrabbleEn, &Board::new(), "D8", Across, "zEBRA").total, 12);
    assert_eq!(score(TileVariant::ScrabbleEn, &Board::new(), "D8", Across, "ZEBRA").total, 52);
}

#[test]
fn a_blank_on_a_word_premium_still_multiplies() {
    // aT: blank 0 + T1, doubled by H8.
    assert_eq!(score(TileVariant::ScrabbleEn, &Board::new(), "H8", Across, "aT").total, 2);
}

#[test]
fn seven_tiles_earn_the_fifty_point_bingo() {
    // RETAINS H8..N8: 1+1+1+1+(1×2 on L8)+1+1 = 8, × 2 = 16, + 50.
    let s = score(TileVariant::ScrabbleEn, &Board::new(), "H8", Across, "RETAINS");
    assert_eq!((s.bingo, s.total), (50, 66));
}

#[test]
fn a_hook_scores_the_whole_word_without_old_premiums() {
    // CAT on H8..J8 already; S on K8 makes CATS: 3+1+1+1, H8's double word is used up.
    let rules = TileVariant::ScrabbleEn.rules();
    let b = board(rules, &[("H8", Across, "CAT")]);
    let s = score(TileVariant::ScrabbleEn, &b, "K8", Across, "S");
    assert_eq!((s.total, s.words[0].word.as_str()), (6, "CATS"));
    let s = score(TileVariant::ScrabbleEn, &b, "G8", Across, "S");
    assert_eq!((s.total, s.words[0].word.as_str()), (6, "SCAT"));
}

#[test]
fn a_parallel_play_scores_each_cross_word() {
    // HE on H8..I8; AN on H9..I9: AN = 1 + 1×2 (I9 DL) = 3; HA = 4+1 = 5; EN = 1 + 1×2 = 3.
    let rules = TileVariant::ScrabbleEn.rules();
    let b = board(rules, &[("H8", Across, "HE")]);
    let s = score(TileVariant::ScrabbleEn, &b, "H9", Across, "AN");
    let words: Vec<(&str, i32)> = s.words.iter().map(|w| (w.word.as_str(), w.score)).collect();
    assert_eq!(words, vec![("AN", 3), ("HA", 5), ("EN", 3)]);
    assert_eq!(s.total, 11);
}

#[test]
fn a_letter_premium_counts_in_both_words_through_it() {
    // OX at E10..F10 across, with O on E10 placed and X on F10 (TL); F9 holds an A above it:
    // AX down = 1 + 8×3 = 25; OX across = 1 + 8×3 = 25.
    let rules = TileVariant::ScrabbleEn.rules();
    let b = board(rules, &[("F9", Across, "A")]);
    let s = score(TileVariant::ScrabbleEn, &b, "E10", Across, "OX");
    let words: Vec<(&str, i32)> = s.words.iter().map(|w| (w.word.as_str(), w.score)).collect();
    assert_eq!(words, vec![("OX", 25), ("AX", 25)]);
}

#[test]
fn russian_scrabble_doubles_the_centre_and_scores_yo() {
    // КОТ: К2 О1 Т1 = 4, × 2; ЁЖ: Ё3 Ж5 = 8, × 2.
    assert_eq!(score(TileVariant::ScrabbleRu, &Board::new(), "H8", Across, "КОТ").total, 8);
    assert_eq!(score(TileVariant::ScrabbleRu, &Board::new(), "H8", Down, "ЁЖ").total, 16);
}

#[test]
fn russian_scrabble_pays_fifty_for_a_full_rack() {
    // КАРТИНА H8..N8: 2+1+1+1+(1×2)+1+1 = 9, × 2 = 18, + 50.
    let s = score(TileVariant::ScrabbleRu, &Board::new(), "H8", Across, "КАРТИНА");
    assert_eq!((s.bingo, s.total), (50, 68));
}

#[test]
fn erudit_scores_an_opening_over_the_plain_centre() {
    // КОТ: К2 О1 Т2 = 5, no multiplier on H8.
    assert_eq!(score(TileVariant::Erudit, &Board::new(), "H8", Across, "КОТ").total, 5);
}

#[test]
fn erudit_pays_fifteen_for_a_full_rack() {
    // КАРТИНА: 2+1+2+2+(1×2 on L8)+1+1 = 11, + 15.
    let s = score(TileVariant::Erudit, &Board::new(), "H8", Across, "КАРТИНА");
    assert_eq!((s.bingo, s.total), (15, 26));
}

#[test]
fn erudit_has_no_inner_triple_letters() {
    // ЮТ down from J6 over a Т at J7: Эрудит J6 plain: 10 + 2; Scrabble J6 TL: 8×3 + 1.
    let b = board(TileVariant::Erudit.rules(), &[("J7", Across, "Т")]);
    assert_eq!(score(TileVariant::Erudit, &b, "J6", Down, "Ю").total, 12);
    let b = board(TileVariant::ScrabbleRu.rules(), &[("J7", Across, "Т")]);
    assert_eq!(score(TileVariant::ScrabbleRu, &b, "J6", Down, "Ю").total, 25);
}

#[test]
fn an_erudit_star_scores_nothing_even_on_a_triple_word() {
    // A star on A1 (TW), Б on A2, А on A3, over a Т at A4: 0 + 3 + 1 + 2 = 6, × 3.
    let b = board(TileVariant::Erudit.rules(), &[("A4", Across, "Т")]);
    let s = score(TileVariant::Erudit, &b, "A1", Down, "кБА");
    assert_eq!((s.words[0].word.as_str(), s.total), ("КБАТ", 18));
}
