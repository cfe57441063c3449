//! The recorded fixture game replays to its end with the scores its journal implies.

use engine::{JournalEntry, Setup, TileEndReason, TileVariant, replay};

#[derive(serde::Deserialize)]
struct Recorded {
    setup: Setup,
    journal: Vec<JournalEntry>,
}

#[test]
fn the_recorded_game_replays_to_its_end() {
    let r: Recorded = serde_json::from_str(include_str!("data/game-en-2p.json")).unwrap();
    assert_eq!(r.setup.variant, TileVariant::ScrabbleEn);
    assert!(r.journal.len() >= 20);
    let game = replay(&r.setup, &r.journal).unwrap();
    let end = game.end().expect("the recorded game is complete");
    assert!(matches!(end.reason, TileEndReason::WentOut { .. }));
    for seat in 0..2 {
        let played: i32 = r.journal.iter().filter(|e| e.seat.index() == seat).map(|e| e.score).sum();
        assert_eq!(game.scores()[seat], played + end.adjustments[seat]);
    }
    assert!(game.bag().is_empty());
}

/// The committed journal reads (by the derived decoder) into entries that write back as exactly
/// the fields it holds, and a journal written once writes the same bytes after a read.
#[test]
fn the_recorded_journal_reads_and_writes_back_unchanged() {
    let r: serde_json::Value = serde_json::from_str(include_str!("data/game-en-2p.json")).unwrap();
    let entries = r["journal"].as_array().unwrap();
    for stored in entries {
        let entry: JournalEntry = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(&serde_json::to_value(&entry).unwrap(), stored);
        assert_eq!(stored["kind"], entry.action.kind());
    }
    let journal: Vec<JournalEntry> = serde_json::from_value(r["journal"].clone()).unwrap();
    let written = serde_json::to_string(&journal).unwrap();
    let again: Vec<JournalEntry> = serde_json::from_str(&written).unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), written);
}
