//! Game flow: turns, deadlines and timeouts, resignation, and the end-of-game settlements.

use crate::common::{AnyWord, all_tiles, dump_rack};
use engine::gcg::{GcgHeader, to_gcg};
use engine::{Action, Game, Seat, TileEndReason, TileMove, TileVariant, Timestamp, replay};
use vocabulary::Lapse;

const NOW: Timestamp = Timestamp(0);

fn rack_value(game: &Game, seat: usize) -> i32 {
    game.rack(Seat(seat as u8)).tiles().map(|t| game.rules().rack_tile_value(t)).sum()
}

#[test]
fn a_new_game_deals_full_racks_seat_zero_first() {
    for variant in TileVariant::ALL {
        for seats in 2..=4 {
            let game = Game::new(variant, seats, 11).unwrap();
            let rules = variant.rules();
            let first: Vec<_> = engine::Bag::new(rules, 11).tiles().take(7).collect();
            assert_eq!(game.rack(Seat(0)).tiles().collect::<Vec<_>>().len(), 7);
            assert_eq!(*game.rack(Seat(0)), engine::Rack::from_tiles(first));
            assert_eq!(game.bag().len(), rules.tile_count() - 7 * seats);
            assert_eq!(game.to_move(), Seat(0));
            assert_eq!(all_tiles(&game), rules.full_set());
        }
    }
    assert!(Game::new(TileVariant::ScrabbleEn, 1, 0).is_err());
    assert!(Game::new(TileVariant::ScrabbleEn, 5, 0).is_err());
}

#[test]
fn six_scoreless_turns_end_scrabble_and_each_rack_is_subtracted() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 3, 5).unwrap();
    for turn in 0..6 {
        assert!(!game.is_over(), "over after {turn} passes");
        let seat = game.to_move();
        game.play(&AnyWord, seat, &TileMove::Pass, NOW).unwrap();
    }
    let end = game.end().unwrap().clone();
    assert_eq!(end.reason, TileEndReason::ScorelessTurns);
    for s in 0..3 {
        assert_eq!(end.adjustments[s], -rack_value(&game, s));
        assert_eq!(game.scores()[s], -rack_value(&game, s));
    }
}

#[test]
fn erudit_ends_when_every_player_has_passed_twice() {
    for seats in 2..=4 {
        let mut game = Game::new(TileVariant::Erudit, seats, 5).unwrap();
        for _ in 0..2 * seats {
            assert!(!game.is_over());
            let seat = game.to_move();
            game.play(&AnyWord, seat, &TileMove::Pass, NOW).unwrap();
        }
        assert_eq!(game.end().unwrap().reason, TileEndReason::ScorelessTurns);
    }
}

#[test]
fn a_scoring_play_resets_the_scoreless_count() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 2, 5).unwrap();
    for _ in 0..5 {
        let seat = game.to_move();
        game.play(&AnyWord, seat, &TileMove::Pass, NOW).unwrap();
    }
    assert_eq!(game.scoreless_turns(), 5);
    let mv = dump_rack(&game, 0);
    game.play(&AnyWord, game.to_move(), &mv, NOW).unwrap();
    assert_eq!(game.scoreless_turns(), 0);
    assert!(!game.is_over());
}

#[test]
fn going_out_adds_the_other_racks_and_subtracts_them_from_their_owners() {
    for variant in TileVariant::ALL {
        let mut game = Game::new(variant, 2, 3).unwrap();
        let mut k = 0;
        while !game.is_over() {
            let mv = dump_rack(&game, k);
            let seat = game.to_move();
            game.play(&AnyWord, seat, &mv, NOW).unwrap();
            k += 1;
        }
        let end = game.end().unwrap();
        let TileEndReason::WentOut { seat } = end.reason else { panic!("{variant}: {:?}", end.reason) };
        let other = 1 - seat.index();
        assert!(game.rack(seat).is_empty() && game.bag().is_empty());
        assert_eq!(end.adjustments[seat.index()], rack_value(&game, other));
        assert_eq!(end.adjustments[other], -rack_value(&game, other));
        let before: Vec<i32> = game.journal().iter().fold(vec![0, 0], |mut acc, e| {
            acc[e.seat.index()] += e.score;
            acc
        });
        assert_eq!(game.scores()[other], before[other] - rack_value(&game, other));
        assert_eq!(all_tiles(&game), variant.rules().full_set());
    }
}

#[test]
fn resigning_ends_the_game_and_the_resigner_never_wins() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 3, 8).unwrap();
    let mv = dump_rack(&game, 0);
    game.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    // Seat 0 leads on points, then resigns out of turn.
    game.play(&AnyWord, Seat(0), &TileMove::Resign, NOW).unwrap();
    assert_eq!(game.end().unwrap().reason, TileEndReason::Resigned { seat: Seat(0) });
    assert_eq!(game.winners(), vec![Seat(1), Seat(2)]);
}

#[test]
fn a_timeout_loses_the_turn_and_counts_as_scoreless() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 2, 8).unwrap();
    game.set_deadline(Some(Timestamp(60_000)));
    assert!(!game.is_expired(Timestamp(59_999)));
    assert!(game.is_expired(Timestamp(60_000)));
    let timeout = game.check_timeout(Timestamp(60_001), Lapse::Turn).unwrap();
    let entry = game.apply(timeout).clone();
    assert_eq!((entry.seat, entry.action, entry.score), (Seat(0), Action::Timeout, 0));
    assert_eq!(game.to_move(), Seat(1));
    assert_eq!(game.deadline(), None);
    assert_eq!(game.scoreless_turns(), 1);
    assert_eq!(replay(game.setup(), game.journal()).unwrap().journal(), game.journal());
}

#[test]
fn a_fallen_flag_loses_the_game_whatever_the_scores() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 2, 8).unwrap();
    let mv = dump_rack(&game, 0);
    game.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    assert!(game.check_timeout(Timestamp(1), Lapse::Game).is_err(), "no deadline, no flag");
    game.set_deadline(Some(Timestamp(60_000)));
    let flag = game.check_timeout(Timestamp(60_000), Lapse::Game).unwrap();
    game.apply(flag);
    assert_eq!(game.end().unwrap().reason, TileEndReason::OutOfTime { seat: Seat(1) });
    assert_eq!(game.journal().last().unwrap().action, Action::OutOfTime);
    assert_eq!(game.end().unwrap().adjustments, vec![0, 0], "no rack settlement");
    assert_eq!(game.winners(), vec![Seat(0)]);
    assert!(game.time_penalty(Seat(1), 10).is_none(), "a flag fall is penalty enough");
    let replayed = replay(game.setup(), game.journal()).unwrap();
    assert_eq!((replayed.end(), replayed.winners()), (game.end(), game.winners()));
}

#[test]
fn a_time_penalty_follows_an_end_by_the_rules_once_a_seat_and_can_change_the_winner() {
    let mut game = Game::new(TileVariant::ScrabbleEn, 2, 5).unwrap();
    let mv = dump_rack(&game, 0);
    let score = game.play(&AnyWord, Seat(0), &mv, NOW).unwrap().score;
    assert!(game.time_penalty(Seat(0), 10).is_none(), "not before the end");
    while !game.is_over() {
        let seat = game.to_move();
        game.play(&AnyWord, seat, &TileMove::Pass, NOW).unwrap();
    }
    assert_eq!(game.winners(), vec![Seat(0)]);
    let before = game.scores().to_vec();
    let lead = before[0] - before[1];
    assert!(score > 0 && lead > 0);
    let points = (lead / 10 + 1) * 10;
    let penalty = game.time_penalty(Seat(0), points).unwrap();
    let entry = game.apply(penalty).clone();
    assert_eq!((entry.seat, entry.action.clone(), entry.score), (Seat(0), Action::TimePenalty, -points));
    assert_eq!(game.scores(), &[before[0] - points, before[1]]);
    assert_eq!(game.winners(), vec![Seat(1)], "the penalty decides");
    assert!(game.time_penalty(Seat(0), 10).is_none(), "once a seat");
    assert!(game.time_penalty(Seat(1), 0).is_none(), "only positive points");
    let replayed = replay(game.setup(), game.journal()).unwrap();
    assert_eq!(replayed.scores(), game.scores());
    let names = ["Ann".to_string(), "Bob".to_string()];
    let gcg = to_gcg(game.setup(), game.journal(), &GcgHeader { id: "g", names: &names, title: "t" }).unwrap();
    let last = gcg.lines().last().unwrap();
    let rack: String = crate::common::rack_letters(&game, Seat(0)).iter().collect();
    assert_eq!(last, format!(">p1: {rack} (time) -{points} {}", game.scores()[0]), "{gcg}");
    // A penalty written where none is due does not replay.
    let mut forged = game.journal().to_vec();
    forged.push(engine::JournalEntry { move_no: forged.len() as u32, seat: Seat(0), action: Action::TimePenalty, score: -10 });
    assert!(replay(game.setup(), &forged).is_err());
}

#[test]
fn an_exchange_swaps_tiles_with_the_bag_deterministically() {
    let mut a = Game::new(TileVariant::ScrabbleEn, 2, 21).unwrap();
    let mut b = a.clone();
    let tiles: Vec<_> = crate::common::rack_letters(&a, Seat(0))[..3]
        .iter()
        .map(|&c| if c == '?' { engine::TileInput::Blank } else { engine::TileInput::Letter(c) })
        .collect();
    let mv = TileMove::Exchange { tiles };
    a.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    b.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.rack(Seat(0)).len(), 7);
    assert_eq!(a.bag().len(), 100 - 14);
    assert_eq!(all_tiles(&a), TileVariant::ScrabbleEn.rules().full_set());
}
