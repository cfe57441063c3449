//! The endgame: with the bag empty, hints and every level value plays by the rack settlement,
//! not static equity; the hard level's search goes out, blocks or keeps a tile when that is
//! best. Positions are built by hand: a few words at the top, both racks, and every other tile
//! of the set packed into the bottom rows, where no play can reach them (each square above the
//! block would make a six-letter column of filler), so the bag is empty.

use crate::common::board;
use engine::cgp::CgpPosition;
use engine::endgame::{self, goes_out};
use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, Rounds, seeded};
use engine::{Direction, Game, LeaveTable, MoveGenerator, Placement, Rack, RackTile, Ranking, Seat, Square, Tile, TileVariant, Timestamp};

/// A rack of `letters` (`?` a blank).
fn rack(variant: TileVariant, letters: &str) -> Rack {
    let rules = variant.rules();
    Rack::from_tiles(letters.chars().map(|c| if c == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(c).unwrap()) }))
}

/// The endgame with `words` on the board, the player to move holding `mine` and the opponent
/// `theirs`, every other tile in the filler block, the scores level.
fn endgame_position(variant: TileVariant, words: &[(&str, Direction, &str)], mine: &str, theirs: &str) -> Game {
    table_position(variant, words, mine, &[theirs])
}

/// As [`endgame_position`], with one rack per opponent.
fn table_position(variant: TileVariant, words: &[(&str, Direction, &str)], mine: &str, theirs: &[&str]) -> Game {
    table_position_after(variant, words, mine, theirs, 0)
}

/// As [`table_position`], `zero_turns` scoreless turns into the game.
fn table_position_after(variant: TileVariant, words: &[(&str, Direction, &str)], mine: &str, theirs: &[&str], zero_turns: u32) -> Game {
    let rules = variant.rules();
    let mut board = board(rules, words);
    let racks: Vec<Rack> = std::iter::once(mine).chain(theirs.iter().copied()).map(|r| rack(variant, r)).collect();
    let mut pool = rules.full_set();
    let used = board.tiles().map(|(_, t)| t.rack_tile()).chain(racks.iter().flat_map(|r| r.tiles().collect::<Vec<_>>()));
    for t in used.collect::<Vec<_>>() {
        let i = pool.iter().position(|&p| p == t).expect("the position uses no more tiles than the set has");
        pool.swap_remove(i);
    }
    pool.sort();
    for (k, t) in pool.into_iter().enumerate() {
        let square = Square::new(14 - k / 15, k % 15).expect("the filler fits below the words");
        let tile = match t {
            RackTile::Letter(l) => Tile::Letter(l),
            RackTile::Blank => Tile::Blank(rules.alphabet().next().unwrap()),
        };
        board.place(Placement { square, tile });
    }
    let scores = vec![300; racks.len()];
    let position = CgpPosition { board, racks, scores, zero_turns, lexicon: None };
    let game = Game::from_position(variant, &position, 1).unwrap();
    assert!(game.bag().is_empty());
    game
}

/// The play `level` makes, as its notation and whether it goes out.
fn decide(game: &Game, level: Level, seed: u64) -> (String, bool) {
    let graph = builtin_graph(game.setup().variant);
    let robot = LevelRobot::new(level, game, graph);
    let d = robot.decide(&RobotView::new(game), &mut seeded(seed), &mut Rounds(64));
    let mut check = game.clone();
    check.play(graph, Seat(0), &d.mv, Timestamp(0)).expect("the robot's move is legal");
    match d.play {
        Some(p) => (format!("{} {}", p.coordinate(), p.notation(game.rules())), goes_out(&p, game.rack(Seat(0)))),
        None => ("pass".to_string(), false),
    }
}

/// The position in spirit: `I ?` with the bag empty. Static equity keeps the blank; the
/// endgame goes out.
#[test]
fn with_i_and_a_blank_every_level_and_the_hint_go_out() {
    let variant = TileVariant::ScrabbleEn;
    let game = endgame_position(variant, &[("M2", Direction::Across, "AT")], "I?", "QV");
    let rules = game.rules();
    let graph = builtin_graph(variant);
    let generator = MoveGenerator::new(rules, graph);
    let leave = LeaveTable::heuristic(rules);
    let by_equity = generator.top(game.board(), game.rack(Seat(0)), 1, Ranking::Equity(&leave));
    assert!(!goes_out(&by_equity[0], game.rack(Seat(0))), "static equity keeps the blank: {}", by_equity[0].notation(rules));
    let hint = endgame::ranked(&game, &generator, Seat(0), 5, &leave);
    assert!(goes_out(&hint[0], game.rack(Seat(0))), "{}", hint[0].notation(rules));
    // Going out gains twice the opponent's 14 points.
    assert_eq!(hint[0].equity, 1000 * (hint[0].score + 28));
    for level in [Level::Medium, Level::Hard] {
        let (play, out) = decide(&game, level, 1);
        assert!(out, "{level:?} played {play}");
    }
    let out = (0..20).filter(|&s| decide(&game, Level::Easy, s).1).count();
    assert!(out >= 15, "easy went out in {out} of 20");
}

/// The board words of the hand-built positions, per variant (nouns, for Эрудит).
fn words(variant: TileVariant) -> Vec<(&'static str, Direction, &'static str)> {
    use Direction::{Across, Down};
    match variant {
        TileVariant::ScrabbleEn => vec![("B2", Across, "HOME"), ("E1", Down, "OPEN")],
        TileVariant::ScrabbleRu => vec![
            ("B2", Across, "ДОМ"),
            ("C1", Down, "КОТ"),
            ("G2", Across, "ЛЕС"),
            ("B6", Across, "РАК"),
            ("J3", Down, "СОК"),
            ("E8", Across, "НОРА"),
        ],
        // 131 tiles: the filler reaches row 8, so the words stay above it.
        TileVariant::Erudit => {
            vec![("B2", Across, "ДОМ"), ("C1", Down, "КОТ"), ("G2", Across, "ЛЕС"), ("B5", Across, "РАК"), ("J2", Down, "СОК")]
        }
    }
}

/// The hard level's choice differs from the static one (medium's) and is the solved value's:
/// `static_play` and `hard_play` as "coord notation".
fn hard_differs(variant: TileVariant, mine: &str, theirs: &str, static_play: &str, hard_play: &str) -> Game {
    let game = endgame_position(variant, &words(variant), mine, theirs);
    let graph = builtin_graph(variant);
    let generator = MoveGenerator::new(game.rules(), graph);
    let ranked = endgame::ranked(&game, &generator, Seat(0), usize::MAX, &LeaveTable::heuristic(game.rules()));
    let solution = endgame::solve(&game, &generator, &ranked, &mut Rounds(64)).unwrap();
    assert!(solution.exact, "{variant}: solved to the end ({} plies)", solution.depth);
    assert_eq!(decide(&game, Level::Medium, 1).0, static_play, "{variant} {mine}/{theirs}: medium");
    assert_eq!(decide(&game, Level::Hard, 1).0, hard_play, "{variant} {mine}/{theirs}: hard");
    game
}

/// The opponent's best answer after `play` ("coord notation") by the player to move.
fn threat_after(game: &Game, play: &str) -> i32 {
    let rules = game.rules();
    let generator = MoveGenerator::new(rules, builtin_graph(game.setup().variant));
    let p = generator
        .all(game.board(), game.rack(Seat(0)))
        .into_iter()
        .find(|p| format!("{} {}", p.coordinate(), p.notation(rules)) == play)
        .unwrap();
    let mut board = game.board().clone();
    for pl in p.placements() {
        board.place(pl);
    }
    endgame::best_reply(rules, &generator, &board, game.rack(Seat(1)), endgame::rack_points(rules, &p.leave(game.rack(Seat(0)))))
}

#[test]
fn keeping_a_tile_beats_going_out_when_the_opponent_is_stuck() {
    // Going out now scores less than a strong play now and going out next turn, while the
    // opponent's last tile has nowhere to go.
    hard_differs(TileVariant::ScrabbleEn, "JE", "Q", "C1 J.E", "C1 J.");
    hard_differs(TileVariant::ScrabbleRu, "АО", "Щ", "I1 О.А", "6A А...");
    hard_differs(TileVariant::Erudit, "ЖЦ", "Щ", "H1 Ц.Ж", "H2 .Ж");
}

#[test]
fn blocking_the_opponents_way_out_beats_scoring() {
    for (variant, mine, theirs, static_play, hard_play) in [
        (TileVariant::ScrabbleEn, "UVW", "JA", "C1 V.W", "B1 U."),
        (TileVariant::ScrabbleRu, "АУ", "ЖУ", "3I У.", "1B У."),
        (TileVariant::Erudit, "АУ", "ЖУ", "5B ...А", "1B У."),
    ] {
        let game = hard_differs(variant, mine, theirs, static_play, hard_play);
        assert!(threat_after(&game, hard_play) < threat_after(&game, static_play), "{variant}: the hard play blocks");
    }
}

#[test]
fn going_out_with_a_blank_in_the_russian_variants() {
    for variant in [TileVariant::ScrabbleRu, TileVariant::Erudit] {
        let game = endgame_position(variant, &[("B2", Direction::Across, "ДОМ"), ("C1", Direction::Down, "КОТ")], "А?", "ЩФ");
        for level in [Level::Medium, Level::Hard] {
            let (play, out) = decide(&game, level, 1);
            assert!(out, "{variant} {level:?} played {play}");
        }
    }
}

#[test]
fn out_of_budget_the_search_falls_back_and_three_seats_are_weighed_apart() {
    let variant = TileVariant::ScrabbleEn;
    let game = endgame_position(variant, &words(variant), "JE", "Q");
    let graph = builtin_graph(variant);
    let generator = MoveGenerator::new(game.rules(), graph);
    let ranked = endgame::ranked(&game, &generator, Seat(0), usize::MAX, &LeaveTable::heuristic(game.rules()));
    // No iteration allowed: no solution; the hard robot then plays the static best.
    assert_eq!(endgame::solve(&game, &generator, &ranked, &mut Rounds(0)), None);
    let robot = LevelRobot::new(Level::Hard, &game, graph);
    let d = robot.decide(&RobotView::new(&game), &mut seeded(1), &mut Rounds(0));
    assert_eq!(d.play.map(|p| p.notation(game.rules())), Some("J.E".to_string()));
    // One iteration: a one-ply search, which already sees the settlement of going out.
    let one = endgame::solve(&game, &generator, &ranked, &mut Rounds(1)).unwrap();
    assert_eq!((one.depth, one.exact), (1, false));
    // Three seats: going out gains twice what both opponents hold, each on its own rack.
    let table = table_position(variant, &[("M2", Direction::Across, "AT")], "I?", &["QV", "ZX"]);
    let hint = endgame::ranked(&table, &generator, Seat(0), 1, &LeaveTable::heuristic(table.rules()));
    assert_eq!(hint[0].equity, 1000 * (hint[0].score + 2 * (14 + 18)));
    let (play, out) = decide(&table, Level::Hard, 1);
    assert!(out, "three seats: hard played {play}");
}

/// The hard level passed scoring plays away against a stuck opponent (an Эрудит endgame: rack
/// КОО with nowhere to go, a 4-point play at hand, two passes, the game over 5 points worse). One
/// pass from the scoreless end, with the opponent stuck and holding more points, a pass ends the
/// game at once ahead, and a search cut at its horizon saw nothing better; a play is better
/// still. Every level plays, on a budget of one iteration, three, or the whole search.
#[test]
fn no_level_passes_a_scoring_play_away_against_a_stuck_opponent() {
    // Before the fix, hard on three rounds passed in each of these.
    for (variant, mine, theirs) in
        [(TileVariant::ScrabbleEn, "IIU", "QVVC"), (TileVariant::ScrabbleRu, "ОПЫ", "ЪЩЦ"), (TileVariant::Erudit, "ОПЫ", "ЪЩЦ")]
    {
        let rules = variant.rules();
        let limit = rules.end.limit(2);
        let game = table_position_after(variant, &words(variant), mine, &[theirs], limit - 1);
        let graph = builtin_graph(variant);
        let generator = MoveGenerator::new(rules, graph);
        assert!(generator.all(game.board(), game.rack(Seat(1))).is_empty(), "{variant}: the opponent is stuck");
        let ranked = endgame::ranked(&game, &generator, Seat(0), usize::MAX, &LeaveTable::heuristic(rules));
        assert!(ranked.iter().any(|p| p.score > 0 && !goes_out(p, game.rack(Seat(0)))), "{variant}: a scoring play that keeps tiles");
        let pass = endgame::solve(&game, &generator, &[], &mut Rounds(64)).unwrap();
        let best = endgame::solve(&game, &generator, &ranked, &mut Rounds(64)).unwrap();
        assert!(
            best.exact && best.play.is_some() && best.value > pass.value,
            "{variant}: playing is worth more ({} > {})",
            best.value,
            pass.value
        );
        for rounds in [1, 3, 64] {
            let robot = LevelRobot::new(Level::Hard, &game, graph);
            let d = robot.decide(&RobotView::new(&game), &mut seeded(1), &mut Rounds(rounds));
            assert!(d.play.is_some_and(|p| p.score > 0), "{variant}: hard on {rounds} rounds: {:?}", d.mv);
        }
        for level in [Level::Easy, Level::Medium] {
            assert_ne!(decide(&game, level, 1).0, "pass", "{variant} {level:?}");
        }
    }
}

/// Over 2,000 seeded endgame positions (self-play by the medium level to an empty bag, then
/// the endgame played out by the hard level on a budget of three iterations, as tight as a
/// loaded request, every decision checked): every pass by hard while a scoring play exists is
/// the search's own choice to the end of the game, where passing is worth strictly more than
/// every play.
#[test]
fn every_pass_by_hard_in_an_endgame_is_worth_more_than_every_play() {
    let seed0 = std::env::var("ENDGAME_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7_000u64);
    println!("ENDGAME_SEED={seed0}");
    let mut positions = 0;
    for (k, variant) in [TileVariant::ScrabbleEn, TileVariant::ScrabbleRu, TileVariant::Erudit].into_iter().enumerate() {
        let graph = builtin_graph(variant);
        let generator = MoveGenerator::new(variant.rules(), graph);
        let leave = LeaveTable::heuristic(variant.rules());
        let mut seed = seed0 + 1_000 * k as u64;
        let mut found = 0;
        while found < 667 {
            seed += 1;
            let mut game = Game::new(variant, 2, seed).unwrap();
            let mut rng = seeded(seed);
            while !game.is_over() {
                let seat = game.to_move();
                let endgame = game.bag().is_empty();
                let level = if endgame { Level::Hard } else { Level::Medium };
                let d = LevelRobot::new(level, &game, graph).decide(&RobotView::new(&game), &mut rng, &mut Rounds(3));
                if endgame {
                    found += 1;
                    let ranked = endgame::ranked(&game, &generator, seat, usize::MAX, &leave);
                    if d.play.is_none() && ranked.iter().any(|p| p.score > 0) {
                        let solved = endgame::solve(&game, &generator, &ranked, &mut Rounds(3)).unwrap();
                        assert!(
                            solved.exact && solved.play.is_none() && solved.best_play.is_none_or(|(_, v)| solved.value > v),
                            "{variant} seed {seed} move {} (ENDGAME_SEED={seed0}): hard passed a scoring play away: {solved:?}",
                            game.move_count()
                        );
                    }
                }
                game.play(graph, seat, &d.mv, Timestamp(0)).unwrap();
            }
        }
        positions += found;
    }
    assert!(positions >= 2_000, "{positions}");
}
