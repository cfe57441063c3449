//! `wordgame chaos --smoke` as CI runs it: a private gateway and PostgreSQL, each SIGKILLed once
//! under load and restarted; the check finds no defect, games were really played, and the
//! tournament's real-time games both ended on time with standings and export as the games say.

use std::process::Command;

#[test]
fn the_smoke_crash_test_finds_no_defect_and_acknowledges_moves() {
    let out = Command::new(env!("CARGO_BIN_EXE_wordgame")).args(["chaos", "--smoke", "--seed", "1"]).output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{stderr}", out.status.code());
    let line = stdout.lines().find(|l| l.starts_with("kills: ")).unwrap_or_else(|| panic!("no summary line:\n{stdout}\n{stderr}"));
    assert!(line.starts_with("kills: gateway 1, postgres 1;"), "{line}");
    let acknowledged: u64 = line
        .split("acknowledged moves ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no acknowledged move count in {line}"));
    assert!(acknowledged > 0, "{line}");
    // The tournament's two real-time games both ended on time, and nothing disagreed.
    assert!(line.contains("tournaments 1 (2 games finished, 2 on time), tournament defects 0"), "{line}");
}
