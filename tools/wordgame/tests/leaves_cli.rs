//! `wordgame leaves --superleaves`: fits whole-leave values from self-play and writes a table the
//! engine reads back (whole entries in key order), printing the evaluation matches.

use std::process::Command;

use engine::leave::{SUPERLEAVE_ENTRY, SuperLeaves};

#[test]
fn a_fitted_table_is_written_and_reads_back() {
    let dir = std::env::temp_dir().join(format!("wordgame-leaves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("erudit.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_wordgame"))
        .args([
            "leaves",
            "--variant",
            "erudit",
            "--games",
            "2",
            "--fit-games",
            "20",
            "--min-samples",
            "3",
            "--superleaves",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    assert!(!bytes.is_empty() && bytes.len().is_multiple_of(SUPERLEAVE_ENTRY), "{} bytes", bytes.len());
    let table = SuperLeaves::from_bytes(Box::leak(bytes.into_boxed_slice())).expect("entries in key order");
    assert!(stdout.contains(&format!("superleaves: {} leaves written", table.len())), "{stdout}");
    assert!(stdout.contains("superleave equity vs heuristic equity"), "{stdout}");
    assert!(String::from_utf8(out.stderr).unwrap().contains("superleaves"), "a progress bar");
    std::fs::remove_dir_all(&dir).unwrap();
}
