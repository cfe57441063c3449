//! Reading a built graph in place.

use crate::SEPARATOR;

const ARC_MASK: u32 = (1 << 22) - 1;
const IS_END: u32 = 1 << 22;
const ACCEPTS: u32 = 1 << 23;

/// One node (arc) of the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node(pub u32);

impl Node {
    /// The tile on this arc (0 = separator).
    #[inline]
    pub const fn tile(self) -> u8 {
        (self.0 >> 24) as u8
    }

    /// Whether the path ending here is a word.
    #[inline]
    pub const fn accepts(self) -> bool {
        self.0 & ACCEPTS != 0
    }

    /// Whether this is the last sibling of its list.
    #[inline]
    pub const fn is_end(self) -> bool {
        self.0 & IS_END != 0
    }

    /// Index of the first child, 0 when there is none.
    #[inline]
    pub const fn arc(self) -> u32 {
        self.0 & ARC_MASK
    }

    /// A node from its fields.
    pub const fn new(tile: u8, accepts: bool, is_end: bool, arc: u32) -> Node {
        Node(((tile as u32) << 24) | if accepts { ACCEPTS } else { 0 } | if is_end { IS_END } else { 0 } | (arc & ARC_MASK))
    }
}

/// A byte buffer that is not a well-formed graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphError {
    /// The length is not a multiple of 4 or holds fewer than the two root nodes.
    BadLength(usize),
    /// The buffer is not 4-byte aligned.
    Misaligned,
    /// A node points past the end.
    DanglingArc {
        /// The node's index.
        node: usize,
    },
    /// A sibling list runs off the end without an end flag.
    UnterminatedList {
        /// Where the list starts.
        start: usize,
    },
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphError::BadLength(n) => write!(f, "a graph of {n} bytes is not a whole number of nodes (at least 2)"),
            GraphError::Misaligned => f.write_str("the graph's bytes are not 4-byte aligned"),
            GraphError::DanglingArc { node } => write!(f, "node {node} points past the end of the graph"),
            GraphError::UnterminatedList { start } => write!(f, "the sibling list at {start} has no end"),
        }
    }
}

impl std::error::Error for GraphError {}

/// A word graph over borrowed or owned nodes.
#[derive(Debug, Clone)]
pub struct Graph<'a> {
    nodes: std::borrow::Cow<'a, [u32]>,
}

/// Refuses bytes that are not a whole number of nodes, at least two.
fn check_length(bytes: &[u8]) -> Result<(), GraphError> {
    if !bytes.len().is_multiple_of(4) || bytes.len() < 8 {
        return Err(GraphError::BadLength(bytes.len()));
    }
    Ok(())
}

/// The nodes in little-endian `bytes`, copied (whatever their alignment); not yet checked to
/// form a graph ([`Graph::from_nodes`] does).
///
/// # Errors
/// [`GraphError::BadLength`] if the bytes are not a whole number of nodes, at least two.
pub fn nodes_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, GraphError> {
    check_length(bytes)?;
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

impl<'a> Graph<'a> {
    /// A graph over little-endian bytes, read in place (no copy on little-endian machines).
    ///
    /// # Errors
    /// [`GraphError`] if the bytes are misaligned, of a bad length, or not a well-formed graph.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Graph<'a>, GraphError> {
        let nodes: std::borrow::Cow<'a, [u32]> = if cfg!(target_endian = "little") {
            check_length(bytes)?;
            std::borrow::Cow::Borrowed(as_words(bytes).ok_or(GraphError::Misaligned)?)
        } else {
            std::borrow::Cow::Owned(nodes_from_bytes(bytes)?)
        };
        let graph = Graph { nodes };
        graph.verify()?;
        Ok(graph)
    }

    /// A graph over bytes this program built itself (e.g. embedded at compile time): the layout
    /// is checked but the nodes are not scanned, so loading costs nothing. A corrupt graph can
    /// only make lookups wrong or panic on an index, never read out of bounds.
    ///
    /// # Errors
    /// [`GraphError`] if the bytes are misaligned or of a bad length.
    pub fn from_bytes_trusted(bytes: &'a [u8]) -> Result<Graph<'a>, GraphError> {
        check_length(bytes)?;
        match as_words(bytes) {
            Some(words) if cfg!(target_endian = "little") => Ok(Graph { nodes: std::borrow::Cow::Borrowed(words) }),
            Some(_) => Graph::from_bytes(bytes),
            None => Err(GraphError::Misaligned),
        }
    }

    /// A graph owning nodes this program's build made, read back at run time (e.g. from a
    /// file whose fingerprint matched the build's): only the length is checked, the nodes are
    /// not scanned. As with [`Graph::from_bytes_trusted`], a corrupt graph can only make lookups
    /// wrong or panic on an index, never read out of bounds.
    ///
    /// # Errors
    /// [`GraphError::BadLength`] for fewer than two nodes.
    pub fn from_nodes_trusted(nodes: Vec<u32>) -> Result<Graph<'static>, GraphError> {
        if nodes.len() < 2 {
            return Err(GraphError::BadLength(nodes.len() * 4));
        }
        Ok(Graph { nodes: std::borrow::Cow::Owned(nodes) })
    }

    /// A graph owning its nodes (e.g. compiled at run time).
    ///
    /// # Errors
    /// [`GraphError`] if the nodes are not a well-formed graph.
    pub fn from_nodes(nodes: Vec<u32>) -> Result<Graph<'static>, GraphError> {
        if nodes.len() < 2 {
            return Err(GraphError::BadLength(nodes.len() * 4));
        }
        let graph = Graph { nodes: std::borrow::Cow::Owned(nodes) };
        graph.verify()?;
        Ok(graph)
    }

    fn verify(&self) -> Result<(), GraphError> {
        let n = self.nodes.len();
        for (i, &raw) in self.nodes.iter().enumerate() {
            if Node(raw).arc() as usize >= n {
                return Err(GraphError::DanglingArc { node: i });
            }
        }
        if let Some(last) = self.nodes.last()
            && n > 2
            && !Node(*last).is_end()
        {
            return Err(GraphError::UnterminatedList { start: n - 1 });
        }
        Ok(())
    }

    /// The nodes, as the format describes them.
    pub fn nodes(&self) -> &[u32] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph holds no word.
    pub fn is_empty(&self) -> bool {
        self.dawg_root() == 0
    }

    /// The node at `index`.
    #[inline]
    pub fn node(&self, index: u32) -> Node {
        Node(self.nodes[index as usize])
    }

    /// The first node of the DAWG's root list (0 when empty).
    #[inline]
    pub fn dawg_root(&self) -> u32 {
        self.node(0).arc()
    }

    /// The first node of the GADDAG's root list (0 when empty).
    #[inline]
    pub fn gaddag_root(&self) -> u32 {
        self.node(1).arc()
    }

    /// The node for `tile` in the sibling list starting at `list`, if any.
    #[inline]
    pub fn find(&self, list: u32, tile: u8) -> Option<u32> {
        if list == 0 {
            return None;
        }
        let mut i = list;
        loop {
            let node = self.node(i);
            if node.tile() == tile {
                return Some(i);
            }
            if node.is_end() || node.tile() > tile {
                return None;
            }
            i += 1;
        }
    }

    /// The sibling list starting at `list`, as (index, node) pairs.
    #[inline]
    pub fn siblings(&self, list: u32) -> Siblings<'_, 'a> {
        Siblings { graph: self, next: list }
    }

    /// Whether `word` (tile codes, 1-based) is in the DAWG.
    pub fn contains(&self, word: &[u8]) -> bool {
        let mut list = self.dawg_root();
        let mut accepts = false;
        for &t in word {
            let Some(i) = self.find(list, t) else { return false };
            let node = self.node(i);
            accepts = node.accepts();
            list = node.arc();
        }
        accepts && !word.is_empty()
    }

    /// Every word of the DAWG, in tile order.
    pub fn words(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        self.collect(self.dawg_root(), &mut prefix, &mut out);
        out
    }

    fn collect(&self, list: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        for (_, node) in self.siblings(list) {
            prefix.push(node.tile());
            if node.accepts() {
                out.push(prefix.clone());
            }
            self.collect(node.arc(), prefix, out);
            prefix.pop();
        }
    }

    /// The separator's node in the list at `list`, if any.
    #[inline]
    pub fn separator(&self, list: u32) -> Option<u32> {
        if list == 0 {
            return None;
        }
        (self.node(list).tile() == SEPARATOR).then_some(list)
    }
}

/// Iterator over one sibling list.
#[derive(Debug, Clone)]
pub struct Siblings<'g, 'a> {
    graph: &'g Graph<'a>,
    next: u32,
}

impl Iterator for Siblings<'_, '_> {
    type Item = (u32, Node);

    #[inline]
    fn next(&mut self) -> Option<(u32, Node)> {
        if self.next == 0 {
            return None;
        }
        let i = self.next;
        let node = self.graph.node(i);
        self.next = if node.is_end() { 0 } else { i + 1 };
        Some((i, node))
    }
}

/// `bytes` as native `u32` words, if 4-byte aligned and a whole number of words.
#[allow(unsafe_code)]
fn as_words(bytes: &[u8]) -> Option<&[u32]> {
    // SAFETY: every bit pattern is a valid u32; `align_to` hands back only the aligned middle,
    // and we accept the result only when nothing is left over on either side.
    let (head, body, tail) = unsafe { bytes.align_to::<u32>() };
    (head.is_empty() && tail.is_empty()).then_some(body)
}

/// Asks the processor to start loading the node at `index` (a child list the caller will read
/// soon), without waiting for it: a hint, with no effect on any result. An index past the end is
/// harmless (no load happens). A no-op on targets other than x86-64 and AArch64.
#[inline(always)]
#[allow(unsafe_code)]
pub fn prefetch(nodes: &[u32], index: u32) {
    let p = nodes.as_ptr().wrapping_add(index as usize);
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address, and changes no
    // memory or register the program can observe. The pointer is never dereferenced.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    // SAFETY: as above; `prfm` is AArch64's prefetch hint.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!("prfm pldl1keep, [{0}]", in(reg) p, options(nostack, preserves_flags, readonly));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn a_prefetch_anywhere_is_harmless() {
        let nodes = [7u32, 8, 9];
        for index in [0, 2, 3, 1 << 21, u32::MAX] {
            prefetch(&nodes, index);
        }
        prefetch(&[], 0);
        assert_eq!(nodes, [7, 8, 9]);
    }
}
