//! Every committed journal fixture in the tree (a `.json` under a crate's `tests/` holding a game
//! with a `journal`, or a list of such games), of either family, decodes by its family's entry
//! type and encodes back unchanged: a journal kept as text (as the store keeps it) byte for byte,
//! one kept as JSON to the same value, whose compact text then reads back into the same bytes.
//! The tile fixtures' files are also checked byte for byte in the engine's `recorded` tests.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Every `.json` file under `dir`, at any depth.
fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The games a fixture holds: the document itself when it has a journal, or its items that do.
fn games(document: &Value) -> Vec<&Value> {
    match document {
        Value::Array(items) => items.iter().filter(|g| g.get("journal").is_some()).collect(),
        game if game.get("journal").is_some() => vec![game],
        _ => Vec::new(),
    }
}

/// Decodes `journal` (JSON text, or a JSON array) as entries of type `E` and checks that they
/// encode back unchanged.
fn round_trip<E: Serialize + DeserializeOwned>(journal: &Value) -> Result<(), String> {
    let text = journal.as_str().map_or_else(|| journal.to_string(), str::to_string);
    let entries: Vec<E> = serde_json::from_str(&text).map_err(|e| format!("does not decode: {e}"))?;
    let written = serde_json::to_string(&entries).unwrap();
    match journal {
        Value::String(stored) if written != *stored => return Err(format!("writes back as {written}")),
        Value::String(_) => {}
        stored if serde_json::to_value(&entries).unwrap() != *stored => return Err(format!("writes back as {written}")),
        _ => {}
    }
    let again: Vec<E> = serde_json::from_str(&written).unwrap();
    if serde_json::to_string(&again).unwrap() != written {
        return Err("its written form does not read back into the same bytes".to_string());
    }
    Ok(())
}

#[test]
fn every_committed_journal_fixture_writes_back_unchanged() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for group in ["shared", "tools"] {
        let Ok(crates) = std::fs::read_dir(root.join(group)) else { continue };
        for krate in crates {
            json_files(&krate.unwrap().path().join("tests"), &mut files);
        }
    }
    json_files(&root.join("functions/tests"), &mut files);
    json_files(&root.join("lab/tests"), &mut files);
    files.sort();
    let mut fixtures = 0;
    for path in &files {
        let document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let games = games(&document);
        fixtures += usize::from(!games.is_empty());
        for (i, game) in games.into_iter().enumerate() {
            // A tile game's setup names its variant; a chain game's (kept as text) does not.
            let setup = match &game["setup"] {
                Value::String(text) => serde_json::from_str(text).unwrap(),
                setup => setup.clone(),
            };
            let result = if setup.get("variant").is_some() {
                round_trip::<engine::JournalEntry>(&game["journal"])
            } else {
                round_trip::<noitu::ChainJournalEntry>(&game["journal"])
            };
            if let Err(e) = result {
                panic!("{} game {i}: the journal {e}", path.strip_prefix(&root).unwrap().display());
            }
        }
    }
    assert!(fixtures > 0, "no journal fixture found among {} .json files under the crates' tests", files.len());
}
