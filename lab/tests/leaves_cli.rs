//! `lab leaves --superleaves`: fits whole-leave values from self-play (by `wordgame::leaves`, with
//! research parameters) and writes a table the engine reads back (whole entries in key order, or
//! packed), printing the evaluation matches; the lab's ladder plays a prototype against a static
//! player with such a table.

use std::process::Command;

use engine::leave::{SUPERLEAVE_ENTRY, SuperLeaves};

#[test]
fn a_fitted_table_is_written_and_reads_back() {
    let dir = std::env::temp_dir().join(format!("lab-leaves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("erudit.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
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
    assert!(String::from_utf8(out.stderr).unwrap().contains("whole leaves"), "a progress bar");

    // The ladder's static player reads such a table from the file; anything else is refused.
    let ladder = |table: &str| {
        Command::new(env!("CARGO_BIN_EXE_lab"))
            .args([
                "ladder",
                "--variant",
                "erudit",
                "--games",
                "2",
                "--budget-ms",
                "1",
                "--versus",
                "static:hard",
                "--static-leaves",
                table,
            ])
            .output()
            .unwrap()
    };
    let out = ladder(file.to_str().unwrap());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("| hard (hard) vs static equity |"));
    // Packed (as the engine compiles its tables in), it holds the same entries and plays the same.
    let packed = dir.join("erudit.lv");
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(["leaves", "--variant", "erudit", "--games", "0", "--fit-games", "20", "--min-samples", "3", "--superleaves"])
        .arg(&packed)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let entries = std::fs::read(&file).unwrap();
    let lv = std::fs::read(&packed).unwrap();
    assert!(lv.starts_with(engine::leave::PACKED_MAGIC) && lv.len() < entries.len(), "{} of {} bytes", lv.len(), entries.len());
    assert_eq!(engine::leave::unpack(&lv), Some(entries));
    let out = ladder(packed.to_str().unwrap());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [1u8; 13]).unwrap();
    for table in [bad.to_str().unwrap(), dir.join("missing.bin").to_str().unwrap()] {
        let out = ladder(table);
        assert_eq!(out.status.code(), Some(2), "{table}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(table) && err.trim_end().lines().count() == 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
