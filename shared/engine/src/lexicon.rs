//! Lexicons: which letter sequences are words, and the word lists the engine ships.
//!
//! The lists are committed gzipped under `shared/engine/data/` (see the SOURCE notes there) and
//! rebuilt byte for byte by `scripts/build-wordlists.sh`; they are embedded in the binary, never
//! downloaded.

use std::collections::HashSet;
use std::io::Read;
use std::sync::OnceLock;

use wordgraph::Graph;

use crate::letter::Letter;
use crate::variant::{Rules, Variant};

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
        variant: Variant,
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
}

/// The word graph compiled from the shipped list of `variant` by the build script, borrowed in
/// place from the binary (nothing is parsed or copied).
pub fn builtin_graph(variant: Variant) -> &'static WordGraph {
    static GRAPHS: [OnceLock<WordGraph>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (slot, bytes): (usize, &'static Aligned<[u8]>) = match variant {
        Variant::ScrabbleEn => (0, &SCRABBLE_EN_KWG),
        Variant::ScrabbleRu => (1, &SCRABBLE_RU_KWG),
        Variant::Erudit => (2, &ERUDIT_KWG),
    };
    GRAPHS[slot]
        .get_or_init(|| WordGraph { graph: Graph::from_bytes_trusted(&bytes.0).expect("the build script writes aligned, whole graphs") })
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
}

impl WordGraph {
    /// Compiles a word list (one word per line, as [`WordList::parse`] reads it) into a graph.
    ///
    /// # Errors
    /// [`LexiconError`] naming the first bad line.
    pub fn compile(rules: &Rules, text: &str) -> Result<WordGraph, LexiconError> {
        let list = WordList::parse(rules, text)?;
        let words: Vec<Vec<u8>> = list.iter().map(|w| w.iter().map(|l| tile_code(*l)).collect()).collect();
        let nodes = wordgraph::build(&words).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
        let graph = Graph::from_nodes(nodes).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
        Ok(WordGraph { graph })
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

/// The graph's tile code for a letter: its alphabet index + 1 (0 is the GADDAG separator).
pub const fn tile_code(letter: Letter) -> u8 {
    letter.index() as u8 + 1
}

/// A plain set of words: the simple [`Lexicon`] over the shipped lists.
#[derive(Debug, Clone, Default)]
pub struct WordList {
    words: HashSet<Box<[Letter]>>,
}

/// The gzipped list shipped for `variant`.
pub fn embedded_gz(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::ScrabbleEn => include_bytes!("../data/scrabble-en.txt.gz"),
        Variant::ScrabbleRu => include_bytes!("../data/scrabble-ru.txt.gz"),
        Variant::Erudit => include_bytes!("../data/erudit.txt.gz"),
    }
}

/// The shipped word list for `variant` as text, one word per line.
///
/// # Errors
/// [`LexiconError::Corrupt`] if the embedded gzip does not decode (a broken build).
pub fn embedded_text(variant: Variant) -> Result<String, LexiconError> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(embedded_gz(variant)).read_to_string(&mut text).map_err(|e| LexiconError::Corrupt(e.to_string()))?;
    Ok(text)
}

impl WordList {
    /// The list shipped for `variant`.
    ///
    /// # Errors
    /// [`LexiconError::Corrupt`] if the embedded list does not decode.
    pub fn builtin(variant: Variant) -> Result<WordList, LexiconError> {
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
