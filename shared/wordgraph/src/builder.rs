//! Building a graph from a word list: an incremental minimal automaton (Daciuk et al.) over
//! sorted strings, first the words (DAWG), then their GADDAG strings, sharing one register of
//! sibling lists.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::graph::Node;
use crate::{MAX_NODES, SEPARATOR};

/// A word list that cannot be built into a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A word holds tile 0 (reserved for the separator).
    SeparatorInWord(Vec<u8>),
    /// The graph would need more nodes than the format addresses.
    TooLarge(usize),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::SeparatorInWord(w) => write!(f, "word {w:?} uses tile 0, which is reserved"),
            BuildError::TooLarge(n) => write!(f, "{n} nodes exceed the format's limit of {MAX_NODES}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds the graph of `words` (tile codes 1..=255; empty words ignored) and returns its nodes.
///
/// The output depends only on the set of words, so the same list always gives the same bytes.
///
/// # Errors
/// [`BuildError`] if a word uses tile 0 or the graph outgrows the format.
pub fn build<I, W>(words: I) -> Result<Vec<u32>, BuildError>
where
    I: IntoIterator<Item = W>,
    W: AsRef<[u8]>,
{
    let mut words: Vec<Vec<u8>> = words.into_iter().map(|w| w.as_ref().to_vec()).filter(|w| !w.is_empty()).collect();
    if let Some(w) = words.iter().find(|w| w.contains(&SEPARATOR)) {
        return Err(BuildError::SeparatorInWord(w.clone()));
    }
    words.sort_unstable();
    words.dedup();
    let mut gaddag: Vec<Vec<u8>> = Vec::with_capacity(words.iter().map(Vec::len).sum());
    for w in &words {
        for i in 1..=w.len() {
            let mut s: Vec<u8> = w[..i].iter().rev().copied().collect();
            if i < w.len() {
                s.push(SEPARATOR);
                s.extend_from_slice(&w[i..]);
            }
            gaddag.push(s);
        }
    }
    gaddag.sort_unstable();
    gaddag.dedup();

    let mut b = Builder { nodes: vec![0, 0], register: HashMap::default() };
    let dawg = b.automaton(&words);
    let gad = b.automaton(&gaddag);
    if b.nodes.len() > MAX_NODES {
        return Err(BuildError::TooLarge(b.nodes.len()));
    }
    b.nodes[0] = Node::new(0, false, true, dawg).0;
    b.nodes[1] = Node::new(0, false, true, gad).0;
    Ok(b.nodes)
}

/// The graph's nodes as little-endian bytes.
pub fn to_bytes(nodes: &[u32]) -> Vec<u8> {
    nodes.iter().flat_map(|n| n.to_le_bytes()).collect()
}

struct Builder {
    nodes: Vec<u32>,
    /// Sibling lists already emitted (arcs without the end flag) → index of their first node.
    register: HashMap<Vec<u32>, u32, BuildHasherDefault<FxHasher>>,
}

impl Builder {
    /// Adds the minimal automaton of sorted, distinct `strings`; returns its root list.
    fn automaton(&mut self, strings: &[Vec<u8>]) -> u32 {
        // stack[k]: arcs of the state reached after k tiles of the current string; the last
        // arc of stack[k] leads to stack[k + 1], still open.
        let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
        let mut prev: &[u8] = &[];
        for s in strings {
            let common = prev.iter().zip(s).take_while(|(a, b)| a == b).count();
            self.close(&mut stack, common);
            for (k, &t) in s.iter().enumerate().skip(common) {
                stack[k].push(Node::new(t, k + 1 == s.len(), false, 0).0);
                stack.push(Vec::new());
            }
            prev = s;
        }
        self.close(&mut stack, 0);
        let root = stack.pop().unwrap_or_default();
        self.register(root)
    }

    /// Freezes open states deeper than `depth`, linking each into its parent's last arc.
    fn close(&mut self, stack: &mut Vec<Vec<u32>>, depth: usize) {
        while stack.len() > depth + 1 {
            let arcs = stack.pop().unwrap_or_default();
            let list = self.register(arcs);
            if let Some(last) = stack.last_mut().and_then(|p| p.last_mut()) {
                *last |= list;
            }
        }
    }

    /// The index of the list `arcs`, emitting it if new; 0 for no arcs.
    fn register(&mut self, arcs: Vec<u32>) -> u32 {
        if arcs.is_empty() {
            return 0;
        }
        if let Some(&at) = self.register.get(&arcs) {
            return at;
        }
        let at = self.nodes.len() as u32;
        let n = arcs.len();
        self.nodes.extend(arcs.iter().enumerate().map(|(i, &a)| if i + 1 == n { Node(a).0 | Node::new(0, false, true, 0).0 } else { a }));
        self.register.insert(arcs, at);
        at
    }
}

/// A small fast hasher for the register (rustc's Fx): keys are node words, not attacker input.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Graph;

    fn graph(words: &[&[u8]]) -> Graph<'static> {
        Graph::from_nodes(build(words.iter().copied()).unwrap()).unwrap()
    }

    #[test]
    fn the_dawg_holds_exactly_the_words() {
        let words: &[&[u8]] = &[&[3, 1, 20], &[3, 1, 20, 19], &[1, 20], &[20, 1], &[3, 1, 2]];
        let g = graph(words);
        for w in words {
            assert!(g.contains(w), "{w:?}");
        }
        for w in [&[3u8, 1][..], &[3, 1, 20, 19, 19], &[1], &[], &[9, 9]] {
            assert!(!g.contains(w), "{w:?}");
        }
        let mut sorted: Vec<Vec<u8>> = words.iter().map(|w| w.to_vec()).collect();
        sorted.sort();
        assert_eq!(g.words(), sorted);
    }

    #[test]
    fn the_gaddag_holds_every_split_of_every_word() {
        let g = graph(&[&[3, 1, 20]]);
        let walk = |path: &[u8]| {
            let mut list = g.gaddag_root();
            let mut accepts = false;
            for &t in path {
                let i = g.find(list, t)?;
                accepts = g.node(i).accepts();
                list = g.node(i).arc();
            }
            Some(accepts)
        };
        assert_eq!(walk(&[3, 0, 1, 20]), Some(true));
        assert_eq!(walk(&[1, 3, 0, 20]), Some(true));
        assert_eq!(walk(&[20, 1, 3]), Some(true));
        assert_eq!(walk(&[1, 0]), None);
        assert_eq!(walk(&[3, 0, 1]), Some(false));
    }

    #[test]
    fn identical_lists_are_stored_once() {
        // "ab" and "cb" share the child list [b]; the DAWG and GADDAG share suffix lists.
        let g = graph(&[&[1, 2], &[3, 2]]);
        let a = g.node(g.find(g.dawg_root(), 1).unwrap()).arc();
        let c = g.node(g.find(g.dawg_root(), 3).unwrap()).arc();
        assert_eq!(a, c);
    }

    #[test]
    fn the_same_words_in_any_order_give_the_same_bytes() {
        let a = build([&[1u8, 2][..], &[3, 2], &[4, 5, 6]]).unwrap();
        let b = build([&[4u8, 5, 6][..], &[1, 2], &[3, 2], &[1, 2]]).unwrap();
        assert_eq!(to_bytes(&a), to_bytes(&b));
        assert!(Graph::from_bytes(&to_bytes(&a)).is_ok() || Graph::from_nodes(a).is_ok());
    }

    #[test]
    fn a_word_with_the_separator_tile_is_refused() {
        assert!(matches!(build([&[1u8, 0][..]]), Err(BuildError::SeparatorInWord(_))));
    }

    #[test]
    fn an_empty_list_builds_an_empty_graph() {
        let g = Graph::from_nodes(build(Vec::<Vec<u8>>::new()).unwrap()).unwrap();
        assert!(g.is_empty());
        assert!(!g.contains(&[1]));
    }

    #[test]
    fn malformed_bytes_are_refused() {
        assert_eq!(Graph::from_bytes(&[0u8; 6]).unwrap_err(), crate::GraphError::BadLength(6));
        let mut nodes = build([&[1u8, 2][..]]).unwrap();
        nodes.push(Node::new(1, false, true, 999).0);
        assert!(matches!(Graph::from_nodes(nodes), Err(crate::GraphError::DanglingArc { .. })));
    }
}
