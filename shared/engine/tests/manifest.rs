//! The engine stays pure: its manifest names nothing async, networked or database-bound.

#[test]
fn the_engine_depends_on_nothing_async_or_io_bound() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let manifest: toml::Table = text.parse().unwrap();
    let forbidden = |name: &str| {
        ["tokio", "sqlx", "async-std", "reqwest", "hyper", "mio"].contains(&name) || name.starts_with("lambda") || name.starts_with("aws")
    };
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = manifest.get(section).and_then(|d| d.as_table()) else { continue };
        for (name, spec) in deps {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            assert!(!forbidden(name) && !forbidden(package), "{section} names {package}");
        }
    }
}
