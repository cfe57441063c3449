//! The family contract, family by family: robots play whole games through `check` and `apply`
//! only, every robot move is accepted, a move of the other family is refused with nothing
//! changed, and the journal written (as the store keeps it: a JSON array of entries) replays to
//! the same game.

use games::{AnyGame, Budget, Families, GameError, Level, Move, Position, Stored, Timestamp, Variant};
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
        let Some(choice) = game.robot(levels[seat.index()], seed ^ u64::from(game.move_count()), budget).unwrap() else { break };
        let before = game.move_count();
        let other = match variant.family() {
            games::Family::Tile => Move::Word { word: "học sinh".into() },
            games::Family::Chain => Move::Pass,
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
    for variant in Variant::ALL {
        for seed in 1..=3u64 {
            let limit = if variant.family() == games::Family::Chain { usize::MAX } else { 30 };
            let (live, journal) = play(&families, variant, seed, limit);
            let setup = families.setup(variant, 2, seed).unwrap();
            let stored =
                Stored { variant, seats: 2, seed, no_repeat_words: setup.no_repeat_words, setup: Some(&setup.setup), journal: &journal };
            let replayed = families.replay(&stored).unwrap();
            assert_eq!(replayed.entries(), live.entries(), "{variant} {seed}");
            assert_eq!((replayed.scores(), replayed.outcome(), replayed.next_seat()), (live.scores(), live.outcome(), live.next_seat()));
            if variant.family() == games::Family::Chain {
                assert!(live.is_over(), "a chain game between robots ends");
                assert_eq!(live.outcome().unwrap().winners.len(), 1);
            }
        }
    }
}

#[test]
fn a_chain_setup_pins_its_opening_and_the_draw_of_lots_seats_one_leader() {
    let families = families();
    let a = families.setup(Variant::NoiTu, 2, 42).unwrap();
    assert!(a.setup.contains("\"opening\""), "{}", a.setup);
    assert_eq!(a, families.setup(Variant::NoiTu, 2, 42).unwrap(), "the same seed, the same opening");
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
    let draw = families.draw(Variant::NoiTu, 2, &mut Ties(0)).unwrap();
    assert_eq!(draw.leader, 1);
    assert_eq!(draw.log.len(), 6);
    assert!(draw.log.iter().all(|p| p.letter.is_none() && !p.is_blank));
}
