//! The dictionary as a directed multigraph: syllables are nodes, words are edges from their first
//! syllable to their last ("pháp luật": pháp → luật). Words with the same first and last syllable
//! are parallel edges, grouped into one [`Link`]: for the game they are interchangeable (a robot
//! searches links, not words).
//!
//! Every entry is keyed by its canonical spelling ([`crate::spelling`]); entries that spell the
//! same (old and new tone placement, i and y) are one word, shown in the spelling of the first of
//! them in the list ([`Dictionary::display`]). The built-in word lists ([`WordListEdition`]) are compiled
//! into the crate and each is parsed on first use.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::spelling::{self, SpellingError};

/// A built-in word list. A game pins the one it was created with (in its setup's options), so a
/// game replays on the words it was played with whichever list new games use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WordListEdition {
    /// Edition 1: pyvi 0.1.1's vocabulary (24,883 words), the list of every game created before
    /// the everyday list; a stored setup that names no list means this one.
    Pyvi,
    /// Edition 2: pyvi's vocabulary merged with underthesea's word lists (59,590 words), each
    /// written in the spelling most writers use ("hòa bình", "công ty", "quý"): the list of
    /// games created before edition 3.
    Everyday,
    /// Edition 3, for new games: edition 2 with everyday phrases added ("đọc sách", "thịt bò"),
    /// entries with an invalid syllable removed ([`crate::is_syllable`]), regional
    /// spellings made aliases of the standard word ("pháp lịnh" of "pháp lệnh") and familiarity
    /// recomputed from more corpora (59,529 words).
    #[serde(rename = "everyday_3")]
    Everyday3,
}

impl WordListEdition {
    /// The list new games use.
    pub const CURRENT: WordListEdition = WordListEdition::Everyday3;

    /// The list a stored setup that names none was created with.
    pub const fn legacy() -> WordListEdition {
        WordListEdition::Pyvi
    }

    /// The compiled gzip (see data/SOURCE.md).
    pub const fn gzip(self) -> &'static [u8] {
        match self {
            WordListEdition::Pyvi => PYVI_GZ,
            WordListEdition::Everyday => EVERYDAY_GZ,
            WordListEdition::Everyday3 => EVERYDAY3_GZ,
        }
    }

    /// The compiled aliases (`variant<TAB>standard` a line), if the list has them (see
    /// data/SOURCE.md).
    pub const fn aliases_gzip(self) -> Option<&'static [u8]> {
        match self {
            WordListEdition::Pyvi | WordListEdition::Everyday => None,
            WordListEdition::Everyday3 => Some(EVERYDAY3_ALIASES_GZ),
        }
    }

    /// The compiled familiarity scores, one digit a line in the list's order, if the list has
    /// them (see data/SOURCE.md).
    pub const fn familiarity_gzip(self) -> Option<&'static [u8]> {
        match self {
            WordListEdition::Pyvi => None,
            WordListEdition::Everyday => Some(EVERYDAY_FAMILIARITY_GZ),
            WordListEdition::Everyday3 => Some(EVERYDAY3_FAMILIARITY_GZ),
        }
    }
}

/// The least familiarity of a familiar word ([`Dictionary::is_familiar`]), what robots play and
/// count as a person's answers: 23,849 of edition 3's 59,529 words (40%, the most familiar of
/// them) reach it; 26,975 of edition 2's 59,590 (45%).
pub const FAMILIAR: u8 = 2;

/// The highest familiarity.
pub const MOST_FAMILIAR: u8 = 9;

/// A syllable of the dictionary: a node of the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SyllableId(pub(crate) u32);

impl SyllableId {
    /// Its index, 0-based.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A word of the dictionary: an edge of the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WordId(pub(crate) u32);

impl WordId {
    /// Its index, 0-based.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The words from one syllable to another: parallel edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub(crate) u32);

impl LinkId {
    /// Its index, 0-based.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone)]
struct Entry {
    text: Box<str>,
    /// The spelling shown, where it is not `text`.
    shown: Option<Box<str>>,
    syllables: u8,
    first: SyllableId,
    last: SyllableId,
    link: LinkId,
}

/// One link: its ends and its words (contiguous ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The syllable its words begin with.
    pub from: SyllableId,
    /// The syllable its words end with.
    pub to: SyllableId,
    words: (u32, u32),
}

impl Link {
    /// Its words.
    pub fn words(&self) -> impl ExactSizeIterator<Item = WordId> + use<> {
        (self.words.0..self.words.1).map(WordId)
    }

    /// How many words it holds.
    pub fn len(&self) -> usize {
        (self.words.1 - self.words.0) as usize
    }

    /// Whether it holds no word (never, in a built dictionary).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A dictionary entry that is not a word of two or more syllables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DictionaryError {
    /// The entry cannot be spelled.
    #[error("entry {line}: {error}")]
    Spelling {
        /// 1-based position in the list.
        line: usize,
        /// Why.
        error: SpellingError,
    },
    /// A familiarity given for a spelling of no word, over the scale, or a word left without one.
    #[error("no familiarity for {0:?}, or one for no word or out of scale")]
    Familiarity(String),
    /// An alias that does not spell, is a word itself, or names no word.
    #[error("alias {0:?} does not spell, is a word, or names no word")]
    Alias(String),
    /// The entry has one syllable.
    #[error("entry {line} has one syllable: {entry:?}")]
    OneSyllable {
        /// 1-based position in the list.
        line: usize,
        /// The entry.
        entry: String,
    },
}

/// Counts that describe a dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Distinct words after normalisation.
    pub words: usize,
    /// Words of 2, 3, 4 and more syllables.
    pub by_syllables: [usize; 4],
    /// Syllables that begin or end a word (the graph's nodes).
    pub syllables: usize,
    /// Syllables that end a word but begin none: a chain that reaches one is over.
    pub dead_ends: usize,
    /// Syllables that begin at least 10 words.
    pub out_degree_10: usize,
    /// Links (distinct first–last syllable pairs).
    pub links: usize,
}

/// The words of the game, as a graph.
#[derive(Clone)]
pub struct Dictionary {
    words: Vec<Entry>,
    by_text: HashMap<Box<str>, WordId>,
    syllables: Vec<Box<str>>,
    by_syllable: HashMap<Box<str>, SyllableId>,
    links: Vec<Link>,
    /// Links of syllable `s`: `links[links_from[s]..links_from[s + 1]]`.
    links_from: Vec<u32>,
    /// Each word's familiarity, 0 to [`MOST_FAMILIAR`]; empty for a list without scores.
    familiarity: Vec<u8>,
    /// Familiar words of each link, and beginning with each syllable; empty without scores.
    familiar_in_link: Vec<u16>,
    familiar_from: Vec<u32>,
    /// Other spellings of words, by their canonical key: each a word's regional variant.
    aliases: HashMap<Box<str>, WordId>,
}

impl fmt::Debug for Dictionary {
    /// Its size, not its 25,000 words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dictionary").field("words", &self.words.len()).field("syllables", &self.syllables.len()).finish_non_exhaustive()
    }
}

/// Edition 1: pyvi 0.1.1's words.txt, filtered (see data/SOURCE.md).
static PYVI_GZ: &[u8] = include_bytes!("../data/noi-tu.txt.gz");
/// Edition 2: pyvi and underthesea merged, one spelling a word (see data/SOURCE.md).
static EVERYDAY_GZ: &[u8] = include_bytes!("../data/noi-tu-2.txt.gz");
/// Edition 2's familiarity scores, line by line.
static EVERYDAY_FAMILIARITY_GZ: &[u8] = include_bytes!("../data/noi-tu-2-familiarity.txt.gz");
/// Edition 3: edition 2 with everyday phrases, checked syllables and aliases (see data/SOURCE.md).
static EVERYDAY3_GZ: &[u8] = include_bytes!("../data/noi-tu-3.txt.gz");
/// Edition 3's familiarity scores, line by line.
static EVERYDAY3_FAMILIARITY_GZ: &[u8] = include_bytes!("../data/noi-tu-3-familiarity.txt.gz");
/// Edition 3's aliases, `variant<TAB>standard` a line.
static EVERYDAY3_ALIASES_GZ: &[u8] = include_bytes!("../data/noi-tu-3-aliases.txt.gz");

impl Dictionary {
    /// The built-in dictionary new games use ([`WordListEdition::CURRENT`]), parsed on first use.
    pub fn builtin() -> &'static Dictionary {
        Dictionary::of(WordListEdition::CURRENT)
    }

    /// The built-in dictionary of `list`, parsed on first use.
    pub fn of(list: WordListEdition) -> &'static Dictionary {
        static PYVI: OnceLock<Dictionary> = OnceLock::new();
        static EVERYDAY: OnceLock<Dictionary> = OnceLock::new();
        static EVERYDAY3: OnceLock<Dictionary> = OnceLock::new();
        let cell = match list {
            WordListEdition::Pyvi => &PYVI,
            WordListEdition::Everyday => &EVERYDAY,
            WordListEdition::Everyday3 => &EVERYDAY3,
        };
        cell.get_or_init(|| {
            let gunzip = |gz: &[u8]| {
                let mut text = String::new();
                flate2::read::GzDecoder::new(gz).read_to_string(&mut text).expect("the compiled lists are valid gzip and UTF-8");
                text
            };
            let text = gunzip(list.gzip());
            let mut dict = Dictionary::from_words(text.lines()).expect("the compiled word list spells");
            if let Some(gz) = list.familiarity_gzip() {
                let scores = gunzip(gz);
                let scores = scores.lines().map(|l| l.parse::<u8>().expect("a familiarity is a digit"));
                dict = dict.with_familiarity(text.lines().zip(scores)).expect("one familiarity a word");
            }
            if let Some(gz) = list.aliases_gzip() {
                let pairs = gunzip(gz);
                let pairs = pairs.lines().map(|l| l.split_once('\t').expect("an alias line is variant TAB standard"));
                dict = dict.with_aliases(pairs).expect("each alias names a word of its list");
            }
            dict
        })
    }

    /// A dictionary of `entries`, each normalised; entries that spell the same are one word,
    /// shown as the first of them is written (lower case, NFC, single spaces).
    ///
    /// # Errors
    /// [`DictionaryError`] for the first entry that cannot be spelled or has one syllable.
    pub fn from_words<I, S>(entries: I) -> Result<Dictionary, DictionaryError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        // (canonical, shown, position): the first entry of a word gives its shown spelling.
        let mut spelled: Vec<(String, String)> = Vec::new();
        for (i, entry) in entries.into_iter().enumerate() {
            let word = spelling::normalize(entry.as_ref()).map_err(|error| DictionaryError::Spelling { line: i + 1, error })?;
            if !word.contains(' ') {
                return Err(DictionaryError::OneSyllable { line: i + 1, entry: word });
            }
            let shown = spelling::spelled(entry.as_ref()).unwrap_or_else(|_| word.clone());
            spelled.push((word, shown));
        }
        // A stable sort keeps each word's first entry first.
        spelled.sort_by(|a, b| a.0.cmp(&b.0));
        spelled.dedup_by(|later, first| later.0 == first.0);

        // Syllables in code-point order, so ids do not depend on the input's order.
        let mut names: Vec<&str> = spelled.iter().flat_map(|(w, _)| [first_syllable(w), last_syllable(w)]).collect();
        names.sort_unstable();
        names.dedup();
        let syllables: Vec<Box<str>> = names.iter().map(|&s| Box::from(s)).collect();
        let by_syllable: HashMap<Box<str>, SyllableId> =
            syllables.iter().enumerate().map(|(i, s)| (s.clone(), SyllableId(i as u32))).collect();
        let id = |s: &str| by_syllable[s];

        // Words ordered by (first, last, text): each syllable's words and each link's are
        // contiguous.
        let mut keyed: Vec<(SyllableId, SyllableId, String, String)> =
            spelled.into_iter().map(|(w, shown)| (id(first_syllable(&w)), id(last_syllable(&w)), w, shown)).collect();
        keyed.sort_unstable();
        let mut words = Vec::with_capacity(keyed.len());
        let mut links: Vec<Link> = Vec::new();
        let mut links_from = vec![0u32; syllables.len() + 1];
        for (i, (first, last, text, shown)) in keyed.into_iter().enumerate() {
            let i = i as u32;
            match links.last_mut() {
                Some(l) if l.from == first && l.to == last => l.words.1 = i + 1,
                _ => {
                    links.push(Link { from: first, to: last, words: (i, i + 1) });
                    links_from[first.index() + 1] += 1;
                }
            }
            let syllables = text.split(' ').count().min(usize::from(u8::MAX)) as u8;
            let shown = (shown != text).then(|| shown.into_boxed_str());
            words.push(Entry { text: text.into_boxed_str(), shown, syllables, first, last, link: LinkId(links.len() as u32 - 1) });
        }
        for s in 0..syllables.len() {
            links_from[s + 1] += links_from[s];
        }
        let by_text = words.iter().enumerate().map(|(i, e)| (e.text.clone(), WordId(i as u32))).collect();
        Ok(Dictionary {
            words,
            by_text,
            syllables,
            by_syllable,
            links,
            links_from,
            familiarity: Vec::new(),
            familiar_in_link: Vec::new(),
            familiar_from: Vec::new(),
            aliases: HashMap::new(),
        })
    }

    /// This dictionary with other spellings of its words, given as pairs of a variant and the
    /// word it spells (a regional spelling, "pháp lịnh" of "pháp lệnh"): a variant is accepted
    /// as that word ([`Dictionary::find`]) and is not a word of its own.
    ///
    /// # Errors
    /// [`DictionaryError::Alias`] for a variant that does not spell, or is already a word, or a
    /// standard form that is no word.
    pub fn with_aliases<I, S, T>(mut self, pairs: I) -> Result<Dictionary, DictionaryError>
    where
        I: IntoIterator<Item = (S, T)>,
        S: AsRef<str>,
        T: AsRef<str>,
    {
        for (variant, standard) in pairs {
            let (variant, standard) = (variant.as_ref(), standard.as_ref());
            let key = spelling::normalize(variant).map_err(|_| DictionaryError::Alias(variant.to_string()))?;
            let word = spelling::normalize(standard).ok().and_then(|s| self.lookup(&s));
            match word {
                Some(w) if self.lookup(&key).is_none() => {
                    self.aliases.insert(key.into(), w);
                }
                _ => return Err(DictionaryError::Alias(variant.to_string())),
            }
        }
        Ok(self)
    }

    /// This dictionary with each word's familiarity (0 to [`MOST_FAMILIAR`]), given as pairs of
    /// a spelling of the word and its score; a word given twice keeps the last score.
    ///
    /// # Errors
    /// [`DictionaryError::Familiarity`] for a spelling of no word, a score over
    /// [`MOST_FAMILIAR`], or a word left without a score.
    pub fn with_familiarity<I, S>(mut self, scores: I) -> Result<Dictionary, DictionaryError>
    where
        I: IntoIterator<Item = (S, u8)>,
        S: AsRef<str>,
    {
        const NONE: u8 = u8::MAX;
        let mut familiarity = vec![NONE; self.words.len()];
        // A word's shown spelling is found without normalising it again.
        let shown: HashMap<&str, WordId> = self.words().map(|w| (self.display(w), w)).collect();
        for (spelling, score) in scores {
            let spelling = spelling.as_ref();
            let word = shown.get(spelling).copied().or_else(|| spelling::normalize(spelling).ok().and_then(|w| self.lookup(&w)));
            match word {
                Some(w) if score <= MOST_FAMILIAR => familiarity[w.index()] = score,
                _ => return Err(DictionaryError::Familiarity(spelling.to_string())),
            }
        }
        if let Some(i) = familiarity.iter().position(|&f| f == NONE) {
            return Err(DictionaryError::Familiarity(self.words[i].text.to_string()));
        }
        self.familiarity = familiarity;
        let familiar = |words: &mut dyn Iterator<Item = WordId>| words.filter(|&w| self.is_familiar(w)).count();
        let in_link = self.links.iter().map(|l| familiar(&mut l.words()) as u16).collect();
        let from = self.syllables().map(|s| familiar(&mut self.words_from(s)) as u32).collect();
        (self.familiar_in_link, self.familiar_from) = (in_link, from);
        Ok(self)
    }

    /// A word's familiarity, 0 (one source lists it, the corpus has it not) to [`MOST_FAMILIAR`]
    /// (every source, and frequent in the corpus); `None` in a list without scores.
    pub fn familiarity(&self, word: WordId) -> Option<u8> {
        self.familiarity.get(word.index()).copied()
    }

    /// Whether a word is among the familiar ones (familiarity at least [`FAMILIAR`]); every word
    /// is, in a list without scores.
    pub fn is_familiar(&self, word: WordId) -> bool {
        self.familiarity(word).is_none_or(|f| f >= FAMILIAR)
    }

    /// How many familiar words `link` holds (all of them in a list without scores).
    pub fn familiar_len(&self, link: LinkId) -> usize {
        self.familiar_in_link.get(link.index()).map_or_else(|| self.link(link).len(), |&n| usize::from(n))
    }

    /// How many familiar words begin with `syllable` (all of them in a list without scores).
    pub fn familiar_out_degree(&self, syllable: SyllableId) -> usize {
        self.familiar_from.get(syllable.index()).map_or_else(|| self.out_degree(syllable), |&n| n as usize)
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether it has no word.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Number of syllables (nodes).
    pub fn syllable_count(&self) -> usize {
        self.syllables.len()
    }

    /// Number of links.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    /// The word spelled `canonical` (already normalised), if it is one.
    pub fn lookup(&self, canonical: &str) -> Option<WordId> {
        self.by_text.get(canonical).copied()
    }

    /// The word `canonical` (already normalised) spells: itself, or the word it is an alias of.
    pub fn find(&self, canonical: &str) -> Option<WordId> {
        self.lookup(canonical).or_else(|| self.aliases.get(canonical).copied())
    }

    /// How many aliases it holds.
    pub fn alias_count(&self) -> usize {
        self.aliases.len()
    }

    /// The syllable spelled `canonical`, if it begins or ends a word.
    pub fn syllable_id(&self, canonical: &str) -> Option<SyllableId> {
        self.by_syllable.get(canonical).copied()
    }

    /// A word's canonical spelling: its key, which journals record.
    ///
    /// # Panics
    /// If `word` is not of this dictionary (as for every accessor taking an id).
    pub fn text(&self, word: WordId) -> &str {
        &self.words[word.index()].text
    }

    /// A word's spelling as most writers write it (the list's own spelling of it, "hòa bình",
    /// "quý báu"), for robots' words, hints and openings; its key is [`Dictionary::text`].
    pub fn display(&self, word: WordId) -> &str {
        let e = &self.words[word.index()];
        e.shown.as_deref().unwrap_or(&e.text)
    }

    /// The word whose canonical spelling is `key` as the game shows a word it chose (a round's
    /// opening): [`Dictionary::display`], or `key` itself for a word this dictionary lacks.
    pub fn shown<'a>(&'a self, key: &'a str) -> &'a str {
        self.lookup(key).map_or(key, |w| self.display(w))
    }

    /// A word's number of syllables.
    pub fn syllables_in(&self, word: WordId) -> u32 {
        u32::from(self.words[word.index()].syllables)
    }

    /// A word's first syllable.
    pub fn first(&self, word: WordId) -> SyllableId {
        self.words[word.index()].first
    }

    /// A word's last syllable.
    pub fn last(&self, word: WordId) -> SyllableId {
        self.words[word.index()].last
    }

    /// The link a word belongs to.
    pub fn link_of(&self, word: WordId) -> LinkId {
        self.words[word.index()].link
    }

    /// A syllable's spelling.
    pub fn syllable(&self, syllable: SyllableId) -> &str {
        &self.syllables[syllable.index()]
    }

    /// A link.
    pub fn link(&self, link: LinkId) -> &Link {
        &self.links[link.index()]
    }

    /// The links from `syllable`, in order of destination.
    pub fn links_from(&self, syllable: SyllableId) -> impl ExactSizeIterator<Item = LinkId> + use<> {
        let s = syllable.index();
        (self.links_from[s]..self.links_from[s + 1]).map(LinkId)
    }

    /// The words that begin with `syllable`, in order of (last syllable, spelling).
    pub fn words_from(&self, syllable: SyllableId) -> impl ExactSizeIterator<Item = WordId> + use<> {
        let s = syllable.index();
        let (a, b) = (self.links_from[s] as usize, self.links_from[s + 1] as usize);
        let start = if a == b { 0 } else { self.links[a].words.0 };
        let end = if a == b { 0 } else { self.links[b - 1].words.1 };
        (start..end).map(WordId)
    }

    /// How many words begin with `syllable`.
    pub fn out_degree(&self, syllable: SyllableId) -> usize {
        self.words_from(syllable).len()
    }

    /// Every syllable, in id order (code-point order of their spellings).
    pub fn syllables(&self) -> impl ExactSizeIterator<Item = SyllableId> + use<> {
        (0..self.syllables.len() as u32).map(SyllableId)
    }

    /// Every word, in id order.
    pub fn words(&self) -> impl ExactSizeIterator<Item = WordId> + use<> {
        (0..self.words.len() as u32).map(WordId)
    }

    /// Its counts.
    pub fn stats(&self) -> Stats {
        let mut by_syllables = [0; 4];
        for e in &self.words {
            by_syllables[usize::from(e.syllables).clamp(2, 5) - 2] += 1;
        }
        let degrees = self.syllables().map(|s| self.out_degree(s));
        let (dead_ends, out_degree_10) = degrees.fold((0, 0), |(d, t), n| (d + usize::from(n == 0), t + usize::from(n >= 10)));
        Stats { words: self.words.len(), by_syllables, syllables: self.syllables.len(), dead_ends, out_degree_10, links: self.links.len() }
    }
}

fn first_syllable(word: &str) -> &str {
    word.split(' ').next().unwrap_or(word)
}

fn last_syllable(word: &str) -> &str {
    word.rsplit(' ').next().unwrap_or(word)
}
