//! The recorded fixture game replays to its end with the scores its journal implies.

use engine::{EndReason, JournalEntry, Setup, Variant, replay};

#[derive(serde::Deserialize)]
struct Recorded {
    setup: Setup,
    journal: Vec<JournalEntry>,
}

#[test]
fn the_recorded_game_replays_to_its_end() {
    let r: Recorded = serde_json::from_str(include_str!("data/game-en-2p.json")).unwrap();
    assert_eq!(r.setup.variant, Variant::ScrabbleEn);
    assert!(r.journal.len() >= 20);
    let game = replay(&r.setup, &r.journal).unwrap();
    let end = game.end().expect("the recorded game is complete");
    assert!(matches!(end.reason, EndReason::WentOut { .. }));
    for seat in 0..2 {
        let played: i32 = r.journal.iter().filter(|e| e.seat.index() == seat).map(|e| e.score).sum();
        assert_eq!(game.scores()[seat], played + end.adjustments[seat]);
    }
    assert!(game.bag().is_empty());
}
