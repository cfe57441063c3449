//! `wordgame movegen` as a user runs it: output shapes, ranking, files, custom lexicons, and
//! exit code 2 with a clear message on bad input.

use std::process::{Command, Output};

use engine::cgp::CgpPosition;
use engine::lexicon::builtin_graph;
use engine::{MoveGenerator, TileVariant};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

fn wordgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wordgame")).args(args).output().expect("the binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn json_lists_the_count_and_the_best_plays_by_score() {
    let cgp = format!("{EMPTY} AEINRST/ 0/0 0 lex NWL;");
    let v = json(&wordgame(&["movegen", "--variant", "scrabble-en", "--cgp", &cgp, "--top", "5", "--json"]));
    let rules = TileVariant::ScrabbleEn.rules();
    let position = CgpPosition::parse(rules, &cgp).unwrap();
    let expected = MoveGenerator::new(rules, builtin_graph(TileVariant::ScrabbleEn)).all(&position.board, &position.racks[0]).len();
    assert_eq!(v["placements"].as_u64().unwrap() as usize, expected);
    let plays = v["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 5);
    let scores: Vec<i64> = plays.iter().map(|p| p["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // A seven-letter opening through H8 doubled, plus the 50-point bonus.
    assert!(scores[0] >= 64, "{scores:?}");
    for p in plays {
        for key in ["coord", "word", "score", "equity", "leave"] {
            assert!(p.get(key).is_some(), "{p} lacks {key}");
        }
    }
}

#[test]
fn ranking_by_equity_orders_by_equity() {
    let cgp = format!("{EMPTY} QUIZSSE/ 0/0 0");
    let v = json(&wordgame(&["movegen", "--variant", "scrabble-en", "--cgp", &cgp, "--top", "8", "--by", "equity", "--json"]));
    let equities: Vec<i64> = v["plays"].as_array().unwrap().iter().map(|p| p["equity"].as_i64().unwrap()).collect();
    assert!(equities.windows(2).all(|w| w[0] >= w[1]), "{equities:?}");
}

#[test]
fn text_output_names_the_count_and_gcg_coordinates() {
    let cgp = format!("{EMPTY} CAT/ 0/0 0");
    let out = wordgame(&["movegen", "--variant", "scrabble-en", "--cgp", &cgp, "--top", "30"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // ACT and CAT from three starts each way, AT and TA from two: 20 plays, best 10 points.
    assert!(text.starts_with("20 plays\n"), "{text}");
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["1.", "8F", "ACT", "10", "10.000"]);
    assert!(rows.iter().any(|r| r[1..3] == ["H6", "CAT"]), "{text}");
}

#[test]
fn a_cgp_file_gives_one_json_line_per_position() {
    let dir = std::env::temp_dir().join(format!("wordgame-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.cgp");
    std::fs::write(&file, format!("{EMPTY} CAT/ 0/0 0\n\n{EMPTY} КОТ/ 0/0 0\n")).unwrap();
    let out = wordgame(&["movegen", "--variant", "scrabble-en", "--cgp-file", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "the Cyrillic line is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains(":3:"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&file, format!("{EMPTY} CAT/ 0/0 0\n{EMPTY} DOG/ 0/0 0\n")).unwrap();
    let out = wordgame(&["movegen", "--variant", "scrabble-en", "--cgp-file", file.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[0]["placements"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_custom_lexicon_replaces_the_variant_list() {
    let dir = std::env::temp_dir().join(format!("wordgame-lex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("words.txt");
    std::fs::write(&file, "cat\n").unwrap();
    let cgp = format!("{EMPTY} CAT/ 0/0 0");
    let v = json(&wordgame(&["movegen", "--variant", "scrabble-en", "--cgp", &cgp, "--lexicon", file.to_str().unwrap(), "--json"]));
    // CAT across or down, covering H8 from three starts each.
    assert_eq!(v["placements"], 6);
    assert_eq!(v["plays"][0]["word"], "CAT");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn russian_positions_work_in_cyrillic() {
    let cgp = format!("{EMPTY} КОТ?/ 0/0 0");
    let v = json(&wordgame(&["movegen", "--variant", "scrabble-ru", "--cgp", &cgp, "--json", "--top", "1"]));
    assert!(v["placements"].as_u64().unwrap() > 10);
    let word = v["plays"][0]["word"].as_str().unwrap();
    assert!(word.chars().all(|c| ('А'..='я').contains(&c) || c == 'ё' || c == 'Ё'), "{word}");
}

#[test]
fn bad_input_exits_with_code_two_and_a_message() {
    let cases: Vec<Vec<String>> = vec![
        vec!["--variant".into(), "scrabble-xx".into(), "--cgp".into(), format!("{EMPTY} A/ 0/0 0")],
        vec!["--variant".into(), "scrabble-en".into(), "--cgp".into(), "15/15 A/ 0/0 0".into()],
        vec!["--variant".into(), "scrabble-en".into(), "--cgp".into(), format!("{EMPTY} ЖЖ/ 0/0 0")],
        vec!["--variant".into(), "scrabble-en".into(), "--cgp".into(), format!("{EMPTY} ZZ/ 0/0 0")],
        vec!["--variant".into(), "scrabble-en".into(), "--cgp-file".into(), "/nonexistent/file.cgp".into()],
    ];
    for case in cases {
        let mut args = vec!["movegen"];
        args.extend(case.iter().map(String::as_str));
        let out = wordgame(&args);
        assert_eq!(out.status.code(), Some(2), "{case:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("wordgame: "), "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn serve_refuses_a_pool_of_no_connections_before_starting_anything() {
    for n in ["0", "65", "many"] {
        let out = wordgame(&["serve", "--connections", n, "--port", "1"]);
        assert_eq!(out.status.code(), Some(2), "{n}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--connections"), "{err}");
        assert!(out.stdout.is_empty());
    }
}
