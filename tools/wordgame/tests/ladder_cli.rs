//! `wordgame ladder --versus static --static-leaves FILE`: the static-equity player reads a
//! whole-leave table from a file; a file that is not one, or a prototype's name, is refused.

use std::process::{Command, Output};

use engine::leave::SUPERLEAVE_ENTRY;

fn ladder(versus: &str, table: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wordgame"))
        .args(["ladder", "--variant", "erudit", "--games", "2", "--budget-ms", "1", "--versus", versus, "--static-leaves", table])
        .output()
        .unwrap()
}

#[test]
fn the_static_player_reads_a_whole_leave_table_and_nothing_else() {
    let dir = std::env::temp_dir().join(format!("wordgame-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two entries in key order: a key (u64) and a value in thousandths (i32), little-endian.
    let file = dir.join("table.bin");
    let bytes: Vec<u8> =
        [(65u64, 1_500i32), (66, -700)].iter().flat_map(|(k, v)| [&k.to_le_bytes()[..], &v.to_le_bytes()[..]].concat()).collect();
    assert_eq!(bytes.len(), 2 * SUPERLEAVE_ENTRY);
    std::fs::write(&file, &bytes).unwrap();
    let out = ladder("static", file.to_str().unwrap());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("| hard vs static equity |"));

    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [1u8; 13]).unwrap();
    for table in [bad.to_str().unwrap(), dir.join("missing.bin").to_str().unwrap()] {
        let out = ladder("static", table);
        assert_eq!(out.status.code(), Some(2), "{table}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(table) && err.trim_end().lines().count() == 1, "{err}");
    }
    // The prototypes of hard are the lab's.
    let out = ladder("exchange+late", file.to_str().unwrap());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("lab"));
    std::fs::remove_dir_all(&dir).unwrap();
}
