//! Replay of a complete recorded two-player game (28 moves) from its journal.
//!
//! `cargo bench -p engine --bench replay`; target: median ≤ 50 µs.

use criterion::{Criterion, criterion_group, criterion_main};
use engine::{JournalEntry, Setup, replay};

fn recorded() -> (Setup, Vec<JournalEntry>) {
    #[derive(serde::Deserialize)]
    struct Recorded {
        setup: Setup,
        journal: Vec<JournalEntry>,
    }
    let r: Recorded = serde_json::from_str(include_str!("../tests/data/game-en-2p.json")).expect("the fixture parses");
    (r.setup, r.journal)
}

fn bench_replay(c: &mut Criterion) {
    let (setup, journal) = recorded();
    assert!(journal.len() >= 20);
    assert!(replay(&setup, &journal).expect("the fixture replays").is_over());
    c.bench_function("replay 28-move scrabble-en game", |b| {
        b.iter(|| replay(std::hint::black_box(&setup), std::hint::black_box(&journal)))
    });
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
