//! Property tests over seeded random games: tile conservation after every move, replay equals
//! live play, and a refused move changes nothing.
//!
//! Plays come from the brute-force enumerator over a tiny word list, so every game mixes plays,
//! passes and exchanges cheaply.

use crate::common::{all_tiles, inputs};
use engine::brute::BruteForce;
use engine::{Game, PlacementInput, Seat, TileInput, TileMove, TileVariant, Timestamp, WordList, replay};
use proptest::prelude::*;

const EN: &str = "at ta an na in it is si on no to or re er ed de be ab ad am ma me em he eh hi ha ho oh so us up \
ox ex xi ax ay ya yo oy we ow go by my cat act tan ant art rat tar tea eat ate sea set ten net nit tin tie \
ion one eon ore roe toe sit its tis rot tor rose sore toes tones stone notes onset star rats arts tars tears \
rates stare aster rain train stain satin inert inter nitre tire rite tier site ties dine dire ride red rid \
lid old led lot slot lost lose sole role lore oil soil toil coil coin icon con cot cots cost scot dots";
const RU: &str = "кот ток тот он она оно нота тон рот тор сон нос рак рок ар ас да нет ель лес сор рост торт \
сорт нора рана сани сад вода дом ром мир мера река рука лук лак кол кит ток тесто место сито нить мина \
вина вино лето тело село соль роль пол пора пар пир перо ира ион иск кино окно осел сено стена трон";

fn lexicon(variant: TileVariant) -> WordList {
    let text = if variant == TileVariant::ScrabbleEn { EN } else { RU };
    WordList::parse(variant.rules(), &text.split_whitespace().collect::<Vec<_>>().join("\n")).unwrap()
}

/// The exchange of a seat's first `n` rack tiles.
fn exchange(game: &Game, seat: Seat, n: usize) -> TileMove {
    let tiles = game.rack(seat).tiles().take(n.max(1)).map(|t| TileInput::from_rack_tile(game.rules(), t)).collect();
    TileMove::Exchange { tiles }
}

fn garbage() -> impl Strategy<Value = Vec<PlacementInput>> {
    let square = prop_oneof!["[A-O](1[0-5]|[1-9])", "[A-Q][0-9]{1,2}", ".{0,3}",];
    let input =
        (square, proptest::option::of(prop_oneof![Just('A'), Just('E'), Just('S'), Just('К'), Just('О'), any::<char>()]), any::<bool>())
            .prop_map(|(square, letter, blank)| PlacementInput { square, letter, blank });
    proptest::collection::vec(input, 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn tiles_are_conserved_and_replay_equals_live_play(
        variant in prop::sample::select(TileVariant::ALL.to_vec()),
        seats in 2usize..=4,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u16>(), 10..60),
        junk in proptest::collection::vec(garbage(), 4),
        no_repeat in any::<bool>(),
    ) {
        let words = lexicon(variant);
        let brute = BruteForce::new(&words);
        let rules = variant.rules();
        let mut game = Game::from_setup(&engine::Setup { variant, seats, seed, no_repeat_words: no_repeat, challenge: Default::default() }).unwrap();
        let now = Timestamp(0);
        for (i, &c) in choices.iter().enumerate() {
            if game.is_over() {
                break;
            }
            let seat = game.to_move();
            // A junk move is refused or legal; refused, it leaves the game untouched.
            let probe = TileMove::Play { placements: junk[i % junk.len()].clone() };
            let before = game.clone();
            if game.check(&words, seat, &probe, now).is_err() {
                prop_assert!(game.play(&words, seat, &probe, now).is_err());
                prop_assert_eq!(&game, &before);
            }
            let mv = match c % 12 {
                0 => TileMove::Pass,
                1 if rules.exchange_allowed(usize::from(c / 12 % 7) + 1, game.bag().len()) => exchange(&game, seat, usize::from(c / 12 % 7) + 1),
                _ => {
                    // The brute-force plays follow standard rules; with the no-repeat rule on,
                    // take the first from the chosen one on that the game accepts.
                    let plays = brute.plays(rules, game.board(), game.rack(seat));
                    let n = plays.len().max(1);
                    (0..plays.len())
                        .map(|k| TileMove::Play { placements: inputs(rules, &plays[(usize::from(c) + k) % n].placements) })
                        .find(|mv| game.check(&words, seat, mv, now).is_ok())
                        .unwrap_or(TileMove::Pass)
                }
            };
            let entry = game.play(&words, seat, &mv, now).map_err(|r| TestCaseError::fail(format!("generated move refused: {r}")))?.clone();
            prop_assert_eq!(entry.seat, seat);
            prop_assert_eq!(all_tiles(&game), rules.full_set());
            prop_assert!(game.rack(seat).len() <= rules.rack_size);
        }
        let rebuilt = replay(game.setup(), game.journal()).unwrap();
        prop_assert_eq!(&rebuilt, &game);
        let json = serde_json_round_trip(game.journal());
        prop_assert_eq!(replay(game.setup(), &json).unwrap(), game);
    }
}

fn serde_json_round_trip(journal: &[engine::JournalEntry]) -> Vec<engine::JournalEntry> {
    let text = serde_json::to_string(journal).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_tampered_journal_does_not_replay() {
    let words = lexicon(TileVariant::ScrabbleEn);
    let brute = BruteForce::new(&words);
    let mut game = Game::new(TileVariant::ScrabbleEn, 2, 99).unwrap();
    while game.journal().iter().filter(|e| e.action.kind() == "play").count() < 2 && !game.is_over() {
        let seat = game.to_move();
        let plays = brute.plays(game.rules(), game.board(), game.rack(seat));
        let mv = plays.first().map_or(TileMove::Pass, |p| TileMove::Play { placements: inputs(game.rules(), &p.placements) });
        game.play(&words, seat, &mv, Timestamp(0)).unwrap();
    }
    let mut journal = game.journal().to_vec();
    let play_at = journal.iter().position(|e| e.action.kind() == "play").unwrap();
    journal[play_at].score += 1;
    assert!(matches!(replay(game.setup(), &journal), Err(engine::ReplayError::Inconsistent { .. })));
    // A recorded word that the tiles do not form, its score unchanged.
    let mut journal = game.journal().to_vec();
    if let engine::Action::Play { words, .. } = &mut journal[play_at].action {
        words[0].word.push('S');
    }
    assert!(matches!(replay(game.setup(), &journal), Err(engine::ReplayError::Inconsistent { .. })));
    let mut journal = game.journal().to_vec();
    journal.remove(0);
    assert!(matches!(replay(game.setup(), &journal), Err(engine::ReplayError::OutOfOrder { .. })));
    let mut journal = game.journal().to_vec();
    journal[0].seat = Seat(1);
    assert!(matches!(replay(game.setup(), &journal), Err(engine::ReplayError::Rejected { .. })));
}
