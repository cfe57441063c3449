//! `wordgame data leaves` on small budgets: the shipped fits, the same bytes on every run and
//! thread count, the bytes the research crate's fit wrote before the fits moved here, a table
//! the engine loads; `data pack-leaves` packs as the command does; bad input is one line, exit 2;
//! the tables' SOURCE note names each shipped file as it is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use engine::leave::SuperLeaves;
use engine::{LeaveTable, Rack, TileVariant};
use sha2::{Digest, Sha256};

fn wordgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wordgame")).args(args).output().expect("the binary runs")
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wordgame-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fits `variant`'s shipped recipe on a small budget into `out`; the file's bytes.
fn fit(variant: &str, out: &Path, budget: &[&str]) -> Vec<u8> {
    let out_str = out.to_str().unwrap();
    let result = wordgame(&[&["data", "leaves", "--variant", variant, "--out", out_str], budget].concat());
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let bytes = std::fs::read(out).unwrap();
    let table = SuperLeaves::read(bytes.clone()).expect("a table the engine loads");
    assert_eq!(String::from_utf8(result.stdout).unwrap(), format!("{} leaves written to {out_str}\n", table.len()));
    assert!(String::from_utf8(result.stderr).unwrap().contains("whole leaves 1"), "a progress bar");
    bytes
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Each variant's shipped recipe on a small budget, twice, and the SHA-256 of the packed table
/// that `lab leaves` wrote for the same fit before the fits moved to `wordgame` (`--seed 1` there
/// is the fit's seed 2,000,001), e.g. `lab leaves --variant erudit --games 0 --seed 1 --fit-games
/// 6 --fit-target equity --shrink 300 --all-up-to 4 --min-samples 1 --generations 1`.
#[test]
fn a_small_fit_writes_the_same_bytes_every_time_and_the_bytes_the_lab_wrote() {
    let dir = scratch("fits");
    let cases = [
        ("erudit", &["--games", "6"][..], "2713a998fd72fe0a3b48700af51b64776fd0a5a33c66be8e8b1207f572917a14"),
        ("scrabble-ru", &["--games", "4"][..], "a0cd0c7eb3dd146730e4e99e221e0981cd67da0764f165fca197183082f66931"),
        ("scrabble-en", &["--games", "60", "--generations", "2"][..], "0b794610234149b96996a1c264d752b7112237d8a110acd8a7bcb795e66f73c0"),
    ];
    for (variant, budget, known) in cases {
        let first = fit(variant, &dir.join(format!("{variant}-1.lv")), budget);
        let again = fit(variant, &dir.join(format!("{variant}-2.lv")), budget);
        assert!(first == again, "{variant}: the same fit wrote other bytes");
        assert_eq!(sha256(&first), known, "{variant}: not the bytes the lab's fit wrote");
    }
    // The census is the same on any thread count; another seed is another table.
    let one_thread = fit("scrabble-en", &dir.join("en-t1.lv"), &["--games", "60", "--generations", "2", "--threads", "1"]);
    assert_eq!(sha256(&one_thread), cases[2].2);
    let other_seed = fit("erudit", &dir.join("erudit-seed.lv"), &["--games", "6", "--seed", "7"]);
    assert!(sha256(&other_seed) != cases[0].2, "another seed, another table");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fitted_table_values_leaves_in_the_engine_and_packs_as_written() {
    let dir = scratch("pack");
    // 12-byte entries without `.lv`; `pack-leaves` packs them into what `.lv` gets directly.
    let entries = fit("erudit", &dir.join("erudit.bin"), &["--games", "3"]);
    let packed = fit("erudit", &dir.join("erudit.lv"), &["--games", "3"]);
    assert!(entries.len().is_multiple_of(engine::leave::SUPERLEAVE_ENTRY) && packed.starts_with(engine::leave::PACKED_MAGIC));
    let repacked = dir.join("repacked.lv");
    let out = wordgame(&["data", "pack-leaves", dir.join("erudit.bin").to_str().unwrap(), repacked.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&repacked).unwrap(), packed);
    // Every leave of up to four tiles is in the table, and the engine values it from there.
    let rules = TileVariant::Erudit.rules();
    let table = SuperLeaves::read(packed).unwrap();
    let leaves = LeaveTable::heuristic(rules).with_superleaves(Some(table));
    let mut differ = 0;
    for word in ["А", "ОО", "ОТЕЦ", "ЪЫЬЭ"] {
        let leave = Rack::from_tiles(word.chars().map(|c| engine::RackTile::Letter(rules.letter(c).unwrap())));
        let key = engine::leave::key_of(&leave);
        let at = entries.chunks(12).position(|e| u64::from_le_bytes(e[..8].try_into().unwrap()) == key).expect("held");
        assert_eq!(leaves.value(&leave), i32::from_le_bytes(entries[at * 12 + 8..at * 12 + 12].try_into().unwrap()), "{word}");
        differ += usize::from(leaves.value(&leave) != leaves.heuristic_value(&leave));
    }
    assert!(differ > 0, "the fit moved no value off the heuristic");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let dir = scratch("bad");
    let missing = dir.join("missing.bin");
    let ragged = dir.join("ragged.bin");
    std::fs::write(&ragged, [1u8; 13]).unwrap();
    let out_lv = dir.join("out.lv");
    for args in [
        vec!["data", "leaves", "--variant", "klingon", "--out", out_lv.to_str().unwrap()],
        vec!["data", "pack-leaves", missing.to_str().unwrap(), out_lv.to_str().unwrap()],
        vec!["data", "pack-leaves", ragged.to_str().unwrap(), out_lv.to_str().unwrap()],
    ] {
        let out = wordgame(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("wordgame: ") && err.trim_end().lines().count() == 1, "{err}");
    }
    assert!(!out_lv.exists(), "nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_source_note_names_each_shipped_table_s_size_and_sha256() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/engine/data/leaves");
    let note = std::fs::read_to_string(dir.join("SOURCE.md")).unwrap();
    for variant in TileVariant::ALL {
        let bytes = std::fs::read(dir.join(format!("{variant}.lv"))).unwrap();
        let row = note.lines().find(|l| l.starts_with(&format!("| `{variant}.lv` |"))).unwrap_or_else(|| panic!("no row for {variant}"));
        let size = bytes.len().to_string();
        let size = size.as_bytes().rchunks(3).rev().map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join(",");
        assert!(row.contains(&format!("| {size} |")), "{variant}: {size} bytes, the note says {row}");
        assert!(row.contains(&sha256(&bytes)), "{variant}: the note's sha256 is stale");
        assert!(note.contains(&format!("data leaves --variant {variant} --out shared/engine/data/leaves/{variant}.lv")), "{variant}");
    }
}
