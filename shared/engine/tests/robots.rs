//! Robots: a small seeded ladder that guards the ordering of the levels, every robot move is
//! legal, the budget is honoured, and a fixed seed gives a fixed choice.

use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, Rounds, ThinkingLimit, seeded};
use engine::{Game, TileVariant, Timestamp};

/// Plays a game between two levels with a fixed number of simulation rounds; every move goes
/// through the game's own check. Returns the two levels' final scores.
fn play(variant: TileVariant, seed: u64, levels: [Level; 2]) -> [i32; 2] {
    let graph = builtin_graph(variant);
    let mut game = Game::new(variant, 2, seed).unwrap();
    let robots = [LevelRobot::new(levels[0], &game, graph), LevelRobot::new(levels[1], &game, graph)];
    let mut rng = seeded(seed);
    while !game.is_over() {
        let seat = game.to_move();
        let d = robots[seat.index()].decide(&RobotView::new(&game), &mut rng, &mut Rounds(3));
        let entry =
            game.play(graph, seat, &d.mv, Timestamp(0)).unwrap_or_else(|r| panic!("{:?} made an illegal move: {r}", levels[seat.index()]));
        if let Some(p) = d.play {
            assert_eq!(entry.score, p.score, "a robot's play scores what submit computes");
        }
        assert!(d.thinking_ms >= 400, "{}", d.thinking_ms);
    }
    [game.scores()[0], game.scores()[1]]
}

/// Wins of `a` over `b` in `n` games, first seats alternating.
fn wins(variant: TileVariant, a: Level, b: Level, n: u64) -> u64 {
    (0..n)
        .filter(|g| {
            let a_first = g % 2 == 0;
            let s = play(variant, 100 + g / 2, if a_first { [a, b] } else { [b, a] });
            if a_first { s[0] > s[1] } else { s[1] > s[0] }
        })
        .count() as u64
}

#[test]
fn a_small_seeded_ladder_keeps_the_levels_in_order() {
    assert!(wins(TileVariant::ScrabbleEn, Level::Medium, Level::Easy, 8) >= 6);
    assert!(wins(TileVariant::ScrabbleEn, Level::Hard, Level::Easy, 8) >= 7);
    assert!(wins(TileVariant::Erudit, Level::Hard, Level::Easy, 6) >= 5);
}

#[test]
fn a_fixed_seed_gives_a_fixed_choice() {
    let graph = builtin_graph(TileVariant::ScrabbleEn);
    let game = Game::new(TileVariant::ScrabbleEn, 2, 9).unwrap();
    for level in Level::ALL {
        let robot = LevelRobot::new(level, &game, graph);
        assert_eq!(robot.level(), level);
        let a = robot.decide(&RobotView::new(&game), &mut seeded(5), &mut Rounds(2));
        let b = robot.decide(&RobotView::new(&game), &mut seeded(5), &mut Rounds(2));
        assert_eq!(a, b, "{level:?}");
    }
}

/// A budget that runs out after `left` questions and counts any asked after that.
struct Countdown {
    left: u32,
    asked_after: u32,
}

impl ThinkingLimit for Countdown {
    fn expired(&mut self, _: engine::robot::Work) -> bool {
        if self.left == 0 {
            self.asked_after += 1;
            return true;
        }
        self.left -= 1;
        false
    }
}

#[test]
fn the_hard_robot_stops_as_soon_as_its_budget_runs_out() {
    let graph = builtin_graph(TileVariant::ScrabbleEn);
    let game = Game::new(TileVariant::ScrabbleEn, 2, 11).unwrap();
    let robot = LevelRobot::new(Level::Hard, &game, graph);
    for left in [0, 1, 5, 20] {
        let mut budget = Countdown { left, asked_after: 0 };
        let d = robot.decide(&RobotView::new(&game), &mut seeded(1), &mut budget);
        assert_eq!(budget.asked_after, 1, "it asks once more, sees the end, and stops");
        let mut check = game.clone();
        check.play(graph, check.to_move(), &d.mv, Timestamp(0)).unwrap();
    }
}

/// A mid-game position: `words` on the board, the player to move holding `mine` (`?` a blank),
/// the opponent an unknown rack dealt by the game, the rest in the bag.
fn mid_game(variant: TileVariant, words: &[(&str, engine::Direction, &str)], mine: &str, zero_turns: u32) -> Game {
    let rules = variant.rules();
    let mine = engine::Rack::from_tiles(
        mine.chars().map(|c| if c == '?' { engine::RackTile::Blank } else { engine::RackTile::Letter(rules.letter(c).unwrap()) }),
    );
    let position = engine::cgp::CgpPosition {
        board: crate::common::board(rules, words),
        racks: vec![mine, engine::Rack::default()],
        scores: vec![0, 0],
        zero_turns,
        lexicon: None,
    };
    Game::from_position(variant, &position, 3).unwrap()
}

#[test]
fn the_hard_robot_exchanges_a_hopeless_rack_while_a_play_exists_but_not_near_the_scoreless_end() {
    use engine::{Direction, MoveGenerator, TileMove};
    for (variant, words, rack) in [
        (TileVariant::ScrabbleEn, [("H7", Direction::Across, "CAT")], "UUUUVVW"),
        (TileVariant::Erudit, [("H7", Direction::Across, "КОТ")], "ЪЪЫЬЭФЩ"),
    ] {
        let graph = builtin_graph(variant);
        let game = mid_game(variant, &words, rack, 0);
        let generator = MoveGenerator::new(game.rules(), graph);
        assert!(!generator.all(game.board(), game.rack(game.to_move())).is_empty(), "{variant}: the rack has a play");
        let hard = LevelRobot::new(Level::Hard, &game, graph);
        let d = hard.decide(&RobotView::new(&game), &mut seeded(4), &mut Rounds(16));
        assert!(matches!(d.mv, TileMove::Exchange { .. }) && d.play.is_none(), "{variant}: {:?}", d.mv);
        game.clone().play(graph, game.to_move(), &d.mv, Timestamp(0)).expect("the exchange is legal");
        let medium = LevelRobot::new(Level::Medium, &game, graph).decide(&RobotView::new(&game), &mut seeded(4), &mut Rounds(16));
        assert!(medium.play.is_some(), "{variant}: medium plays what it can");
        // Two scoreless turns before the game's scoreless end, an exchange is no candidate.
        let limit = game.rules().end.limit(2);
        let late = mid_game(variant, &words, rack, limit - 2);
        let d = LevelRobot::new(Level::Hard, &late, graph).decide(&RobotView::new(&late), &mut seeded(4), &mut Rounds(16));
        assert!(d.play.is_some(), "{variant}: {:?}", d.mv);
    }
}
