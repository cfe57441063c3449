//! The docs stay true and short: docs/ARCHITECTURE.md's lists of the service's, the store's and
//! the HTTP crate's modules name every module each crate declares; docs/ROBOTS.md stays within
//! 300 lines.

use std::path::Path;

/// The modules `lib_rs` declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("pub(crate) mod ")).or_else(|| l.strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_architecture_names_every_module_of_the_service_the_store_and_the_http_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    // Lines joined (a paragraph's line breaks are spaces), paragraphs kept apart.
    let doc = text.replace("\n\n", "\u{b6}").replace('\n', " ");
    // Each list runs from its heading to the next list's (the last to the paragraph's end).
    let lists =
        [("service", "Service modules:", "Store modules:"), ("store", "Store modules:", "API modules:"), ("api", "API modules:", "\u{b6}")];
    for (krate, start, end) in lists {
        let from = doc.find(start).unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no {start:?}"));
        let to = from + start.len() + doc[from + start.len()..].find(end).unwrap();
        let list = &doc[from..to];
        let lib = std::fs::read_to_string(root.join(format!("shared/{krate}/src/lib.rs"))).unwrap();
        let modules = declared(&lib);
        assert!(modules.len() >= 10, "{krate}: {modules:?}");
        let missing: Vec<&String> = modules.iter().filter(|m| !list.contains(&format!("`{m}`"))).collect();
        assert!(missing.is_empty(), "docs/ARCHITECTURE.md's {krate} modules lack {missing:?}");
    }
    assert_eq!(declared("mod a;\npub mod b;\n  pub(crate) mod c;\nmod d {\n"), ["a", "b", "c"]);
}

#[test]
fn robots_md_stays_within_300_lines() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ROBOTS.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 300, "docs/ROBOTS.md has {lines} lines: move history to lab/NOTEBOOK.md");
}
