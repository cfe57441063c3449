//! Lexicons: which letter sequences are words, and the word lists the engine ships.
//!
//! The lists are committed gzipped under `shared/engine/data/` (see the SOURCE notes there) and
//! rebuilt byte for byte by `scripts/build-wordlists.sh`; they are embedded in the binary, never
//! downloaded.

use std::collections::HashSet;
use std::io::Read;
use std::sync::OnceLock;

use wordgraph::Graph;

use crate::bingo::BingoWords;
use crate::counts::tile_code;
use crate::letter::Letter;
use crate::short_words::ShortWords;
use crate::variant::{Rules, TileVariant};

/// Answers whether a sequence of letters is a word.
pub trait Lexicon {
    /// Whether `word` is in the lexicon.
    fn contains(&self, word: &[Letter]) -> bool;
}

/// A word list that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LexiconError {
    /// A line holds a character outside the variant's alphabet.
    #[error("line {line}: {word:?} has a letter outside the {variant} alphabet")]
    UnknownLetter {
        /// 1-based line number.
        line: usize,
        /// The offending word.
        word: String,
        /// The variant whose alphabet was used.
        variant: TileVariant,
    },
    /// A line holds a word shorter than two letters or longer than the board.
    #[error("line {line}: {word:?} is not 2 to 15 letters long")]
    BadLength {
        /// 1-based line number.
        line: usize,
        /// The offending word.
        word: String,
    },
    /// The embedded gzip could not be decoded.
    #[error("the embedded word list is corrupt: {0}")]
    Corrupt(String),
    /// A word graph supplied at run time is not the one this build expects.
    #[error("the {variant} word graph is not the one this build expects: {reason}")]
    WrongGraph {
        /// The variant it was loaded for.
        variant: TileVariant,
        /// What is wrong with it.
        reason: String,
    },
    /// A word graph could not be read at all (the loader's own error, e.g. a missing file).
    #[error("cannot read the {variant} word graph: {reason}")]
    Unreadable {
        /// The variant it was loaded for.
        variant: TileVariant,
        /// Why.
        reason: String,
    },
}

/// The word graph compiled from the shipped list of `variant` by the build script, borrowed in
/// place from the binary (nothing is parsed or copied).
pub fn builtin_graph(variant: TileVariant) -> &'static WordGraph {
    static GRAPHS: [OnceLock<WordGraph>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let bytes: &'static Aligned<[u8]> = match variant {
        TileVariant::ScrabbleEn => &SCRABBLE_EN_KWG,
        TileVariant::ScrabbleRu => &SCRABBLE_RU_KWG,
        TileVariant::Erudit => &ERUDIT_KWG,
    };
    GRAPHS[slot(variant)]
        .get_or_init(|| WordGraph::new(Graph::from_bytes_trusted(&bytes.0).expect("the build script writes aligned, whole graphs")))
}

include!(concat!(env!("OUT_DIR"), "/fingerprints.rs"));

/// The fingerprint ([`wordgraph::fingerprint`]) of the graph this build compiled for `variant`.
pub const fn graph_fingerprint(variant: TileVariant) -> u64 {
    match variant {
        TileVariant::ScrabbleEn => SCRABBLE_EN_FINGERPRINT,
        TileVariant::ScrabbleRu => SCRABBLE_RU_FINGERPRINT,
        TileVariant::Erudit => ERUDIT_FINGERPRINT,
    }
}

/// Loads the word graph of a variant; see [`Lexicons::with_loader`].
type Loader = dyn Fn(TileVariant) -> Result<WordGraph, LexiconError> + Send + Sync;

/// The word graphs of every variant, each made ready on first use (or up front with
/// [`Lexicons::load_all`]). Either the graphs compiled into the binary ([`Lexicons::builtin`]),
/// or graphs a loader supplies at run time, e.g. files in a Lambda layer, which keeps the
/// binary small; the engine itself does no I/O.
pub struct Lexicons {
    load: Box<Loader>,
    graphs: [OnceLock<WordGraph>; 3],
}

impl std::fmt::Debug for Lexicons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let loaded: Vec<TileVariant> = TileVariant::ALL.into_iter().filter(|v| self.graphs[slot(*v)].get().is_some()).collect();
        f.debug_struct("Lexicons").field("loaded", &loaded).finish_non_exhaustive()
    }
}

impl Lexicons {
    /// The graphs compiled into this binary ([`builtin_graph`]).
    pub fn builtin() -> Lexicons {
        Lexicons::with_loader(|variant| Ok(builtin_graph(variant).clone()))
    }

    /// Graphs that `load` supplies, once per variant, when first needed. Use
    /// [`WordGraph::from_bytes`] in it so that a graph other than this build's is refused.
    pub fn with_loader(load: impl Fn(TileVariant) -> Result<WordGraph, LexiconError> + Send + Sync + 'static) -> Lexicons {
        Lexicons { load: Box::new(load), graphs: [OnceLock::new(), OnceLock::new(), OnceLock::new()] }
    }

    /// The graph of `variant`, loading it on first use. A failed load is not remembered: the
    /// next call tries again.
    ///
    /// # Errors
    /// The loader's [`LexiconError`].
    pub fn get(&self, variant: TileVariant) -> Result<&WordGraph, LexiconError> {
        let cell = &self.graphs[slot(variant)];
        if let Some(graph) = cell.get() {
            return Ok(graph);
        }
        let graph = (self.load)(variant)?;
        Ok(cell.get_or_init(|| graph))
    }

    /// Loads every variant's graph now (at cold start), so no request pays for it.
    ///
    /// # Errors
    /// The first variant's [`LexiconError`].
    pub fn load_all(&self) -> Result<(), LexiconError> {
        TileVariant::ALL.into_iter().try_for_each(|v| self.get(v).map(|_| ()))
    }
}

/// The variant's place in per-variant arrays.
const fn slot(variant: TileVariant) -> usize {
    match variant {
        TileVariant::ScrabbleEn => 0,
        TileVariant::ScrabbleRu => 1,
        TileVariant::Erudit => 2,
    }
}

/// Bytes with the alignment of `u32`, so an embedded graph can be read as nodes in place.
#[repr(C, align(4))]
struct Aligned<B: ?Sized>(B);

static SCRABBLE_EN_KWG: Aligned<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/scrabble-en.kwg")).len()]> =
    Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/scrabble-en.kwg")));
static SCRABBLE_RU_KWG: Aligned<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/scrabble-ru.kwg")).len()]> =
    Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/scrabble-ru.kwg")));
static ERUDIT_KWG: Aligned<[u8; include_bytes!(concat!(env!("OUT_DIR"), "/erudit.kwg")).len()]> =
    Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/erudit.kwg")));

/// A word graph (DAWG + GADDAG, see the `wordgraph` crate): the lexicon the move generator walks.
#[derive(Debug, Clone)]
pub struct WordGraph {
    graph: Graph<'static>,
    /// Its seven- and eight-letter words by letters, for the move generator's bingo bound;
    /// built on first use (≈ 3 ms for the English list, 45,000 keys).
    bingo_words: OnceLock<BingoWords>,
    /// Its two- and three-letter words, for cross-checks against one-letter runs; built on
    /// first use (one pass over the DAWG's first three levels).
    short_words: OnceLock<ShortWords>,
}

impl WordGraph {
    fn new(graph: Graph<'static>) -> WordGraph {
        WordGraph { graph, bingo_words: OnceLock::new(), short_words: OnceLock::new() }
    }

    /// The graph's bingo-length words, built on first use.
    pub(crate) fn bingo_words(&self) -> &BingoWords {
        self.bingo_words.get_or_init(|| BingoWords::new(&self.graph))
    }

    /// The graph's two- and three-letter words, built on first use.
    pub(crate) fn short_words(&self) -> &ShortWords {
        self.short_words.get_or_init(|| ShortWords::new(&self.graph))
    }

    /// Compiles a word list (one word per line, as [`WordList::parse`] reads it) into a graph.
    ///
    /// # Errors
    /// [`LexiconError`] naming the first bad line.
    pub fn compile(rules: &Rules, text: &str) -> Result<WordGraph, LexiconError> {
        let list = WordList::parse(rules, text)?;
        let words: Vec<Vec<u8>> = list.iter().map(|w| w.iter().map(|l| tile_code(*l)).collect()).collect();
        let nodes = wordgraph::build(&words).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
        let graph = Graph::from_nodes(nodes).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
        Ok(WordGraph::new(graph))
    }

    /// The graph of `variant` from its little-endian bytes (as `wordgame graphs` writes them),
    /// checked to be exactly the graph this build compiled from the shipped list: a graph of
    /// another list or another version could judge words differently from the journal's games.
    ///
    /// # Errors
    /// [`LexiconError::WrongGraph`] if the bytes are malformed or not this build's graph.
    pub fn from_bytes(variant: TileVariant, bytes: &[u8]) -> Result<WordGraph, LexiconError> {
        let nodes = wordgraph::nodes_from_bytes(bytes).map_err(|e| LexiconError::WrongGraph { variant, reason: e.to_string() })?;
        WordGraph::from_nodes(variant, nodes)
    }

    /// The graph of `variant` read in place from little-endian bytes that last as long as the
    /// program (say, a Lambda layer's file mapped into memory), refused unless their fingerprint
    /// is this build's, as [`WordGraph::from_nodes`]: nothing is copied on a little-endian
    /// machine.
    ///
    /// # Errors
    /// [`LexiconError::WrongGraph`] for misaligned bytes, a bad length or another graph.
    pub fn from_static_bytes(variant: TileVariant, bytes: &'static [u8]) -> Result<WordGraph, LexiconError> {
        let wrong = |reason: String| LexiconError::WrongGraph { variant, reason };
        let graph = Graph::from_bytes_trusted(bytes).map_err(|e| wrong(e.to_string()))?;
        let found = wordgraph::fingerprint(graph.nodes());
        let expected = graph_fingerprint(variant);
        if found != expected {
            return Err(wrong(format!("fingerprint {found:#018x}, expected {expected:#018x}")));
        }
        Ok(WordGraph::new(graph))
    }

    /// The graph of `variant` from its nodes as read at run time (say, from a Lambda layer's
    /// file), refused unless their fingerprint is this build's: a match means the very graph
    /// the build made, so the nodes are taken as they are, without a second scan.
    ///
    /// # Errors
    /// [`LexiconError::WrongGraph`] for another graph (another build's, another variant's, or
    /// damaged).
    pub fn from_nodes(variant: TileVariant, nodes: Vec<u32>) -> Result<WordGraph, LexiconError> {
        let wrong = |reason: String| LexiconError::WrongGraph { variant, reason };
        let found = wordgraph::fingerprint(&nodes);
        let expected = graph_fingerprint(variant);
        if found != expected {
            return Err(wrong(format!("fingerprint {found:#018x}, expected {expected:#018x}")));
        }
        let graph = Graph::from_nodes_trusted(nodes).map_err(|e| wrong(e.to_string()))?;
        Ok(WordGraph::new(graph))
    }

    /// The graph's little-endian bytes, as [`WordGraph::from_bytes`] reads them.
    pub fn to_bytes(&self) -> Vec<u8> {
        wordgraph::to_bytes(self.graph.nodes())
    }

    /// The graph itself.
    pub fn graph(&self) -> &Graph<'static> {
        &self.graph
    }
}

impl Lexicon for WordGraph {
    fn contains(&self, word: &[Letter]) -> bool {
        let g = &self.graph;
        let mut list = g.dawg_root();
        let mut accepts = false;
        for &l in word {
            let Some(i) = g.find(list, tile_code(l)) else { return false };
            let node = g.node(i);
            accepts = node.accepts();
            list = node.arc();
        }
        accepts
    }
}

/// A plain set of words: the simple [`Lexicon`] over the shipped lists.
#[derive(Debug, Clone, Default)]
pub struct WordList {
    words: HashSet<Box<[Letter]>>,
}

/// The gzipped list shipped for `variant`.
pub fn embedded_gz(variant: TileVariant) -> &'static [u8] {
    match variant {
        TileVariant::ScrabbleEn => include_bytes!("../data/scrabble-en.txt.gz"),
        TileVariant::ScrabbleRu => include_bytes!("../data/scrabble-ru.txt.gz"),
        TileVariant::Erudit => include_bytes!("../data/erudit.txt.gz"),
    }
}

/// The shipped word list for `variant` as text, one word per line.
///
/// # Errors
/// [`LexiconError::Corrupt`] if the embedded gzip does not decode (a broken build).
pub fn embedded_text(variant: TileVariant) -> Result<String, LexiconError> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(embedded_gz(variant)).read_to_string(&mut text).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
    Ok(text)
}

impl WordList {
    /// The list shipped for `variant`.
    ///
    /// # Errors
    /// [`LexiconError::Corrupt`] if the embedded list does not decode.
    pub fn builtin(variant: TileVariant) -> Result<WordList, LexiconError> {
        WordList::parse(variant.rules(), &embedded_text(variant)?)
    }

    /// A list from text, one word per line (blank lines skipped, either case).
    ///
    /// # Errors
    /// [`LexiconError`] naming the first line that is not a word of the variant's alphabet.
    pub fn parse(rules: &Rules, text: &str) -> Result<WordList, LexiconError> {
        let mut words = HashSet::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let word = encode(rules, line).ok_or_else(|| LexiconError::UnknownLetter {
                line: i + 1,
                word: line.to_string(),
                variant: rules.variant,
            })?;
            if !(2..=15).contains(&word.len()) {
                return Err(LexiconError::BadLength { line: i + 1, word: line.to_string() });
            }
            words.insert(word.into_boxed_slice());
        }
        Ok(WordList { words })
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Every word, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &[Letter]> {
        self.words.iter().map(|w| &w[..])
    }
}

impl Lexicon for WordList {
    fn contains(&self, word: &[Letter]) -> bool {
        self.words.contains(word)
    }
}

/// The letters of `word` in the variant's alphabet, or `None` if one is not in it.
pub fn encode(rules: &Rules, word: &str) -> Option<Vec<Letter>> {
    word.chars().map(|c| rules.letter(c)).collect()
}

/// `letters` written in upper case.
pub fn decode(rules: &Rules, letters: &[Letter]) -> String {
    letters.iter().map(|&l| rules.char_of(l)).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn a_graph_round_trips_through_its_bytes() {
        for variant in TileVariant::ALL {
            let bytes = builtin_graph(variant).to_bytes();
            let graph = WordGraph::from_bytes(variant, &bytes).unwrap();
            assert_eq!(graph.graph().nodes(), builtin_graph(variant).graph().nodes());
        }
    }

    #[test]
    fn another_variants_graph_is_refused() {
        let ru = builtin_graph(TileVariant::ScrabbleRu).to_bytes();
        let err = WordGraph::from_bytes(TileVariant::Erudit, &ru).unwrap_err();
        assert!(matches!(err, LexiconError::WrongGraph { variant: TileVariant::Erudit, .. }), "{err}");
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let mut bytes = builtin_graph(TileVariant::ScrabbleEn).to_bytes();
        assert!(WordGraph::from_bytes(TileVariant::ScrabbleEn, &bytes[..bytes.len() - 1]).is_err());
        assert!(WordGraph::from_bytes(TileVariant::ScrabbleEn, &bytes[..bytes.len() - 4]).is_err());
        bytes[1000] ^= 1;
        assert!(WordGraph::from_bytes(TileVariant::ScrabbleEn, &bytes).is_err());
        assert!(WordGraph::from_bytes(TileVariant::ScrabbleEn, &[]).is_err());
    }

    #[test]
    fn a_graph_is_read_in_place_from_static_bytes_only_if_it_is_this_builds() {
        let en: &'static [u8] = &SCRABBLE_EN_KWG.0;
        let graph = WordGraph::from_static_bytes(TileVariant::ScrabbleEn, en).unwrap();
        assert_eq!(graph.graph().nodes(), builtin_graph(TileVariant::ScrabbleEn).graph().nodes());
        if cfg!(target_endian = "little") {
            assert_eq!(graph.graph().nodes().as_ptr().cast::<u8>(), en.as_ptr(), "read in place");
        }
        let ru: &'static [u8] = &SCRABBLE_RU_KWG.0;
        for (variant, bytes) in [
            (TileVariant::Erudit, ru),
            (TileVariant::ScrabbleEn, &en[1..]),
            (TileVariant::ScrabbleEn, &en[..en.len() - 4]),
            (TileVariant::ScrabbleEn, &en[..0]),
        ] {
            let err = WordGraph::from_static_bytes(variant, bytes).unwrap_err();
            assert!(matches!(err, LexiconError::WrongGraph { .. }), "{err}");
        }
    }

    #[test]
    fn lexicons_load_each_variant_once_and_retry_a_failure() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&calls);
        let lexicons = Lexicons::with_loader(move |variant| {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            if n == 0 {
                return Err(LexiconError::Unreadable { variant, reason: "not yet".into() });
            }
            Ok(builtin_graph(variant).clone())
        });
        assert!(matches!(lexicons.get(TileVariant::ScrabbleEn), Err(LexiconError::Unreadable { .. })));
        let word = encode(TileVariant::ScrabbleEn.rules(), "QUIZ").unwrap();
        assert!(lexicons.get(TileVariant::ScrabbleEn).unwrap().contains(&word));
        lexicons.load_all().unwrap();
        lexicons.get(TileVariant::ScrabbleEn).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 4, "one failure, then one load per variant");
    }
}
