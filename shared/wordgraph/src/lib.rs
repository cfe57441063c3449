//! A compact word graph: a DAWG and a GADDAG sharing nodes in one flat array of little-endian
//! `u32`, built once (at compile time by the engine's build script) and read in place.
//!
//! # Format
//!
//! The graph is a sequence of nodes, 4 bytes each, little-endian. A node is one arc of a sibling
//! list; siblings are contiguous and sorted by tile:
//!
//! | bits   | field     | meaning |
//! |--------|-----------|---------|
//! | 0–21   | `arc`     | index of the first node of the child list; 0 = no children |
//! | 22     | `is_end`  | this node is the last of its sibling list |
//! | 23     | `accepts` | the path ending with this node spells a complete word |
//! | 24–31  | `tile`    | 1.. = letter index + 1; 0 = the GADDAG separator |
//!
//! Node 0's `arc` points at the DAWG's root list and node 1's at the GADDAG's. Identical child
//! lists are stored once (the automaton is minimal over lists), and the DAWG and the GADDAG
//! share them: the GADDAG's part after the separator is a word suffix, exactly a DAWG sub-list.
//!
//! The GADDAG holds, for every word `w` of length `n` and every split `1 ≤ i ≤ n`, the string
//! `rev(w[..i])` followed, when `i < n`, by the separator and `w[i..]`.

mod builder;
mod graph;

pub use builder::{BuildError, build, to_bytes};
pub use graph::{Graph, GraphError, Node, nodes_from_bytes, prefetch};

/// A 64-bit fingerprint of a graph's nodes: equal graphs give equal fingerprints, so a graph
/// loaded at run time can be checked against the one a build expected. Not a cryptographic hash.
/// Four independent lanes of 64 bits each, so it runs at memory speed (about 0.3 ms for the
/// English graph's 4 MB), then folded into one.
pub fn fingerprint(nodes: &[u32]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, word: u64| (h.rotate_left(23) ^ word).wrapping_mul(K);
    let mut lanes = [nodes.len() as u64, K, K.rotate_left(17), K.rotate_left(41)];
    let mut chunks = nodes.chunks_exact(8);
    for c in &mut chunks {
        for (l, lane) in lanes.iter_mut().enumerate() {
            *lane = mix(*lane, u64::from(c[2 * l]) | u64::from(c[2 * l + 1]) << 32);
        }
    }
    let mut h = lanes.iter().fold(0, |h, &lane| mix(h, lane));
    for &n in chunks.remainder() {
        h = mix(h, u64::from(n));
    }
    h ^ (h >> 29)
}

/// The tile code of the GADDAG separator.
pub const SEPARATOR: u8 = 0;
/// Largest node count the 22-bit `arc` field can address.
pub const MAX_NODES: usize = 1 << 22;
