//! The engines stay pure: their manifests (the tile engine's, Nối từ's, the vocabulary they
//! share, the ratings' and the tournaments') name nothing async, networked or database-bound.

/// The manifests checked: this crate's, its sibling engine's, the shared vocabulary's, the
/// ratings' and the tournaments'.
const MANIFESTS: [&str; 5] = [
    concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/../noitu/Cargo.toml"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/../vocabulary/Cargo.toml"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/../ratings/Cargo.toml"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/../tournament/Cargo.toml"),
];

#[test]
fn the_engines_depend_on_nothing_async_or_io_bound() {
    let forbidden = |name: &str| {
        ["tokio", "sqlx", "async-std", "reqwest", "hyper", "mio"].contains(&name) || name.starts_with("lambda") || name.starts_with("aws")
    };
    for path in MANIFESTS {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let manifest: toml::Table = text.parse().unwrap();
        for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let Some(deps) = manifest.get(section).and_then(|d| d.as_table()) else { continue };
            for (name, spec) in deps {
                let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
                assert!(!forbidden(name) && !forbidden(package), "{path}: {section} names {package}");
            }
        }
    }
}
