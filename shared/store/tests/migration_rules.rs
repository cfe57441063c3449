//! The migration rule (docs/OPERATIONS.md, "Migrations"): a release's migrations run before its
//! code takes traffic, while the previous release's functions still serve (and stay live if the
//! canary rolls back), so a migration must keep the previous code working. It may only expand:
//! add tables, nullable columns or columns with a default, indexes, constraints the old code
//! satisfies, widen a CHECK (drop and re-add it under the same name), relax NOT NULL. Anything
//! the old code could trip over (DROP of a table, column, index, view, type or default, a column
//! type rewrite, a RENAME, SET NOT NULL, a NOT NULL column without a default) is a contract step:
//! its own migration, shipped in a release after the one whose code stopped needing the old
//! shape, whose first line is
//!
//! ```sql
//! -- contract: expand NNNN, release <the release whose code no longer uses it>
//! ```
//!
//! naming the earlier expand migration it completes. 0001–0006 predate the rule and are listed
//! below with what in them would break it.

use std::collections::BTreeMap;
use std::path::Path;

/// Migrations written before the rule, and what in each the rule would now send to a contract
/// step.
const GRANDFATHERED: &[(i64, &str)] = &[
    (1, "the first schema"),
    (2, "adds a table only"),
    (3, "rewrites game_moves.entry's type (jsonb to json)"),
    (4, "drops an index (games_status_idx)"),
    (5, "widens a CHECK (allowed by the rule)"),
    (6, "game families: widens CHECKs and relaxes NOT NULL (written to the rule, listed as it predates the test)"),
];

/// The SQL with comments and string literals blanked, upper-cased, one space between words.
fn normalise(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'-') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                out.push(' ');
            }
            '\'' => {
                // '' inside a literal is an escaped quote: the literal goes on.
                loop {
                    match chars.next() {
                        None => break,
                        Some('\'') if chars.peek() == Some(&'\'') => {
                            chars.next();
                        }
                        Some('\'') => break,
                        Some(_) => {}
                    }
                }
                out.push_str("''");
            }
            '$' if chars.peek() == Some(&'$') => {
                // A $$ body (functions): blank it.
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '$' && c == '$' {
                        break;
                    }
                    prev = c;
                }
                out.push_str("''");
            }
            _ => out.push(c.to_ascii_uppercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What in `sql` breaks the expand-only rule, one line per statement.
fn contract_steps(sql: &str) -> Vec<String> {
    let text = normalise(sql);
    let statements: Vec<&str> = text.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
    let added: Vec<String> = statements
        .iter()
        .flat_map(|s| s.match_indices("ADD CONSTRAINT ").map(|(i, _)| s[i + 15..].split(' ').next().unwrap_or("").to_string()))
        .collect();
    let mut found = Vec::new();
    for s in &statements {
        let words: Vec<&str> = s.split(' ').collect();
        let has = |pattern: &str| s.contains(pattern);
        if words.first() == Some(&"DROP") {
            found.push(format!("{s}: drops an object"));
            continue;
        }
        if has(" RENAME ") || s.ends_with(" RENAME") {
            found.push(format!("{s}: renames"));
        }
        if words.first() == Some(&"TRUNCATE") {
            found.push(format!("{s}: empties a table"));
        }
        if words.first() != Some(&"ALTER") {
            continue;
        }
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).copied().unwrap_or("");
            match (*w, next) {
                ("DROP", "COLUMN") => found.push(format!("{s}: drops a column")),
                ("DROP", "DEFAULT") => found.push(format!("{s}: drops a default the old code's inserts may rely on")),
                ("DROP", "CONSTRAINT") => {
                    let name = words.get(i + 2).map(|n| if *n == "IF" { words.get(i + 4).copied().unwrap_or("") } else { n });
                    if !name.is_some_and(|n| added.iter().any(|a| a == n)) {
                        found.push(format!("{s}: drops a constraint without re-adding it"));
                    }
                }
                ("TYPE", _) if i > 1 && (matches!(words[i - 1], "DATA" | "SET") || matches!(words[i - 2], "COLUMN" | "ALTER")) => {
                    found.push(format!("{s}: rewrites a column's type"));
                }
                ("SET", "NOT") => found.push(format!("{s}: sets NOT NULL, which the old code's inserts may break")),
                _ => {}
            }
        }
        if has(" ADD COLUMN ") && has(" NOT NULL") && !has(" DEFAULT ") && !has(" GENERATED ") {
            found.push(format!("{s}: adds a NOT NULL column without a default, which the old code's inserts break"));
        }
    }
    found
}

/// The expand migration and release a contract step's first line names, if it is marked.
fn contract_marker(sql: &str) -> Option<(i64, String)> {
    let first = sql.lines().next()?.trim();
    let rest = first.strip_prefix("-- contract:")?.trim();
    let rest = rest.strip_prefix("expand ")?;
    let (number, release) = rest.split_once(',')?;
    let release = release.trim().strip_prefix("release ")?.trim();
    (!release.is_empty()).then(|| (number.trim().parse().ok(), release.to_string())).and_then(|(n, r)| Some((n?, r)))
}

fn migrations() -> BTreeMap<i64, (String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let mut all = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".sql") else { continue };
        let version: i64 = stem.split('_').next().unwrap().parse().unwrap_or_else(|_| panic!("{name}: not NNNN_name.sql"));
        let sql = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert!(all.insert(version, (name.clone(), sql)).is_none(), "two migrations numbered {version}");
    }
    all
}

#[test]
fn every_new_migration_only_expands_or_is_a_marked_contract_step() {
    let all = migrations();
    let mut broken = Vec::new();
    for (version, (name, sql)) in &all {
        if GRANDFATHERED.iter().any(|(v, _)| v == version) {
            continue;
        }
        let steps = contract_steps(sql);
        match contract_marker(sql) {
            Some((expand, _release)) => {
                assert!(
                    expand < *version && all.contains_key(&expand),
                    "{name}: its contract line names expand {expand}, not an earlier migration"
                );
            }
            None if !steps.is_empty() => broken.push(format!("{name}:\n  {}", steps.join("\n  "))),
            None => {}
        }
    }
    assert!(
        broken.is_empty(),
        "migrations that would break the code still serving (make each a contract step of its own, first line \
         `-- contract: expand NNNN, release R`, shipped after the release that stopped using the old shape):\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_grandfathered_migrations_exist_and_the_list_is_closed() {
    let all = migrations();
    for (version, _) in GRANDFATHERED {
        assert!(all.contains_key(version), "grandfathered migration {version} is missing");
    }
    // The list is the migrations written before the rule: it never grows.
    assert_eq!(GRANDFATHERED.iter().map(|(v, _)| *v).collect::<Vec<_>>(), (1..=6).collect::<Vec<_>>());
}

#[test]
fn the_rule_catches_what_broke_it_before_and_lets_expansions_through() {
    let all = migrations();
    // The grandfathered ones the issue named: 0003 rewrites a type, 0004 drops an index.
    assert!(contract_steps(&all[&3].1).iter().any(|s| s.contains("type")), "{:?}", contract_steps(&all[&3].1));
    assert!(contract_steps(&all[&4].1).iter().any(|s| s.contains("drops an object")));
    let breaking = [
        "DROP TABLE old_things;",
        "drop index if exists games_status_idx;",
        "ALTER TABLE games DROP COLUMN seats;",
        "ALTER TABLE game_moves ALTER COLUMN entry TYPE json USING entry::json;",
        "ALTER TABLE game_moves ALTER COLUMN entry SET DATA TYPE jsonb;",
        "ALTER TABLE game_moves ALTER entry TYPE jsonb;",
        "ALTER TABLE games RENAME COLUMN seats TO seat_count;",
        "ALTER TABLE games RENAME TO matches;",
        "ALTER TABLE games ALTER COLUMN setup SET NOT NULL;",
        "ALTER TABLE games ALTER COLUMN status DROP DEFAULT;",
        "ALTER TABLE games ADD COLUMN rating integer NOT NULL;",
        "ALTER TABLE games DROP CONSTRAINT games_variant_check;",
        "TRUNCATE game_moves;",
    ];
    for sql in breaking {
        assert!(!contract_steps(sql).is_empty(), "{sql} passed as an expansion");
    }
    let expanding = [
        "CREATE TABLE ratings (account_id uuid PRIMARY KEY, rating integer NOT NULL);",
        "ALTER TABLE games ADD COLUMN rating integer NULL;",
        "ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;",
        "CREATE INDEX CONCURRENTLY games_rating_idx ON games (rating);",
        "ALTER TABLE games DROP CONSTRAINT games_status_check;\nALTER TABLE games ADD CONSTRAINT games_status_check CHECK (status IN ('a', 'b'));",
        "ALTER TABLE games ALTER COLUMN no_repeat_words DROP NOT NULL;",
        "-- We DROP nothing here: ALTER ... TYPE in a comment is not a statement.\nUPDATE accounts SET display_name = 'DROP TABLE x; RENAME' WHERE false;",
        "COMMENT ON COLUMN games.kind IS 'the type of game';",
        "ALTER TYPE game_kind ADD VALUE 'word';",
    ];
    for sql in expanding {
        assert!(contract_steps(sql).is_empty(), "{sql}: {:?}", contract_steps(sql));
    }
    assert_eq!(
        contract_marker("-- contract: expand 0007, release 2027-01\nALTER TABLE games DROP COLUMN seats;"),
        Some((7, "2027-01".into()))
    );
    assert_eq!(contract_marker("-- contract: drops seats\nALTER TABLE games DROP COLUMN seats;"), None);
    assert_eq!(contract_marker("-- Contract step: the columns go.\n"), None);
}
