//! No module cycle anywhere: within each crate of the tree, the modules' imports of one another
//! (`crate::m`, and a name the crate root re-exports from `m`) form no cycle. Comments and the
//! unit tests at the end of a file are left out; a submodule counts as its top-level module.
//! And one name, one meaning: a public type name is defined in one place of the tree, but for
//! the few `SHARED_NAMES`, each with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code without comment lines and without its trailing `#[cfg(test)] mod tests`.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The identifiers after each `crate::` in `text`, and those inside `use crate::{…}`.
fn crate_names(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut names = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(group.split(',').map(|n| ident(n.trim())).filter(|n| !n.is_empty()));
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// Names the crate root re-exports (`pub use m::{A, B};`, `pub use m::A;`), each with its module.
fn reexports(root_text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in root_text.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let Some((module, names)) = rest.trim_end_matches(';').split_once("::") else { continue };
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.split(" as ").last().unwrap().trim();
            out.insert(name.to_string(), module.to_string());
        }
    }
    out
}

/// The top-level module a source file belongs to (None for the crate root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs").to_string();
    (!(first == "lib" || first == "main")).then_some(first)
}

/// A cycle in `edges`, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut found = path[at..].to_vec();
            found.push(n.to_string());
            return Some(found);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_a_module_cycle() {
    let root = root();
    let mut crates: Vec<PathBuf> = Vec::new();
    for group in ["shared", "tools", "functions"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            crates.push(entry.unwrap().path().join("src"));
        }
    }
    crates.push(root.join("lab/src"));
    let mut checked = 0;
    for src in crates.iter().filter(|s| s.is_dir()) {
        let mut files = Vec::new();
        sources(src, &mut files);
        let root_file = [src.join("lib.rs"), src.join("main.rs")].into_iter().find(|p| p.exists()).unwrap();
        let reexported = reexports(&std::fs::read_to_string(&root_file).unwrap());
        let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(src, f)).collect();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let Some(module) = module_of(src, file) else { continue };
            let targets = crate_names(&code(&std::fs::read_to_string(file).unwrap()))
                .into_iter()
                .filter_map(|n| if modules.contains(&n) { Some(n) } else { reexported.get(&n).cloned() })
                .filter(|m| *m != module && modules.contains(m))
                .collect::<Vec<_>>();
            edges.entry(module).or_default().extend(targets);
        }
        assert_eq!(cycle(&edges), None, "a module cycle in {}", src.display());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} crates found");
}

#[test]
fn the_cycle_check_finds_a_cycle_through_a_reexport() {
    let reexported = reexports("mod a;\nmod b;\npub use b::{Thing, Other as Renamed};\n");
    assert_eq!(reexported.get("Renamed"), Some(&"b".to_string()));
    assert_eq!(
        crate_names("use crate::{Thing, a::X};\n// crate::c in a comment\nlet x = crate::b::f();"),
        ["Thing", "a", "b", "c"].map(String::from).into()
    );
    assert_eq!(code("use crate::a;\n// crate::c\n"), "use crate::a;");
    let edges: BTreeMap<String, BTreeSet<String>> = [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(cycle(&edges), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    let acyclic: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec![])].into_iter().map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect())).collect();
    assert_eq!(cycle(&acyclic), None);
}

/// The web app's modules each `web/*.js` imports statically (`import … from './x.js'`); a
/// family's module, loaded by the name GET /variants gives it, is no static import.
fn web_imports(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.trim_start().starts_with("import ") && !l.trim_start().starts_with("import("))
        .filter_map(|l| l.split("from './").nth(1))
        .filter_map(|rest| rest.split(".js'").next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_web_app_s_modules_import_one_another_without_a_circle() {
    let dir = root().join("web");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            edges.insert(name, web_imports(&std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(edges.len() >= 10, "{edges:?}");
    assert!(edges["game"].contains("core") && edges["tile"].contains("game"), "{edges:?}");
    assert_eq!(cycle(&edges), None, "an import circle among the web modules");
    assert_eq!(web_imports("import { a } from './core.js';\nconst m = await import(`./${x}`);\n"), ["core".to_string()].into());
}

/// Public type names defined in more than one place, each with why. Every other `pub struct`,
/// `enum`, `trait` or `type` name is defined once in the tree, so it means one thing.
const SHARED_NAMES: &[(&str, &str)] = &[("Args", "each CLI subcommand module's clap arguments, read as `module::Args`")];

/// The names of the `pub struct|enum|trait|type` items that start a line of `text`.
fn public_types(text: &str) -> Vec<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    text.lines()
        .filter_map(|l| ["pub struct ", "pub enum ", "pub trait ", "pub type "].iter().find_map(|k| l.strip_prefix(k)))
        .map(ident)
        .filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect()
}

#[test]
fn each_public_type_name_is_defined_once() {
    let root = root();
    let mut dirs = vec![root.join("lab/src")];
    for group in ["shared", "tools", "functions"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            dirs.push(entry.unwrap().path().join("src"));
        }
    }
    let mut defined: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for dir in dirs.iter().filter(|d| d.is_dir()) {
        let mut files = Vec::new();
        sources(dir, &mut files);
        for file in files {
            let place = file.strip_prefix(&root).unwrap().display().to_string();
            for name in public_types(&std::fs::read_to_string(&file).unwrap()) {
                defined.entry(name).or_default().push(place.clone());
            }
        }
    }
    assert!(defined.len() > 300, "only {} public type names found", defined.len());
    let allowed: BTreeMap<&str, &str> = SHARED_NAMES.iter().copied().collect();
    let twice: BTreeMap<&String, &Vec<String>> = defined.iter().filter(|(_, places)| places.len() > 1).collect();
    let unjustified: Vec<_> = twice.iter().filter(|(name, _)| !allowed.contains_key(name.as_str())).collect();
    assert!(unjustified.is_empty(), "a public type name defined in more than one place: {unjustified:#?}");
    let stale: Vec<_> = allowed.keys().filter(|name| !twice.contains_key(&name.to_string())).collect();
    assert!(stale.is_empty(), "allowed to be shared but defined once (or not at all): take them off SHARED_NAMES: {stale:?}");
    assert_eq!(public_types("pub enum Budget {\n    pub struct Inner;\npub(crate) struct Hidden;\npub type T = u8;"), ["Budget", "T"]);
}
