//! Эрудит's no-repeat-words rule in the game layer, and the filtered move list that hints and
//! robots use.

use std::collections::HashSet;

use crate::common::{AnyWord, board, placements, rack_letters};
use engine::best_plays::best_plays;
use engine::lexicon::builtin_graph;
use engine::norepeat::apply;
use engine::play::evaluate;
use engine::{
    Direction::*, Game, LeaveTable, MoveGenerator, Rack, Ranking, Rejection, Seat, Setup, TileMove, TileVariant, Timestamp, replay,
};

const NOW: Timestamp = Timestamp(0);

fn played(words: &[&str]) -> HashSet<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn scored(
    variant: TileVariant,
    board: &engine::Board,
    start: &str,
    dir: engine::Direction,
    word: &str,
) -> (engine::ScoreBreakdown, usize, engine::Direction) {
    let rules = variant.rules();
    let placed = placements(rules, start, dir, word);
    let rack = Rack::from_tiles(placed.iter().map(|p| p.tile.rack_tile()));
    let outcome = evaluate(rules, board, &rack, None, &placed).unwrap();
    (outcome.score, placed.len(), outcome.direction)
}

#[test]
fn a_repeated_main_word_is_refused_even_spelled_with_a_star() {
    let rules = TileVariant::Erudit.rules();
    let b = board(rules, &[("H8", Across, "КОТ")]);
    for word in ["КОТ", "кОТ"] {
        let (mut score, n, dir) = scored(TileVariant::Erudit, &b, "K6", Down, word);
        assert_eq!(apply(&played(&["КОТ"]), &mut score, n, dir), Err(Rejection::WordAlreadyPlayed { words: vec!["КОТ".into()] }));
    }
}

#[test]
fn a_repeated_cross_word_scores_nothing_and_the_rest_scores_normally() {
    let rules = TileVariant::Erudit.rules();
    let b = board(rules, &[("H8", Across, "ДА")]);
    // НО across at H9..I9 under ДА: main word НО, cross-words ДН and АО.
    let (mut score, n, dir) = scored(TileVariant::Erudit, &b, "H9", Across, "НО");
    let words: Vec<String> = score.words.iter().map(|w| w.word.clone()).collect();
    assert_eq!(words, ["НО", "ДН", "АО"]);
    let before: Vec<i32> = score.words.iter().map(|w| w.score).collect();
    apply(&played(&["ДА", "АО"]), &mut score, n, dir).unwrap();
    assert!(score.words[2].repeat && score.words[2].score == 0);
    assert!(!score.words[0].repeat && score.words[0].score == before[0]);
    assert_eq!(score.words[1].score, before[1]);
    assert_eq!(score.total, before[0] + before[1]);
}

#[test]
fn a_one_tile_play_is_refused_only_when_every_word_it_forms_repeats() {
    let rules = TileVariant::Erudit.rules();
    let b = board(rules, &[("H8", Across, "ДА"), ("J7", Down, "ОН")]);
    // Т at I7 forms ТО across (with the О at J7) and ТА down (with the А at I8).
    let (score, n, dir) = scored(TileVariant::Erudit, &b, "I7", Across, "Т");
    let words: Vec<String> = score.words.iter().map(|w| w.word.clone()).collect();
    assert_eq!(words, ["ТО", "ТА"]);
    // The across word repeats but the down word is new: the down word becomes the main word.
    let mut s = score.clone();
    assert_eq!(apply(&played(&["ТО"]), &mut s, n, dir), Ok(Down));
    assert_eq!((s.words[0].word.as_str(), s.words[0].main, s.words[1].repeat, s.words[1].score), ("ТА", true, true, 0));
    let mut s = score.clone();
    assert_eq!(apply(&played(&["ТО", "ТА"]), &mut s, n, dir), Err(Rejection::WordAlreadyPlayed { words: vec!["ТО".into(), "ТА".into()] }));
}

/// An Эрудит game, rule as given, where seat 0 opens with two letters seat 1 also holds.
fn shared_letters_game(no_repeat: bool) -> (Game, String) {
    for seed in 1.. {
        let game = Game::from_setup(&Setup {
            variant: TileVariant::Erudit,
            seats: 2,
            seed,
            no_repeat_words: no_repeat,
            challenge: Default::default(),
        })
        .unwrap();
        let (r0, mut r1) = (rack_letters(&game, Seat(0)), rack_letters(&game, Seat(1)));
        let common: Vec<char> =
            r0.iter().filter(|&&c| c != '?' && r1.iter().position(|&d| d == c).map(|i| r1.remove(i)).is_some()).copied().take(2).collect();
        if common.len() == 2 {
            return (game, common.iter().collect());
        }
    }
    unreachable!()
}

#[test]
fn the_game_refuses_a_main_word_played_before() {
    let (mut game, word) = shared_letters_game(true);
    let rules = game.rules();
    game.play(&AnyWord, Seat(0), &crate::common::play(rules, "H8", Across, &word), NOW).unwrap();
    // The same word down from J7 ends on J8, next to the opening: its main word repeats.
    let repeat = crate::common::play(rules, "J7", Down, &word);
    let refused = game.play(&AnyWord, Seat(1), &repeat, NOW).unwrap_err();
    assert_eq!(refused, Rejection::WordAlreadyPlayed { words: vec![word.to_uppercase()] });
    assert_eq!(refused.code(), "word_already_played");
    game.play(&AnyWord, Seat(1), &TileMove::Pass, NOW).unwrap();
    assert!(game.played_words().contains(&word.to_uppercase()));
    assert_eq!(replay(game.setup(), game.journal()).unwrap(), game);
}

#[test]
fn without_the_rule_the_same_play_stands() {
    let (mut game, word) = shared_letters_game(false);
    let rules = game.rules();
    game.play(&AnyWord, Seat(0), &crate::common::play(rules, "H8", Across, &word), NOW).unwrap();
    game.play(&AnyWord, Seat(1), &crate::common::play(rules, "J7", Down, &word), NOW).unwrap();
    let scrabble = Game::new(TileVariant::ScrabbleRu, 2, 1).unwrap();
    assert!(!scrabble.no_repeat_words(), "Scrabble has no such rule");
    assert!(Game::new(TileVariant::Erudit, 2, 1).unwrap().no_repeat_words(), "Эрудит has it by default");
}

#[test]
fn robots_over_200_erudit_games_never_repeat_a_main_word_and_score_as_submit_does() {
    use engine::robot::{Level, LevelRobot, Robot, RobotView, Rounds, seeded};
    let variant = TileVariant::Erudit;
    let rules = variant.rules();
    let graph = builtin_graph(variant);
    let generator = MoveGenerator::new(rules, graph);
    let leave = LeaveTable::heuristic(rules);
    let (mut plays, mut hints_checked) = (0, 0);
    for seed in 0..200u64 {
        let mut game = Game::new(variant, 2, seed).unwrap();
        while !game.is_over() {
            let seat = game.to_move();
            let rack = *game.rack(seat);
            // A hint list never holds a play the engine would refuse or score otherwise.
            for hint in best_plays(&game, &generator, &rack, 3, Ranking::Equity(&leave)) {
                let checked = game.check(graph, seat, &TileMove::play(rules, &hint.placements()), NOW).expect("a hint is legal");
                assert_eq!(checked.score(), hint.score);
                hints_checked += 1;
            }
            let level = Level::ALL[(seed as usize + seat.index()) % 3];
            let robot = LevelRobot::new(level, &game, graph);
            let d = robot.decide(&RobotView::new(&game), &mut seeded(seed), &mut Rounds(1));
            let entry = game.play(graph, seat, &d.mv, NOW).expect("the robot's move is legal").clone();
            if let (Some(p), engine::Action::Play { words, .. }) = (d.play, &entry.action) {
                assert_eq!(entry.score, p.score, "the robot's score is what submit computes");
                assert!(words.iter().all(|w| game.played_words().contains(&w.word)), "cross-words are words of the game too");
                plays += 1;
            }
        }
        // No main word appears twice in the journal.
        let mut seen = HashSet::new();
        for e in game.journal() {
            if let engine::Action::Play { words, .. } = &e.action {
                let main = words.iter().find(|w| w.main).unwrap();
                assert!(!seen.contains(&main.word), "seed {seed}: {} repeated", main.word);
                seen.extend(words.iter().map(|w| w.word.clone()));
            }
        }
    }
    assert!(plays > 2_000 && hints_checked > 5_000, "{plays} plays, {hints_checked} hints");
}
