//! The engine reads no clock, no OS randomness and no file: its sources name none of them. (The
//! manifest test in shared/engine keeps its dependencies free of async and network crates.)

#[test]
fn the_sources_read_no_clock_no_os_rng_and_no_files() {
    let forbidden =
        ["Instant", "SystemTime", "thread_rng", "OsRng", "getrandom", "from_entropy", "std::fs", "std::net", "std::env", "File::"];
    let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
    let mut files = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for word in forbidden {
                assert!(!text.contains(word), "{} names {word}", path.display());
            }
            files += 1;
        }
    }
    assert!(files >= 10, "{files} source files read");
}
