//! `wordgame robot` as a referee runs it: the level's move in a CGP position, the same as the
//! engine's robot decides for that position and seed; one answer per line of a file; exit code 2
//! with one line on bad input.

use std::process::{Command, Output};

use engine::cgp::CgpPosition;
use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, Rounds, seeded};
use engine::{Game, Seat, TileInput, TileMove, TileVariant, Timestamp};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

fn wordgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wordgame")).args(args).output().expect("the binary runs")
}

/// A seeded medium-vs-medium game played until the bag holds at most `bag` tiles, as CGP from
/// the seat to move (its rack first, then the opponent's).
fn position_with_bag(variant: TileVariant, seed: u64, bag: usize) -> (Game, String) {
    let graph = builtin_graph(variant);
    let mut game = Game::new(variant, 2, seed).unwrap();
    let robot = LevelRobot::new(Level::Medium, &game, graph);
    while game.bag().len() > bag && !game.is_over() {
        let d = robot.decide(&RobotView::new(&game), &mut seeded(seed), &mut Rounds(1));
        game.play(graph, game.to_move(), &d.mv, Timestamp(0)).unwrap();
    }
    let me = game.to_move();
    let other = Seat(1 - me.0);
    let position = CgpPosition {
        board: game.board().clone(),
        racks: vec![*game.rack(me), *game.rack(other)],
        scores: vec![game.scores()[me.index()], game.scores()[other.index()]],
        zero_turns: game.scoreless_turns(),
        lexicon: None,
    };
    (game, position.to_cgp(variant.rules()))
}

/// The engine's own answer for the CGP: "coord word score", or "pass" / "exchange ...".
fn engine_answer(variant: TileVariant, level: Level, cgp: &str, seed: u64, rounds: u32) -> String {
    let position = CgpPosition::parse(variant.rules(), cgp).unwrap();
    let game = Game::from_position(variant, &position, seed).unwrap();
    let robot = LevelRobot::new(level, &game, builtin_graph(variant));
    let d = robot.decide(&RobotView::new(&game), &mut seeded(seed), &mut Rounds(rounds));
    match (d.play, d.mv) {
        (Some(p), _) => format!("{} {} {}", p.coordinate(), p.notation(variant.rules()), p.score),
        (None, TileMove::Exchange { tiles }) => {
            let tiles: String = tiles.iter().map(|t| if let TileInput::Letter(c) = t { *c } else { '?' }).collect();
            format!("exchange {tiles}")
        }
        (None, _) => "pass".to_string(),
    }
}

#[test]
fn the_answer_is_the_engine_robots_for_every_level_and_phase() {
    for (variant, seed) in [(TileVariant::ScrabbleEn, 3), (TileVariant::Erudit, 4)] {
        for bag in [50, 4, 0] {
            let (_, cgp) = position_with_bag(variant, seed, bag);
            for level in Level::ALL {
                let out =
                    wordgame(&["robot", "--variant", variant.id(), "--level", level.id(), "--cgp", &cgp, "--seed", "7", "--rounds", "2"]);
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                let text = String::from_utf8(out.stdout).unwrap();
                assert_eq!(text.trim(), engine_answer(variant, level, &cgp, 7, 2), "{variant} {level:?} bag {bag}");
            }
        }
    }
}

#[test]
fn json_answers_and_one_line_per_position_of_a_file() {
    let (game, cgp) = position_with_bag(TileVariant::ScrabbleEn, 5, 0);
    let out = wordgame(&["robot", "--variant", "scrabble-en", "--level", "hard", "--cgp", &cgp, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["level"], "hard");
    assert_eq!(v["bag"], 0);
    assert!(["play", "pass"].contains(&v["kind"].as_str().unwrap()), "{v}");
    assert!(!game.is_over());
    let dir = std::env::temp_dir().join(format!("wordgame-robot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.cgp");
    std::fs::write(&file, format!("{EMPTY} AEINRST/ 0/0 0\n\n{cgp}\n")).unwrap();
    let out = wordgame(&["robot", "--variant", "scrabble-en", "--level", "medium", "--cgp-file", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["line"].as_u64(), lines[1]["line"].as_u64()), (Some(1), Some(3)));
    std::fs::write(&file, format!("{EMPTY} AEINRST/ 0/0 0\n{EMPTY} AEINRS1/ 0/0 0\n")).unwrap();
    let out = wordgame(&["robot", "--variant", "scrabble-en", "--level", "easy", "--cgp-file", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":2: bad CGP"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let good = format!("{EMPTY} AEINRST/ 0/0 0");
    for (args, says) in [
        (vec!["--variant", "klingon", "--level", "hard", "--cgp", good.as_str()], "klingon"),
        (vec!["--variant", "scrabble-en", "--level", "expert", "--cgp", good.as_str()], "unknown level"),
        (vec!["--variant", "scrabble-en", "--level", "hard", "--cgp", "15/15 A/B 0/0 0"], "bad CGP"),
        (vec!["--variant", "scrabble-en", "--level", "hard", "--cgp", &*format!("{EMPTY} /A 0/0 0")], "empty rack"),
        (vec!["--variant", "scrabble-en", "--level", "hard", "--cgp-file", "/nonexistent/positions.cgp"], "nonexistent"),
    ] {
        let mut all = vec!["robot"];
        all.extend(args);
        let out = wordgame(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(out.stdout.is_empty());
    }
}
