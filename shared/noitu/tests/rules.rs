//! The rules on a hand-built dictionary: each rejection reason on its own, reuse across seats,
//! the chain, the end and its winner, deadlines, resignation, the syllable bonus and the cap.

use crate::common::{game, game_with, small};
use noitu::{ChainAction, ChainEndReason, ChainRejection, ChainSetup, ChainSetupError, Options, Seat, Timestamp, WordChain};

const NOW: Timestamp = Timestamp(0);

/// Submits `raw` for the seat to move, expecting it to be accepted.
fn play(game: &mut WordChain<'_>, raw: &str) -> u32 {
    let seat = game.to_move();
    game.submit(seat, raw, NOW).unwrap_or_else(|r| panic!("{raw:?}: {r}")).score
}

/// The rejection of `raw` by `seat`, checking that the game is untouched.
fn refused(game: &mut WordChain<'_>, seat: Seat, raw: &str) -> ChainRejection {
    let before = game.clone();
    let r = game.submit(seat, raw, NOW).expect_err(raw);
    assert_eq!(*game, before, "a refused word changes nothing");
    r
}

#[test]
fn another_seats_word_is_not_your_turn() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let r = refused(&mut g, Seat(1), "luật sư");
    assert_eq!(r, ChainRejection::NotYourTurn { to_move: Seat(0) });
    assert_eq!(r.code(), "not_your_turn");
    assert_eq!(refused(&mut g, Seat(7), "luật sư").code(), "not_your_turn");
}

#[test]
fn one_syllable_or_none_is_too_few_syllables() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let r = refused(&mut g, Seat(0), "luật");
    assert_eq!(r, ChainRejection::TooFewSyllables { found: 1 });
    assert_eq!(r.code(), "too_few_syllables");
    assert_eq!(refused(&mut g, Seat(0), ""), ChainRejection::TooFewSyllables { found: 0 });
    assert_eq!(refused(&mut g, Seat(0), " \t\n "), ChainRejection::TooFewSyllables { found: 0 });
}

#[test]
fn a_word_outside_the_dictionary_is_not_in_dictionary() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let r = refused(&mut g, Seat(0), "luật đất đai");
    assert_eq!(r, ChainRejection::NotInDictionary);
    assert_eq!(r.code(), "not_in_dictionary");
}

#[test]
fn a_word_on_another_syllable_is_a_wrong_link() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let r = refused(&mut g, Seat(0), "sư phạm");
    assert_eq!(r, ChainRejection::WrongLink { expected: "luật".into(), found: "sư".into() });
    assert_eq!(r.code(), "wrong_link");
}

#[test]
fn the_opening_word_is_spent_and_already_used() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    play(&mut g, "luật pháp");
    let r = refused(&mut g, Seat(1), "pháp luật");
    assert_eq!(r, ChainRejection::AlreadyUsed { word: "pháp luật".into() });
    assert_eq!(r.code(), "already_used");
}

#[test]
fn a_word_played_by_one_seat_is_spent_for_the_other() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    play(&mut g, "luật sư"); // seat 0
    play(&mut g, "sư phạm"); // seat 1
    play(&mut g, "phạm luật"); // seat 0: back to luật
    assert_eq!(g.to_move(), Seat(1));
    assert_eq!(refused(&mut g, Seat(1), "luật sư"), ChainRejection::AlreadyUsed { word: "luật sư".into() });
    assert_eq!(refused(&mut g, Seat(1), "  LUẬT   Sư "), ChainRejection::AlreadyUsed { word: "luật sư".into() });
}

#[test]
fn a_passed_deadline_refuses_words_and_only_a_timeout_can_be_recorded() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    g.set_deadline(Some(Timestamp(1_000)));
    assert!(!g.is_expired(Timestamp(999)));
    assert!(g.is_expired(Timestamp(1_000)));
    assert!(g.check(Seat(0), "luật sư", Timestamp(999)).is_ok());
    let r = g.check(Seat(0), "luật sư", Timestamp(1_000)).unwrap_err();
    assert_eq!(r, ChainRejection::DeadlinePassed);
    assert_eq!(r.code(), "deadline_passed");
    let early = g.check_timeout(Timestamp(999)).unwrap_err();
    assert_eq!(early, ChainRejection::DeadlineNotPassed);
    assert_eq!(early.code(), "deadline_not_passed");
    let checked = g.check_timeout(Timestamp(1_000)).unwrap();
    let entry = g.apply(checked).clone();
    assert_eq!(entry.action, ChainAction::Timeout);
    assert_eq!(g.end(), Some(ChainEndReason::Timeout { seat: Seat(0) }));
    assert_eq!(g.winner(), Some(Seat(1)));
    assert_eq!(g.deadline(), None);
}

#[test]
fn without_a_deadline_nothing_expires() {
    let dict = small();
    let g = game(&dict, "pháp luật");
    assert!(!g.is_expired(Timestamp(i64::MAX)));
    assert_eq!(g.check_timeout(Timestamp(i64::MAX)).unwrap_err(), ChainRejection::DeadlineNotPassed);
}

#[test]
fn applying_a_word_clears_the_deadline() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    g.set_deadline(Some(Timestamp(1_000)));
    g.submit(Seat(0), "luật sư", Timestamp(500)).unwrap();
    assert_eq!(g.deadline(), None);
}

#[test]
fn the_chain_advances_to_the_last_syllable_and_the_turn_passes() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    assert_eq!(dict.syllable(g.current()), "luật");
    assert_eq!(g.chain(), 0);
    let entry = g.submit(Seat(0), "luật sư", NOW).unwrap().clone();
    assert_eq!((entry.move_no, entry.seat, entry.score), (0, Seat(0), 12));
    assert_eq!(entry.action, ChainAction::Word { word: "luật sư".into(), spelled: Some("luật sư".into()) });
    assert_eq!(dict.syllable(g.current()), "sư");
    assert_eq!((g.to_move(), g.chain(), g.scores()), (Seat(1), 1, &[12, 0][..]));
    play(&mut g, "sư phạm");
    assert_eq!(dict.syllable(g.current()), "phạm");
    assert_eq!((g.to_move(), g.chain(), g.scores()), (Seat(0), 2, &[12, 14][..]));
    let legal: Vec<&str> = g.legal_moves().map(|w| dict.text(w)).collect();
    assert_eq!(legal, ["phạm luật", "phạm vi"]);
}

#[test]
fn the_link_is_checked_on_the_resolved_spelling() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    play(&mut g, "luật bác");
    play(&mut g, "bác sỹ"); // the dictionary's "bác sĩ"
    assert_eq!(dict.syllable(g.current()), "sĩ");
    // Typed with y, the first syllable only matches once resolved.
    let entry = g.submit(Seat(0), "Sỹ Quan", NOW).unwrap();
    // The key is canonical; the spelling as the player wrote it, tidied.
    assert_eq!(entry.action, ChainAction::Word { word: "sĩ quan".into(), spelled: Some("sỹ quan".into()) });
    assert_eq!(g.current_shown(), "quan");
    // Old-style tone placement meets the dictionary's entry written the same way.
    play(&mut g, "quan hoà bình");
}

#[test]
fn a_dead_end_ends_the_game_and_the_seat_left_without_a_word_loses() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    assert!(g.has_legal_move());
    play(&mut g, "luật lệ");
    assert!(!g.has_legal_move());
    assert_eq!(g.legal_moves().count(), 0);
    assert_eq!(g.end(), Some(ChainEndReason::NoLegalMove { seat: Seat(1) }));
    assert_eq!(g.winner(), Some(Seat(0)));
    let r = refused(&mut g, Seat(1), "lệ làng");
    assert_eq!(r, ChainRejection::GameOver);
    assert_eq!(r.code(), "game_over");
}

#[test]
fn a_used_up_syllable_ends_the_game_too() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    play(&mut g, "luật pháp"); // pháp: "pháp luật" spent, "pháp lí" left
    assert!(g.has_legal_move());
    play(&mut g, "pháp lí");
    assert_eq!(g.winner(), Some(Seat(1)));
}

#[test]
fn three_and_four_syllable_words_score_the_syllable_bonus() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    assert_eq!(play(&mut g, "luật hôn nhân"), 10 + 2 + 5);
    assert_eq!(play(&mut g, "nhân dân"), 10 + 4);
    assert_eq!(play(&mut g, "dân chủ nhân dân"), 10 + 6 + 10);
    assert_eq!(g.scores(), [17 + 26, 14]);
    // dân's only word is the loop just played: seat 1 is stuck.
    assert_eq!(g.winner(), Some(Seat(0)));
}

#[test]
fn no_word_scores_above_the_cap() {
    let dict = small();
    let mut g = game_with(&dict, "pháp luật", Options { score_cap: 15, ..Options::default() });
    assert_eq!(play(&mut g, "luật hôn nhân"), 15);
    assert_eq!(play(&mut g, "nhân dân"), 14);
    assert_eq!(play(&mut g, "dân chủ nhân dân"), 15);
}

#[test]
fn either_seat_may_resign_and_loses() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let checked = g.check_resign(Seat(1)).unwrap();
    assert_eq!(g.apply(checked).action, ChainAction::Resign);
    assert_eq!(g.end(), Some(ChainEndReason::Resigned { seat: Seat(1) }));
    assert_eq!(g.winner(), Some(Seat(0)));
    assert_eq!(g.check_resign(Seat(0)).unwrap_err(), ChainRejection::GameOver);
    assert_eq!(g.check_timeout(Timestamp(0)).unwrap_err(), ChainRejection::GameOver);
}

#[test]
fn bad_input_gets_its_reason_and_changes_nothing() {
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let long_spaced = "luật ".repeat(2_048);
    let long_solid = "a".repeat(10_240);
    for (raw, code) in [
        ("", "too_few_syllables"),
        ("luật", "too_few_syllables"),
        (long_solid.as_str(), "too_few_syllables"),
        (long_spaced.as_str(), "not_in_dictionary"),
        ("qwerty zxcv", "not_in_dictionary"),
        ("luật\u{7}sư", "too_few_syllables"),
        ("luật\u{0} sư", "not_in_dictionary"),
        ("luật s\u{200b}ư", "not_in_dictionary"),
        ("luật сư", "not_in_dictionary"), // Cyrillic с
        ("luật sư!", "not_in_dictionary"),
        ("luật 42", "not_in_dictionary"),
        ("luật s\u{302}ư", "not_in_dictionary"),
        ("法律 luật", "not_in_dictionary"),
        ("luậ\u{323}t sư", "not_in_dictionary"), // the dot below twice on one vowel
        ("lụật sư", "not_in_dictionary"),        // the dot below on two vowels of one syllable
        ("luật g", "not_in_dictionary"),         // a lone g: no vowel at all
    ] {
        assert_eq!(refused(&mut g, Seat(0), raw).code(), code, "{:?}", raw.chars().take(20).collect::<String>());
    }
    // Tabs and line breaks are spaces.
    play(&mut g, "\tluật\n sư\r\n");
}

#[test]
fn codes_are_listed_in_checking_order() {
    assert_eq!(ChainRejection::CODES.len(), 8);
    let dict = small();
    let mut g = game(&dict, "pháp luật");
    let mut seen = vec![
        refused(&mut g, Seat(1), "x").code(),
        refused(&mut g, Seat(0), "x").code(),
        refused(&mut g, Seat(0), "luật xyz").code(),
        refused(&mut g, Seat(0), "sư phạm").code(),
    ];
    seen.dedup();
    let positions: Vec<usize> = seen.iter().map(|c| ChainRejection::CODES.iter().position(|k| k == c).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
}

#[test]
fn setups_that_cannot_be_played_are_refused() {
    let dict = small();
    let with = |seats, opening: Option<&str>, min, safe| {
        let options = Options { opening_min_continuations: min, opening_without_instant_win: safe, ..Options::default() };
        WordChain::new(&ChainSetup { seed: 3, seats, lives: None, options, opening: opening.map(str::to_string) }, &dict)
            .map(|g| g.setup().clone())
    };
    assert_eq!(with(1, None, 1, false).unwrap_err(), ChainSetupError::Seats(1));
    assert_eq!(with(9, None, 1, false).unwrap_err(), ChainSetupError::Seats(9));
    for lives in [0, 6] {
        let setup = ChainSetup { seed: 3, seats: 3, lives: Some(lives), options: Options::default(), opening: None };
        assert_eq!(WordChain::new(&setup, &dict).unwrap_err(), ChainSetupError::Lives(lives));
    }
    assert_eq!(with(2, Some("luật đất đai"), 1, false).unwrap_err(), ChainSetupError::UnknownOpening("luật đất đai".into()));
    assert_eq!(with(2, Some("luật lệ"), 1, false).unwrap_err(), ChainSetupError::NoOpening(1));
    assert_eq!(with(2, None, 50, false).unwrap_err(), ChainSetupError::NoOpening(50));
    // Every word ending in luật lets the first answer win at once ("luật lệ").
    assert_eq!(with(2, None, 3, true).unwrap_err(), ChainSetupError::NoOpening(3));
    // A drawn opening is pinned in the game's setup, the same for the same seed.
    let drawn = with(2, None, 3, false).unwrap();
    assert_eq!(drawn, with(2, None, 3, false).unwrap());
    let opening = drawn.opening.unwrap();
    assert!(opening.ends_with(" luật"), "{opening}: only luật begins 3 words or more");
}

#[test]
fn drawn_openings_leave_enough_words_and_no_instant_win() {
    let dict = noitu::Dictionary::builtin();
    let mut openings = std::collections::HashSet::new();
    for seed in 0..40 {
        let game = WordChain::new(&ChainSetup::new(seed), dict).unwrap();
        openings.insert(game.opening());
        let answers: Vec<_> = game.legal_moves().collect();
        assert!(answers.len() >= 10, "{}", dict.text(game.opening()));
        for w in answers {
            let mut next = game.clone();
            next.submit(Seat(0), dict.text(w), NOW).unwrap();
            assert!(!next.is_over(), "{} then {} wins at once", dict.text(game.opening()), dict.text(w));
        }
    }
    assert!(openings.len() >= 38, "seeds draw different openings");
}
