//! The toy third family (`families/toy.rs`, shared with the service's tests) keeps the contract's
//! laws as Scrabble and Nối từ do.

#[path = "families/toy.rs"]
mod toy;

use std::sync::Arc;

use games::{
    Budget, Checked, Entry, Families, FamilyRules, GameError, Level, Move, Opponent, PageSeat, Seat, Stored, Timestamp, Variant, Viewer,
};
use toy::{TOY, ToyRules};
use vocabulary::ChallengeRule;

/// The contract's laws for one family's games from `seed`: robots play through `check` and
/// `apply` only and every robot move is accepted; another family's move is refused with nothing
/// changed; the journal as the store keeps it replays to the same game, and a kept state resumes
/// to it; each entry's view carries its kind; views, hints, scores and the timeline are the
/// family's JSON; the replay page gets a stage and a line per move; the analysis sums each seat.
fn contract_laws(rules: &dyn FamilyRules, variant: Variant, seed: u64, foreign: &Move, limit: u32) {
    let setup = rules.setup(variant, 2, seed, ChallengeRule::Void).unwrap();
    let stored = |journal| Stored { variant, seats: 2, seed, no_repeat_words: setup.no_repeat_words, setup: Some(&setup.setup), journal };
    let mut game = rules.replay(&stored("[]")).unwrap();
    let now = Timestamp(0);
    let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
    while !game.is_over() && game.move_count() < limit {
        let seat = game.to_move();
        assert!(game.view(Some(seat)).json().is_object(), "{variant} {seed}: a view is an object");
        assert!(game.hints(seat, 3, budget).unwrap().iter().all(|h| h.json().is_object()));
        let before = game.move_count();
        assert!(matches!(game.check(seat, foreign, now), Err(GameError::WrongFamily { .. })));
        assert_eq!(game.move_count(), before, "a refusal changes nothing");
        let Some(choice) = game.robot(Level::Hard, seed ^ u64::from(before), budget, Opponent::Robot).unwrap() else { break };
        let checked = game.check(seat, &choice.mv, now).unwrap_or_else(|e| panic!("{variant} {seed}: a robot's move is legal: {e}"));
        assert!(game.preview(&checked).json().is_object());
        let entry = game.apply(checked);
        assert_eq!((entry.move_no(), entry.seat()), (before, seat));
        let shown = serde_json::to_value(game.entry_view(before, Viewer::Public).unwrap()).unwrap();
        assert_eq!(shown["kind"], entry.kind().id(), "{variant} {seed}: the view names the entry's kind");
    }
    let entries: Vec<Entry> = (0..game.move_count()).filter_map(|i| game.entry(i)).collect();
    let journal = format!("[{}]", entries.iter().map(Entry::to_json).collect::<Vec<_>>().join(","));
    let replayed = rules.replay(&stored(&journal)).unwrap();
    let replayed_entries: Vec<Entry> = (0..replayed.move_count()).filter_map(|i| replayed.entry(i)).collect();
    assert_eq!(replayed_entries, entries, "{variant} {seed}: the journal replays");
    assert_eq!((replayed.scores(), replayed.outcome(), replayed.is_over()), (game.scores(), game.outcome(), game.is_over()));
    let resumed = rules.resume(&game.state());
    assert_eq!((resumed.move_count(), resumed.scores()), (game.move_count(), game.scores()));
    let timeline = game.timeline().unwrap();
    assert_eq!(timeline.last_step(), game.move_count() as usize);
    assert_eq!(timeline.log(&|s| format!("P{s}")).len(), game.move_count() as usize);
    assert_eq!(timeline.finals(), game.scores());
    let seats = [PageSeat { seat: 0, name: "<An>", href: None }, PageSeat { seat: 1, name: "Bình", href: None }];
    let stage = timeline.stage(&seats);
    assert!(stage.body.contains("An") && !stage.body.contains("<An>"), "the stage escapes names: {}", stage.body);
    assert!(serde_json::to_value(&timeline).unwrap().is_object());
    if game.is_over() {
        assert_eq!(game.analysis().unwrap().players.len(), 2);
        assert!(game.revealed().json().is_object());
    }
}

#[test]
fn a_third_family_written_outside_the_crate_keeps_the_contract_s_laws_as_the_real_two_do() {
    let families = Families::new(Arc::new(engine::Lexicons::builtin()));
    let word = Move::Word { word: "học sinh".into() };
    for seed in 1..=2 {
        contract_laws(families.rules(games::Family::TILE).unwrap(), Variant::SCRABBLE_EN, seed, &word, 12);
        contract_laws(families.rules(games::Family::CHAIN).unwrap(), Variant::NOI_TU, seed, &Move::Pass, u32::MAX);
        let families = families.clone().with(Arc::new(ToyRules), &[TOY]).unwrap();
        contract_laws(families.rules(TOY.family()).unwrap(), TOY, seed, &Move::Exchange { tiles: Vec::new() }, u32::MAX);
    }
}

#[test]
fn the_toy_refuses_by_its_own_codes_and_ends_by_its_own_rule() {
    let setup = ToyRules.setup(TOY, 2, 0, ChallengeRule::Void).unwrap();
    let stored = Stored { variant: TOY, seats: 2, seed: 0, no_repeat_words: None, setup: Some(&setup.setup), journal: "[]" };
    let mut game = ToyRules.replay(&stored).unwrap();
    let word = |w: &str| Move::Word { word: w.into() };
    let code = |r: Result<Checked, GameError>| match r {
        Err(GameError::Rejected(r)) => r.code,
        other => panic!("{other:?}"),
    };
    assert_eq!(code(game.check(Seat(0), &word("zebra"), Timestamp(0))), "not_a_word");
    assert_eq!(code(game.check(Seat(1), &word("steam"), Timestamp(0))), "not_your_turn");
    let c = game.check(Seat(0), &word("Steam"), Timestamp(0)).unwrap();
    assert_eq!(game.apply(c).score(), 5);
    assert_eq!(code(game.check(Seat(1), &word("steam"), Timestamp(0))), "word_used");
    for _ in 0..2 {
        let c = game.check(game.to_move(), &Move::Pass, Timestamp(0)).unwrap();
        game.apply(c);
    }
    assert!(game.is_over(), "two passes in a row end it");
    assert_eq!(game.outcome().unwrap().winners, [Seat(0)]);
}

#[test]
fn a_family_is_added_once_and_no_variant_takes_another_s_id() {
    let families = Families::new(Arc::new(engine::Lexicons::builtin())).with(Arc::new(ToyRules), &[TOY]).unwrap();
    assert!(families.clone().with(Arc::new(ToyRules), &[TOY]).is_err(), "the toy is here already");
    let other = games::Family::new("other", "other", games::Clocks::TurnTimer, false);
    let impostor = Variant::new("erudit", other, 2, 2);
    let fresh = Variant::new("other-fresh", other, 2, 2);
    assert!(families.clone().with(Arc::new(ToyRules), &[fresh, impostor]).is_err());
    assert!("other-fresh".parse::<Variant>().is_err(), "a refused family admits none of its variants");
    assert!(families.clone().with(Arc::new(ToyRules), &[]).is_err());
    assert!(families.clone().with(Arc::new(ToyRules), &[fresh, TOY]).is_err(), "one family's variants");
    assert!(matches!(families.rules(other), Err(GameError::NoFamily("other"))));
    assert_eq!("toy-rack".parse::<Variant>(), Ok(TOY));
}
