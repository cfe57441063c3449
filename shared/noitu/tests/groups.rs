//! Group chains: up to eight seats in seat order, lives, a round that restarts from a drawn
//! opening when a seat loses one (every word already played stays spent), seats that are out
//! skipped, the last seat left the winner; replay checks each round the game opened.

use noitu::{ChainAction, ChainEndReason, ChainReplayError, ChainSetup, Dictionary, Seat, Timestamp, WordChain, replay};

fn group(dict: &Dictionary, seats: usize, lives: Option<u32>) -> WordChain<'_> {
    WordChain::new(&ChainSetup { seats, lives, ..ChainSetup::new(11) }, dict).unwrap()
}

/// The seat to move lets its time run out.
fn time_out(g: &mut WordChain<'_>) {
    g.set_deadline(Some(Timestamp(1)));
    let checked = g.check_timeout(Timestamp(1)).unwrap();
    g.apply(checked);
}

/// The seat to move plays its first legal word.
fn answer(g: &mut WordChain<'_>) -> u32 {
    let word = g.legal_moves().next().expect("a word to play");
    let text = g.dictionary().text(word).to_string();
    let seat = g.to_move();
    g.submit(seat, &text, Timestamp(0)).unwrap().score
}

#[test]
fn three_seats_move_in_turn_and_a_lost_life_restarts_the_chain_for_the_next_seat() {
    let dict = Dictionary::builtin();
    let mut g = group(dict, 3, None);
    assert_eq!((g.seats(), g.lives(), g.round()), (3, &[3, 3, 3][..], 0), "three lives each by default");
    assert_eq!(answer(&mut g), 12);
    assert_eq!(g.to_move(), Seat(1));
    assert_eq!(answer(&mut g), 14);
    assert_eq!(g.to_move(), Seat(2));
    let spent = g.used().len();

    time_out(&mut g);
    assert_eq!((g.lives(), g.round(), g.is_over()), (&[3, 3, 2][..], 1, false));
    let round = g.journal().last().unwrap().clone();
    let ChainAction::Round { word } = &round.action else { panic!("a new round is recorded: {round:?}") };
    assert_eq!((round.seat, round.score, g.to_move()), (Seat(0), 0, Seat(0)), "for the seat after the one that lost the life");
    assert_eq!(g.current(), dict.last(dict.lookup(word).unwrap()), "the chain goes on from the new opening");
    assert_eq!((g.used().len(), g.chain()), (spent + 1, 0), "the words played stay spent; the round's chain is new");
    assert_eq!(answer(&mut g), 12, "the first answer of a round scores as a game's first");
    assert_eq!(g.scores()[0], 24);
}

#[test]
fn a_seat_with_no_lives_left_is_out_and_the_last_seat_left_wins() {
    let dict = Dictionary::builtin();
    let mut g = group(dict, 3, Some(1));
    time_out(&mut g);
    assert_eq!((g.lives(), g.to_move()), (&[0, 1, 1][..], Seat(1)), "seat 0 is out");
    answer(&mut g);
    assert_eq!(g.to_move(), Seat(2));
    answer(&mut g);
    assert_eq!(g.to_move(), Seat(1), "seat 0 is skipped");
    assert!(g.check_resign(Seat(0)).is_err(), "a seat that is out has no move");
    let resigned = g.check_resign(Seat(2)).unwrap();
    g.apply(resigned);
    assert_eq!(g.end(), Some(ChainEndReason::Resigned { seat: Seat(2) }));
    assert_eq!(g.winner(), Some(Seat(1)));
    assert!(!g.journal().iter().skip(1).any(|e| matches!(e.action, ChainAction::Round { .. }) && e.move_no > 3), "no round after the end");
}

#[test]
fn a_group_replays_exactly_and_a_round_recorded_otherwise_is_refused() {
    let dict = Dictionary::builtin();
    let mut g = group(dict, 4, Some(2));
    for turn in 0..9 {
        if turn % 3 == 2 {
            time_out(&mut g)
        } else {
            answer(&mut g);
        }
    }
    let journal = g.journal().to_vec();
    assert!(journal.iter().filter(|e| matches!(e.action, ChainAction::Round { .. })).count() >= 3, "{journal:?}");
    let again = replay(g.setup(), &journal, dict).unwrap();
    assert_eq!(again, g);

    let at = journal.iter().position(|e| matches!(e.action, ChainAction::Round { .. })).unwrap();
    let mut other = journal.clone();
    other[at].action = ChainAction::Round { word: "hoà bình".into() };
    assert!(matches!(replay(g.setup(), &other, dict), Err(ChainReplayError::Round { .. })));
    let mut missing = journal.clone();
    missing.remove(at);
    assert!(replay(g.setup(), &missing, dict).is_err(), "a round the journal leaves out");
}

#[test]
fn a_two_seat_game_keeps_one_life_and_its_stored_setup_unchanged() {
    let setup = ChainSetup::new(5);
    assert_eq!(setup.lives(), 1);
    let json = serde_json::to_string(&setup).unwrap();
    assert!(!json.contains("lives"), "{json}");
    let dict = Dictionary::builtin();
    let mut g = WordChain::new(&setup, dict).unwrap();
    time_out(&mut g);
    assert_eq!((g.end(), g.winner(), g.journal().len()), (Some(ChainEndReason::Timeout { seat: Seat(0) }), Some(Seat(1)), 1));
}
