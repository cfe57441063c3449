//! The recorded fixture games (every `tests/data/*.json` holding a `journal`): each replays to
//! its end with the scores its journal implies, and its journal reads (by the derived decoder)
//! and writes back byte for byte.

use std::path::{Path, PathBuf};

use engine::{JournalEntry, Setup, replay};

#[derive(serde::Deserialize)]
struct Recorded {
    setup: Setup,
    journal: Vec<JournalEntry>,
}

/// Every journal fixture in `tests/data`, with its text; a new one is covered by being there.
fn fixtures() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut found: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .filter(|(_, text)| serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.get("journal").is_some()))
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no journal fixture in {}", dir.display());
    found
}

#[test]
fn every_recorded_game_replays_to_its_end() {
    for (path, text) in fixtures() {
        let r: Recorded = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = replay(&r.setup, &r.journal).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let end = game.end().unwrap_or_else(|| panic!("{}: the recorded game is complete", path.display()));
        for seat in 0..r.setup.seats {
            let played: i32 = r.journal.iter().filter(|e| e.seat.index() == seat).map(|e| e.score).sum();
            assert_eq!(game.scores()[seat], played + end.adjustments[seat], "{}", path.display());
        }
    }
}

/// Decoded and encoded again, each fixture's journal gives back the file byte for byte (written
/// as the fixtures are: pretty, keys sorted, one newline at the end), and as the store keeps it
/// (compact, the fields in the entry's order) it reads back into the same bytes.
#[test]
fn every_recorded_journal_reads_and_writes_back_byte_for_byte() {
    for (path, text) in fixtures() {
        let r: Recorded = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut document: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (entry, read) in r.journal.iter().zip(document["journal"].as_array().unwrap()) {
            assert_eq!(read["kind"], entry.action.kind(), "{}", path.display());
        }
        document["journal"] = serde_json::to_value(&r.journal).unwrap();
        let written = serde_json::to_string_pretty(&document).unwrap() + "\n";
        assert!(written == text, "{}: the journal does not write back as it was read", path.display());
        let stored = serde_json::to_string(&r.journal).unwrap();
        let again: Vec<JournalEntry> = serde_json::from_str(&stored).unwrap();
        assert_eq!(serde_json::to_string(&again).unwrap(), stored, "{}", path.display());
    }
}
