//! Cross-checks against one-letter runs, read from a table instead of walked: most cross-words
//! on a board meet a single tile, and walking the graph for each of them (scanning sibling lists
//! dozens of nodes long in Russian) was most of the cost of preparing a position's lines.

use wordgraph::Graph;

/// Tile codes the table covers (letter index + 1 is below this).
const CODES: usize = 64;

/// For each tile code `t` (and pair `p`, `s`), the letters (bit = code − 1) that make a word
/// with it.
#[derive(Debug, Clone)]
pub(crate) struct ShortWords {
    /// `before[t]`: the letters `x` for which `x t` is a word.
    before: [u64; CODES],
    /// `after[t]`: the letters `x` for which `t x` is a word.
    after: [u64; CODES],
    /// `between[p * CODES + s]`: the letters `x` for which `p x s` is a word.
    between: Vec<u64>,
}

impl ShortWords {
    /// The table of `graph`'s two- and three-letter words: one pass over the DAWG's first three
    /// levels (about 30,000 nodes for Russian).
    pub(crate) fn new(graph: &Graph<'_>) -> ShortWords {
        let mut words = ShortWords { before: [0; CODES], after: [0; CODES], between: vec![0; CODES * CODES] };
        let bit = |t: u8| 1u64 << (t - 1);
        for (_, first) in graph.siblings(graph.dawg_root()) {
            let p = first.tile();
            for (_, second) in graph.siblings(first.arc()) {
                let x = second.tile();
                if second.accepts() {
                    words.after[usize::from(p)] |= bit(x);
                    words.before[usize::from(x)] |= bit(p);
                }
                for (_, third) in graph.siblings(second.arc()) {
                    if third.accepts() {
                        words.between[usize::from(p) * CODES + usize::from(third.tile())] |= bit(x);
                    }
                }
            }
        }
        words
    }

    /// The letters `x` for which `x t` is a word.
    #[inline]
    pub(crate) fn before(&self, t: u8) -> u64 {
        self.before[usize::from(t)]
    }

    /// The letters `x` for which `t x` is a word.
    #[inline]
    pub(crate) fn after(&self, t: u8) -> u64 {
        self.after[usize::from(t)]
    }

    /// The letters `x` for which `p x s` is a word.
    #[inline]
    pub(crate) fn between(&self, p: u8, s: u8) -> u64 {
        self.between[usize::from(p) * CODES + usize::from(s)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_exactly_the_short_words() {
        let words: Vec<Vec<u8>> = [&[1u8, 2][..], &[2, 1], &[1, 3, 2], &[3, 3, 3], &[1, 2, 3, 4]].iter().map(|w| w.to_vec()).collect();
        let graph = Graph::from_nodes(wordgraph::build(&words).unwrap()).unwrap();
        let t = ShortWords::new(&graph);
        assert_eq!(t.after(1), 1 << 1);
        assert_eq!(t.after(2), 1 << 0);
        assert_eq!(t.before(1), 1 << 1);
        assert_eq!(t.before(2), 1 << 0);
        assert_eq!(t.before(3), 0);
        assert_eq!(t.between(1, 2), 1 << 2);
        assert_eq!(t.between(3, 3), 1 << 2);
        assert_eq!(t.between(1, 3), 0, "1 2 3 is the start of a word, not a word");
    }
}
