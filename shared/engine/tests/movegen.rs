//! The move generator against the engine's own validator and the brute-force enumerator.

use std::collections::HashSet;

use crate::common::inputs;
use engine::brute::BruteForce;
use engine::lexicon::builtin_graph;
use engine::movegen::exchanges;
use engine::play::evaluate;
use engine::{
    Board, Game, LeaveTable, MoveGenerator, Placement, Rack, RackTile, Ranking, Rules, TileMove, TileVariant, Timestamp, WordGraph,
    WordList,
};
use proptest::prelude::*;

const EN: &str = "at ta an na in it is si on no to or re er ed de be ab ad am ma me em he eh hi ha ho oh so us \
ox ex xi ax ay ya yo oy we ow go by my cat act tan ant art rat tar tea eat ate sea set ten net nit tin tie \
ion one eon ore roe toe sit its tis rot tor rose sore toes tones stone notes onset star rats arts tars tears \
rates stare aster rain train stain satin inert inter nitre tire rite tier site ties dine dire ride red rid";
const RU: &str = "кот ток тот он она оно нота тон рот тор сон нос рак рок ар ас да нет ель лес сор рост торт \
сорт нора рана сани сад вода дом ром мир мера река рука лук лак кол кит тесто место сито нить мина \
вина вино лето тело село соль роль пол пора пар пир перо ион иск кино окно осел сено стена трон ёж ёлка";

fn tiny(variant: TileVariant) -> String {
    let text = if variant == TileVariant::ScrabbleEn { EN } else { RU };
    text.split_whitespace().collect::<Vec<_>>().join("\n")
}

/// A play as a comparable key: its placements sorted by square, and its score.
fn key(mut placements: Vec<Placement>, score: i32) -> (Vec<(usize, bool, usize)>, i32) {
    placements.sort_by_key(|p| p.square);
    (placements.iter().map(|p| (p.square.index(), p.tile.is_blank(), p.tile.letter().index())).collect(), score)
}

/// A position after `moves` random brute-force plays of a seeded game over `words`.
fn position(variant: TileVariant, seed: u64, moves: usize, words: &WordList) -> Game {
    let brute = BruteForce::new(words);
    let mut game =
        Game::from_setup(&engine::Setup { variant, seats: 2, seed, no_repeat_words: false, challenge: Default::default() }).unwrap();
    for i in 0..moves {
        if game.is_over() {
            break;
        }
        let seat = game.to_move();
        let plays = brute.plays(game.rules(), game.board(), game.rack(seat));
        let mv = match plays.get((seed as usize).wrapping_add(i * 7919) % plays.len().max(1)) {
            Some(p) => TileMove::Play { placements: inputs(game.rules(), &p.placements) },
            None => TileMove::Pass,
        };
        game.play(words, seat, &mv, Timestamp(0)).unwrap();
    }
    game
}

fn with_blanks(rack: &Rack, blanks: usize) -> Rack {
    let mut tiles: Vec<RackTile> = rack.tiles().collect();
    for t in tiles.iter_mut().take(blanks) {
        *t = RackTile::Blank;
    }
    Rack::from_tiles(tiles)
}

fn assert_same_plays(rules: &Rules, board: &Board, rack: &Rack, graph: &WordGraph, words: &WordList) {
    let generator = MoveGenerator::new(rules, graph);
    let generated = generator.all(board, rack);
    let got: Vec<_> = generated.iter().map(|p| key(p.placements(), p.score)).collect();
    let unique: HashSet<_> = got.iter().cloned().collect();
    assert_eq!(unique.len(), got.len(), "the generator listed a play twice");
    let want: HashSet<_> = BruteForce::new(words).plays(rules, board, rack).into_iter().map(|p| key(p.placements, p.score.total)).collect();
    let missing: Vec<_> = want.difference(&unique).take(3).collect();
    let extra: Vec<_> = unique.difference(&want).take(3).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:?}, extra {extra:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_generator_equals_brute_force_on_a_tiny_list(
        variant in prop::sample::select(TileVariant::ALL.to_vec()),
        seed in any::<u64>(),
        moves in 0usize..14,
        blanks in 0usize..3,
    ) {
        let rules = variant.rules();
        let text = tiny(variant);
        let words = WordList::parse(rules, &text).unwrap();
        let graph = WordGraph::compile(rules, &text).unwrap();
        let game = position(variant, seed, moves, &words);
        let rack = with_blanks(game.rack(game.to_move()), blanks);
        assert_same_plays(rules, game.board(), &rack, &graph, &words);
    }
}

/// A board with one row and one column in many separate groups of tiles: `row` and `col` give,
/// square by square, 0–2 for an empty square or 3+ for a letter of `letters`.
fn grouped_board(rules: &Rules, letters: &[char], r: usize, row: &[u8], c: usize, col: &[u8]) -> Board {
    let mut board = Board::new();
    let mut put = |square: Option<engine::Square>, code: u8| {
        if let Some(square) = square.filter(|&sq| code >= 3 && !board.is_occupied(sq)) {
            let letter = rules.letter(letters[usize::from(code - 3) % letters.len()]).unwrap();
            board.place(Placement { square, tile: engine::Tile::Letter(letter) });
        }
    };
    for (i, &code) in row.iter().enumerate() {
        put(engine::Square::new(r, i), code);
    }
    for (i, &code) in col.iter().enumerate() {
        put(engine::Square::new(i, c), code);
    }
    board
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Many groups on one line (and across them, a column of groups) with 0–2 blanks: the
    /// positions where an anchor has board tiles on both sides, or a run just right of it.
    #[test]
    fn the_generator_equals_brute_force_with_many_groups_on_a_line_and_blanks(
        variant in prop::sample::select(TileVariant::ALL.to_vec()),
        r in 0usize..15,
        c in 0usize..15,
        row in prop::collection::vec(0u8..7, 15),
        col in prop::collection::vec(0u8..5, 15),
        rack in prop::collection::vec(0usize..8, 7),
        blanks in 0usize..3,
    ) {
        let rules = variant.rules();
        let letters: Vec<char> = if variant == TileVariant::ScrabbleEn { "aeinorst".chars().collect() } else { "аеинорст".chars().collect() };
        let board = grouped_board(rules, &letters, r, &row, c, &col);
        let rack = Rack::from_tiles(rack.iter().enumerate().map(|(i, &k)| {
            if i < blanks { RackTile::Blank } else { RackTile::Letter(rules.letter(letters[k]).unwrap()) }
        }));
        let text = tiny(variant);
        let words = WordList::parse(rules, &text).unwrap();
        let graph = WordGraph::compile(rules, &text).unwrap();
        assert_same_plays(rules, &board, &rack, &graph, &words);
    }
}

#[test]
fn every_generated_play_validates_and_scores_the_same_with_the_full_lexicon() {
    for variant in TileVariant::ALL {
        let rules = variant.rules();
        let words = WordList::builtin(variant).unwrap();
        let generator = MoveGenerator::new(rules, builtin_graph(variant));
        let mut game =
            Game::from_setup(&engine::Setup { variant, seats: 2, seed: 77, no_repeat_words: false, challenge: Default::default() })
                .unwrap();
        let mut checked = 0;
        for turn in 0..12 {
            if game.is_over() {
                break;
            }
            let seat = game.to_move();
            let rack = if turn % 4 == 3 { with_blanks(game.rack(seat), 1) } else { *game.rack(seat) };
            let plays = generator.all(game.board(), &rack);
            for p in &plays {
                let outcome = evaluate(rules, game.board(), &rack, Some(&words), &p.placements())
                    .unwrap_or_else(|r| panic!("{variant}: {} {} refused: {r}", p.coordinate(), p.notation(rules)));
                assert_eq!(outcome.score.total, p.score, "{variant}: {} {}", p.coordinate(), p.notation(rules));
                assert_eq!(outcome.direction, p.direction);
                checked += 1;
            }
            // Move on with the best play of the real rack, so positions fill up.
            let best = generator.top(game.board(), game.rack(seat), 1, Ranking::Score);
            let mv = best.first().map_or(TileMove::Pass, |p| TileMove::Play { placements: inputs(rules, &p.placements()) });
            game.play(&words, seat, &mv, Timestamp(0)).unwrap();
        }
        assert!(checked > 1000, "{variant}: only {checked} plays checked");
    }
}

#[test]
fn top_n_is_the_head_of_all_plays_sorted() {
    // The pruned top-N search must agree with sorting every play, by score and by equity.
    for (variant, file) in [
        (TileVariant::ScrabbleEn, include_str!("data/bench-en.cgp")),
        (TileVariant::ScrabbleRu, include_str!("data/bench-ru.cgp")),
        (TileVariant::Erudit, include_str!("data/bench-erudit.cgp")),
        // Racks with one and two blanks, where the bound counts the squares only a blank fits.
        (TileVariant::ScrabbleEn, include_str!("data/bench-en-blank1.cgp")),
        (TileVariant::ScrabbleEn, include_str!("data/bench-en-blank2.cgp")),
        (TileVariant::ScrabbleRu, include_str!("data/bench-ru-blank1.cgp")),
        (TileVariant::ScrabbleRu, include_str!("data/bench-ru-blank2.cgp")),
    ] {
        let rules = variant.rules();
        let generator = MoveGenerator::new(rules, builtin_graph(variant));
        // The heuristic, and the leaves hints and robots use (fitted whole leaves in Russian).
        let (leave, standard) = (LeaveTable::heuristic(rules), LeaveTable::standard(rules));
        for line in file.lines().step_by(5).take(40) {
            let position = engine::CgpPosition::parse(rules, line).unwrap();
            let (board, rack) = (&position.board, &position.racks[0]);
            for ranking in [Ranking::Score, Ranking::Equity(&leave), Ranking::Equity(&standard)] {
                let mut all = generator.all(board, rack);
                generator.rank(rack, &mut all, ranking);
                for n in [1, 5] {
                    let top = generator.top(board, rack, n, ranking);
                    assert_eq!(top, all[..n.min(all.len())].to_vec(), "{variant} {line}");
                }
            }
        }
    }
}

#[test]
fn exchanges_are_the_distinct_submultisets_the_variant_allows() {
    let rules = TileVariant::ScrabbleEn.rules();
    let t = |c| RackTile::Letter(rules.letter(c).unwrap());
    let rack = Rack::from_tiles([t('A'), t('A'), t('B'), RackTile::Blank]);
    // (2+1) × (1+1) × (1+1) − 1 = 11 non-empty multisets.
    assert_eq!(exchanges(rules, &rack, 7).len(), 11);
    assert!(exchanges(rules, &rack, 6).is_empty());
    let er = TileVariant::Erudit.rules();
    let k = |c| RackTile::Letter(er.letter(c).unwrap());
    let rack = Rack::from_tiles([k('К'), k('О'), k('Т')]);
    assert_eq!(exchanges(er, &rack, 2).iter().filter(|r| r.len() <= 2).count(), 6);
    assert_eq!(exchanges(er, &rack, 2).len(), 6);
}
