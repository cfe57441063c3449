//! The family contract, family by family: robots play whole games through `check` and `apply`
//! only, every robot move is accepted, a move of the other family is refused with nothing
//! changed, and the journal written (as the store keeps it: a JSON array of entries) replays to
//! the same game.

use games::{AnyGame, Budget, Families, GameError, Level, Move, Opponent, Position, Seat, Stored, Timestamp, Variant};
use std::sync::Arc;

fn families() -> Families {
    Families::new(Arc::new(engine::Lexicons::builtin()))
}

/// A robots' game of `variant` from `seed` through the contract, at most `limit` moves.
fn play<'a>(families: &'a Families, variant: Variant, seed: u64, limit: usize) -> (AnyGame<'a>, String) {
    let setup = families.setup(variant, 2, seed).unwrap();
    let mut game = families
        .replay(&Stored { variant, seats: 2, seed, no_repeat_words: setup.no_repeat_words, setup: Some(&setup.setup), journal: "[]" })
        .unwrap();
    let levels = [Level::Easy, Level::Medium];
    let now = Timestamp(0);
    while let Some(seat) = game.next_seat() {
        if game.move_count() as usize >= limit {
            break;
        }
        let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
        let Some(choice) = game.robot(levels[seat.index()], seed ^ u64::from(game.move_count()), budget, Opponent::Robot).unwrap() else {
            break;
        };
        let before = game.move_count();
        let other = match variant.family() {
            games::Family::TILE => Move::Word { word: "học sinh".into() },
            _ => Move::Pass,
        };
        assert!(matches!(game.check(seat, &other, now), Err(GameError::WrongFamily { .. })));
        let checked = game.check(seat, &choice.mv, now).unwrap_or_else(|e| panic!("a robot's move is legal: {e}"));
        let entry = game.apply(checked);
        assert_eq!((entry.move_no(), entry.seat()), (before, seat));
    }
    let journal = format!("[{}]", game.entries().iter().map(games::Entry::to_json).collect::<Vec<_>>().join(","));
    (game, journal)
}

#[test]
fn robots_play_every_family_through_the_contract_and_the_journal_replays_to_the_same_game() {
    let families = families();
    for variant in Variant::SHIPPED {
        for seed in 1..=3u64 {
            let limit = if variant.family() == games::Family::CHAIN { usize::MAX } else { 30 };
            let (live, journal) = play(&families, variant, seed, limit);
            let setup = families.setup(variant, 2, seed).unwrap();
            let stored =
                Stored { variant, seats: 2, seed, no_repeat_words: setup.no_repeat_words, setup: Some(&setup.setup), journal: &journal };
            let replayed = families.replay(&stored).unwrap();
            assert_eq!(replayed.entries(), live.entries(), "{variant} {seed}");
            assert_eq!((replayed.scores(), replayed.outcome(), replayed.next_seat()), (live.scores(), live.outcome(), live.next_seat()));
            if variant.family() == games::Family::CHAIN {
                assert!(live.is_over(), "a chain game between robots ends");
                assert_eq!(live.outcome().unwrap().winners.len(), 1);
            }
        }
    }
}

#[test]
fn a_chain_setup_pins_its_opening_and_the_draw_of_lots_seats_one_leader() {
    let families = families();
    let a = families.setup(Variant::NOI_TU, 2, 42).unwrap();
    assert!(a.setup.contains("\"opening\""), "{}", a.setup);
    assert_eq!(a, families.setup(Variant::NOI_TU, 2, 42).unwrap(), "the same seed, the same opening");
    struct Ties(u32);
    impl games::Entropy for Ties {
        fn pick(&mut self, _n: usize) -> usize {
            self.0 += 1;
            // Two ties, then the second participant draws lower.
            match self.0 {
                1..=4 => 3,
                5 => 7,
                _ => 1,
            }
        }
    }
    let draw = families.draw(Variant::NOI_TU, 2, &mut Ties(0)).unwrap();
    assert_eq!(draw.leader, 1);
    assert_eq!(draw.log.len(), 6);
    assert!(draw.log.iter().all(|p| p.letter.is_none() && !p.is_blank));
}

#[test]
fn a_chain_word_is_shown_as_typed_and_a_robots_in_the_usual_spelling() {
    let families = families();
    let setup = r#"{"seed":1,"seats":2,"options":{"word_list":"everyday"},"opening":"cao quí"}"#;
    let stored = Stored { variant: Variant::NOI_TU, seats: 2, seed: 1, no_repeat_words: None, setup: Some(setup), journal: "[]" };
    let mut game = families.replay(&stored).unwrap();
    let now = Timestamp(0);
    let view = game.view(None);
    // The opening in the usual spelling whatever the setup wrote.
    assert_eq!((view.json()["opening"].as_str(), view.json()["syllable"].as_str()), (Some("cao quý"), Some("quý")));
    // A wrong link quotes the input as typed.
    let Err(GameError::Rejected(r)) = game.check(Seat(0), &Move::Word { word: "Hòa  Bình".into() }, now) else { panic!("refused") };
    assert!(r.message.contains("\"hòa\""), "{}", r.message);
    let typed = Move::Word { word: "QUÍ  BÁU".into() };
    let score = game.preview(&game.check(Seat(0), &typed, now).unwrap());
    assert_eq!(score.json()["word"].as_str(), Some("quí báu"));
    let c = game.check(Seat(0), &typed, now).unwrap();
    let entry = game.apply(c);
    assert!(entry.to_json().contains(r#""word":"quí báu","spelled":"quí báu""#), "{}", entry.to_json());
    // The robot answers in the usual spelling, and its word is shown so.
    let mv = game.robot(Level::Hard, 3, Budget::Counted { rounds: 1, nodes: 2_000 }, Opponent::Person).unwrap().unwrap();
    let Move::Word { word } = &mv.mv else { panic!("a word") };
    let c = game.check(Seat(1), &mv.mv, now).unwrap();
    game.apply(c);
    let view = game.view(None);
    let chain = view.json()["chain"].as_array().unwrap();
    assert_eq!(chain.iter().map(|l| l["word"].as_str().unwrap()).collect::<Vec<_>>(), ["quí báu", word.as_str()]);
    assert_eq!(chain[0]["ends_on"], "báu");
    assert_eq!(noitu::Dictionary::builtin().display(noitu::Dictionary::builtin().lookup(&noitu::normalize(word).unwrap()).unwrap()), word);
    // Hints too.
    for h in game.hints(Seat(0), 5, Budget::Counted { rounds: 1, nodes: 2_000 }).unwrap_or_default() {
        let word = h.json()["word"].as_str().unwrap();
        let dict = noitu::Dictionary::builtin();
        assert_eq!(dict.display(dict.lookup(&noitu::normalize(word).unwrap()).unwrap()), word);
    }
}

/// A tile game under the single rule from `seed` with the first seat's two-tile play laid: a
/// phony (`phony`) or a word, then as the contract replays it.
fn laid<'a>(families: &'a Families, seed: u64, phony: bool) -> Option<AnyGame<'a>> {
    use engine::Lexicon;
    let variant = Variant::SCRABBLE_EN;
    let setup = families.setup_with(variant, 2, seed, games::ChallengeRule::Single).unwrap();
    let mut game = families
        .replay(&Stored { variant, seats: 2, seed, no_repeat_words: setup.no_repeat_words, setup: Some(&setup.setup), journal: "[]" })
        .unwrap();
    let state = game.state();
    let tile: &engine::Game = state.get();
    let rules = tile.rules();
    let graph = engine::builtin_graph(engine::TileVariant::ScrabbleEn);
    let rack: Vec<char> = tile
        .rack(Seat(0))
        .tiles()
        .filter_map(|t| match t {
            engine::RackTile::Letter(l) => Some(rules.char_of(l)),
            engine::RackTile::Blank => None,
        })
        .collect();
    let (a, b) = rack
        .iter()
        .enumerate()
        .flat_map(|(i, a)| rack.iter().enumerate().filter(move |(j, _)| *j != i).map(move |(_, b)| (*a, *b)))
        .find(|(a, b)| engine::lexicon::encode(rules, &format!("{a}{b}")).is_some_and(|l| graph.contains(&l)) != phony)?;
    let mv: Move = serde_json::from_value(
        serde_json::json!({"kind": "play", "placements": [{"square": "H8", "letter": a}, {"square": "I8", "letter": b}]}),
    )
    .unwrap();
    let checked = game.check(Seat(0), &mv, Timestamp(0)).unwrap();
    game.apply(checked);
    Some(game)
}

#[test]
fn robots_challenge_phonies_by_level_and_never_a_valid_play() {
    // Measured over 400 phonies and 400 valid plays (seeds 0..400): hard challenges every
    // phony, medium 6 in 8 (by its seed), easy none; no robot challenges a valid play.
    let families = families();
    let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
    for (level, low, high) in [(Level::Hard, 400, 400), (Level::Medium, 260, 340), (Level::Easy, 0, 0)] {
        let (mut phonies, mut challenged, mut valid_challenged) = (0, 0, 0);
        for seed in 0..400u64 {
            if let Some(game) = laid(&families, seed, true) {
                phonies += 1;
                let choice = game.robot(level, seed, budget, Opponent::Person).unwrap().unwrap();
                challenged += usize::from(choice.mv == Move::Challenge);
            }
            if let Some(game) = laid(&families, seed, false) {
                let choice = game.robot(level, seed, budget, Opponent::Person).unwrap().unwrap();
                valid_challenged += usize::from(choice.mv == Move::Challenge);
            }
        }
        assert_eq!(phonies, 400, "every rack holds a phony pair");
        assert!((low..=high).contains(&challenged), "{level:?} challenged {challenged} of {phonies} phonies");
        assert_eq!(valid_challenged, 0, "{level:?} challenged a valid play");
        eprintln!("{level:?}: challenged {challenged} of {phonies} phonies, 0 valid plays");
    }
}

/// A phony made from a valid play's placements: two of its tiles' letters swapped, when that
/// forms a word the list lacks.
fn swapped_phony(families: &Families, game: &AnyGame<'_>, placements: &[engine::PlacementInput]) -> Option<Move> {
    if game.variant().family() != games::Family::TILE {
        return None;
    }
    let graph = engine::builtin_graph(engine::TileVariant::ScrabbleEn);
    for i in 0..placements.len() {
        for j in i + 1..placements.len() {
            if placements[i].letter == placements[j].letter || placements[i].blank || placements[j].blank {
                continue;
            }
            let mut p = placements.to_vec();
            let (a, b) = (p[i].letter, p[j].letter);
            (p[i].letter, p[j].letter) = (b, a);
            let mv = Move::Play { placements: p };
            let Ok(checked) = game.check(game.to_move(), &mv, Timestamp(0)) else { continue };
            let mut probe = families.resume(game.variant(), &game.state()).unwrap();
            probe.apply(checked);
            let invalid = probe.state().get::<engine::Game>().open_play_valid(graph) == Some(false);
            if invalid {
                return Some(mv);
            }
        }
    }
    None
}

#[test]
fn over_whole_games_a_phony_playing_player_meets_each_level_s_challenges() {
    // A test player that lays a phony (its best play with two letters swapped, when that makes
    // a word the list lacks) whenever the game's entry count is a multiple of three, and
    // otherwise its best play, against each level under the single rule, over whole games
    // (seeds 0..6, at most 120 entries each): how many of its phonies each level challenged,
    // and how many of its valid plays.
    let families = families();
    let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
    for (level, all, none) in [(Level::Hard, true, false), (Level::Medium, false, false), (Level::Easy, false, true)] {
        let (mut phonies, mut caught, mut valid, mut valid_challenged) = (0, 0, 0, 0);
        for seed in 0..6u64 {
            let variant = Variant::SCRABBLE_EN;
            let setup = families.setup_with(variant, 2, seed, games::ChallengeRule::Single).unwrap();
            let mut game = families
                .replay(&Stored {
                    variant,
                    seats: 2,
                    seed,
                    no_repeat_words: setup.no_repeat_words,
                    setup: Some(&setup.setup),
                    journal: "[]",
                })
                .unwrap();
            let mut last_phony = false;
            for turn in 0..120 {
                let Some(seat) = game.next_seat() else { break };
                let mv = if seat == Seat(0) {
                    if game.view(None).json()["end_pending"] == true {
                        let refused = game.hints(seat, 1, budget);
                        assert!(matches!(&refused, Err(GameError::Rejected(r)) if r.code == "challenge_window"), "{refused:?}");
                        Move::Accept
                    } else {
                        let hints = game.hints(seat, 1, budget).unwrap_or_default();
                        let best: Option<Vec<engine::PlacementInput>> =
                            hints.first().map(|h| serde_json::from_value(h.json()["placements"].clone()).unwrap());
                        let phony = best.as_ref().filter(|_| turn % 3 == 0).and_then(|p| swapped_phony(&families, &game, p));
                        last_phony = phony.is_some();
                        phony.or_else(|| best.map(|placements| Move::Play { placements })).unwrap_or(Move::Pass)
                    }
                } else {
                    let choice = game.robot(level, seed ^ u64::from(game.move_count()), budget, Opponent::Person).unwrap().unwrap();
                    choice.mv
                };
                let by_player = seat == Seat(0) && matches!(mv, Move::Play { .. });
                if seat == Seat(1) && mv == Move::Challenge {
                    if last_phony {
                        caught += 1;
                    } else {
                        valid_challenged += 1;
                    }
                }
                let checked = game.check(seat, &mv, Timestamp(0)).unwrap_or_else(|e| panic!("seed {seed} turn {turn}: {e:?}"));
                game.apply(checked);
                if by_player {
                    if last_phony {
                        phonies += 1;
                    } else {
                        valid += 1;
                    }
                }
            }
        }
        eprintln!("{level:?}: challenged {caught} of {phonies} phonies and {valid_challenged} of {valid} valid plays");
        assert!(phonies >= 10, "{level:?}: only {phonies} phonies laid");
        assert_eq!(valid_challenged, 0, "{level:?} challenged a valid play");
        if all {
            assert_eq!(caught, phonies, "hard challenges every phony");
        }
        if none {
            assert_eq!(caught, 0, "easy challenges none");
        }
        if !all && !none {
            assert!(caught > 0 && caught < phonies, "medium challenges most, not all: {caught} of {phonies}");
        }
    }
}
