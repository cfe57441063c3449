//! One test per rejection reason: each bad move yields exactly that reason and changes nothing.

use crate::common::{AnyWord, blankless_game, dump_rack, play, rack_letters};
use engine::{Direction::*, Game, PlacementInput, Rejection, Seat, TileInput, TileMove, TileVariant, Timestamp, WordList};

const NOW: Timestamp = Timestamp(0);

/// Submits `mv` and checks that it is refused with `code` and leaves the game as it was.
fn refused(game: &mut Game, lexicon: &dyn engine::Lexicon, seat: Seat, mv: &TileMove, now: Timestamp) -> Rejection {
    let before = game.clone();
    let rejection = game.play(lexicon, seat, mv, now).expect_err("the move must be refused");
    assert_eq!(*game, before, "a refused move changed the game");
    rejection
}

fn input(square: &str, letter: Option<char>, blank: bool) -> PlacementInput {
    PlacementInput { square: square.into(), letter, blank }
}

/// A game whose seat 0 opened with its first two tiles at H8..I8 (accepted by `AnyWord`).
fn opened() -> Game {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let r = rack_letters(&game, Seat(0));
    let word: String = r[..2].iter().collect();
    game.play(&AnyWord, Seat(0), &play(game.rules(), "H8", Across, &word), NOW).unwrap();
    game
}

/// Seat 1's first `n` rack letters as a string.
fn seat1_word(game: &Game, n: usize) -> String {
    rack_letters(game, Seat(1))[..n].iter().collect()
}

#[test]
fn a_move_after_the_end_is_refused_as_game_over() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    game.play(&AnyWord, Seat(1), &TileMove::Resign, NOW).unwrap();
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &TileMove::Pass, NOW).code(), "game_over");
}

#[test]
fn a_move_out_of_turn_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    assert_eq!(refused(&mut game, &AnyWord, Seat(1), &TileMove::Pass, NOW), Rejection::NotYourTurn { to_move: Seat(0) });
    assert_eq!(refused(&mut game, &AnyWord, Seat(7), &TileMove::Pass, NOW).code(), "not_your_turn");
}

#[test]
fn a_move_after_the_deadline_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    game.set_deadline(Some(Timestamp(1_000)));
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &TileMove::Pass, Timestamp(1_000)), Rejection::DeadlinePassed);
    game.play(&AnyWord, Seat(0), &TileMove::Pass, Timestamp(999)).unwrap();
}

#[test]
fn a_timeout_claimed_early_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    assert_eq!(game.check_timeout(Timestamp(5), vocabulary::Lapse::Turn), Err(Rejection::DeadlineNotPassed));
    game.set_deadline(Some(Timestamp(10)));
    assert_eq!(game.check_timeout(Timestamp(9), vocabulary::Lapse::Game).unwrap_err().code(), "deadline_not_passed");
}

#[test]
fn a_play_without_tiles_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::NoTiles);
    let mv = TileMove::Exchange { tiles: vec![] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::NoTiles);
}

#[test]
fn a_square_off_the_board_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", Some('A'), false), input("P8", Some('B'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::OffBoard { square: "P8".into() });
}

#[test]
fn a_square_used_twice_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", Some('A'), false), input("h8", Some('B'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW).code(), "duplicate_square");
}

#[test]
fn tiles_off_one_line_are_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", Some('A'), false), input("I9", Some('B'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::NotInLine);
}

#[test]
fn a_gap_between_tiles_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", Some('A'), false), input("J8", Some('B'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::Gap { square: "I8".parse().unwrap() });
}

#[test]
fn a_tile_without_a_letter_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", None, false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW).code(), "missing_letter");
}

#[test]
fn a_blank_without_a_letter_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", None, true)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW).code(), "blank_without_letter");
}

#[test]
fn a_letter_outside_the_alphabet_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mv = TileMove::Play { placements: vec![input("H8", Some('Ж'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::LetterNotInAlphabet { letter: 'Ж' });
    let mv = TileMove::Exchange { tiles: vec![TileInput::Letter('1')] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW).code(), "letter_not_in_alphabet");
}

#[test]
fn a_tile_not_on_the_rack_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let missing = ('A'..='Z').find(|c| !rack_letters(&game, Seat(0)).contains(c)).unwrap();
    let mv = TileMove::Play { placements: vec![input("H8", Some(missing), false), input("I8", Some(missing), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::TileNotOnRack { tile: missing.to_string() });
    let mv = TileMove::Play { placements: vec![input("H8", Some('E'), true), input("I8", Some('E'), false)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::TileNotOnRack { tile: "?".into() });
    let mv = TileMove::Exchange { tiles: vec![TileInput::Letter(missing)] };
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW).code(), "tile_not_on_rack");
}

#[test]
fn a_tile_on_an_occupied_square_is_refused() {
    let mut game = opened();
    let mv = play(game.rules(), "H8", Down, &seat1_word(&game, 2));
    assert_eq!(refused(&mut game, &AnyWord, Seat(1), &mv, NOW), Rejection::SquareOccupied { square: "H8".parse().unwrap() });
}

#[test]
fn an_opening_off_the_centre_is_refused() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let word: String = rack_letters(&game, Seat(0))[..2].iter().collect();
    let mv = play(game.rules(), "A1", Across, &word);
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::FirstPlayMissesCenter);
}

#[test]
fn a_play_away_from_the_tiles_is_refused() {
    let mut game = opened();
    let mv = play(game.rules(), "A1", Across, &seat1_word(&game, 2));
    assert_eq!(refused(&mut game, &AnyWord, Seat(1), &mv, NOW), Rejection::NotConnected);
}

#[test]
fn a_lone_opening_tile_forms_no_word() {
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let word: String = rack_letters(&game, Seat(0))[..1].iter().collect();
    let mv = play(game.rules(), "H8", Across, &word);
    assert_eq!(refused(&mut game, &AnyWord, Seat(0), &mv, NOW), Rejection::NoWordFormed);
}

#[test]
fn every_invalid_word_is_named_in_one_rejection() {
    // Seat 1 lays two tiles under the opening, forming a main word and two cross-words.
    let mut game = opened();
    let rules = game.rules();
    let word = seat1_word(&game, 2);
    let empty = WordList::parse(rules, "").unwrap();
    let mv = play(rules, "H9", Across, &word);
    let Rejection::InvalidWords { words } = refused(&mut game, &empty, Seat(1), &mv, NOW) else { panic!("expected invalid words") };
    assert_eq!(words.len(), 3, "{words:?}");
    assert_eq!(words[0], word);
}

#[test]
fn an_exchange_with_too_few_tiles_in_the_bag_is_refused() {
    // Scrabble needs 7 in the bag; run the bag down with AnyWord plays, then try.
    let mut game = blankless_game(TileVariant::ScrabbleEn);
    let mut k = 0;
    while game.bag().len() >= 7 {
        let seat = game.to_move();
        game.play(&AnyWord, seat, &dump_rack(&game, k), NOW).unwrap();
        k += 1;
    }
    let seat = game.to_move();
    let tile = rack_letters(&game, seat)[0];
    let mv = TileMove::Exchange { tiles: vec![if tile == '?' { TileInput::Blank } else { TileInput::Letter(tile) }] };
    let bag = game.bag().len();
    assert_eq!(refused(&mut game, &AnyWord, seat, &mv, NOW), Rejection::BagTooSmall { bag, needed: 7 });
}

#[test]
fn erudit_allows_an_exchange_while_the_bag_holds_as_many() {
    let game = blankless_game(TileVariant::Erudit);
    let tiles: Vec<TileInput> = rack_letters(&game, Seat(0)).into_iter().map(TileInput::Letter).collect();
    assert!(game.check(&AnyWord, Seat(0), &TileMove::Exchange { tiles }, NOW).is_ok());
}

#[test]
fn every_rejection_code_is_distinct_and_snake_case() {
    let mut codes = Rejection::CODES.to_vec();
    assert!(codes.iter().all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')));
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), Rejection::CODES.len());
}
