//! What a game starts from: seed, seats, the options pinned for the game and the opening word.
//! With the journal, the setup is everything needed to rebuild a game.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::dictionary::{Dictionary, WordId, WordListEdition};
use crate::random::below;
use crate::scoring::DEFAULT_SCORE_CAP;
use crate::spelling;
use crate::used::UsedWords;

/// The variant id of Nối từ.
pub const VARIANT: &str = "noi-tu";

/// The default least number of words the opening word's last syllable must begin (see
/// [`Options::opening_min_continuations`]).
pub const DEFAULT_OPENING_MIN_CONTINUATIONS: u32 = 10;

/// The most seats a game has: a group chain of up to eight.
pub const MAX_SEATS: usize = 8;

/// The most lives a seat may start with.
pub const MAX_LIVES: u32 = 5;

/// Rules a game pins at its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// A drawn opening word's last syllable begins at least this many other words, so the first
    /// answer has a real choice (at least 1 is always required).
    pub opening_min_continuations: u32,
    /// A drawn opening gives no instant win: none of the first answers leaves the second seat
    /// without a word. Without it, two drawn openings in three could be won by the first answer
    /// (1,458 syllables of the everyday list are dead ends, 1,593 of pyvi's, and most syllables
    /// with many words lead to one).
    pub opening_without_instant_win: bool,
    /// The most points one word scores ([`crate::scoring`]).
    pub score_cap: u32,
    /// A drawn opening is a familiar word ([`Dictionary::is_familiar`]) and at least
    /// [`Options::opening_min_continuations`] of the words its last syllable begins are familiar:
    /// a game opens on words people know (a setup stored without it drew without it; every
    /// stored setup names its opening anyway).
    #[serde(default)]
    pub opening_familiar: bool,
    /// The word list the game is played on; a stored setup without it was created on
    /// [`WordListEdition::Pyvi`], the only list then.
    #[serde(default = "WordListEdition::legacy")]
    pub word_list: WordListEdition,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            opening_min_continuations: DEFAULT_OPENING_MIN_CONTINUATIONS,
            opening_without_instant_win: true,
            score_cap: DEFAULT_SCORE_CAP,
            opening_familiar: true,
            word_list: WordListEdition::CURRENT,
        }
    }
}

/// A game's setup. A game's own [`crate::WordChain::setup`] always names its opening word, so a stored
/// setup replays onto the same chain even if the rule that draws openings changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChainSetup {
    /// Seeds the opening draw.
    pub seed: u64,
    /// Number of seats: 2 to [`MAX_SEATS`], moving in seat order.
    pub seats: usize,
    /// The lives each seat starts with ([`ChainSetup::lives`]); absent, the default for the
    /// seats: 1 for two (a game ends at its first dead end, the rule of every setup stored
    /// before groups), 3 for more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lives: Option<u32>,
    /// The pinned rules.
    #[serde(default)]
    pub options: Options,
    /// The opening word; absent, it is drawn from the seed among the words that fit the options
    /// ([`Options::opening_min_continuations`], [`Options::opening_without_instant_win`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
}

impl ChainSetup {
    /// Two seats, default options, the opening drawn from `seed`.
    pub fn new(seed: u64) -> ChainSetup {
        ChainSetup { seed, seats: 2, lives: None, options: Options::default(), opening: None }
    }

    /// The lives each seat starts with: as pinned, else 1 for two seats and 3 for more.
    pub fn lives(&self) -> u32 {
        self.lives.unwrap_or(if self.seats == 2 { 1 } else { 3 })
    }
}

/// A setup the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainSetupError {
    /// A seat count outside 2 to [`MAX_SEATS`].
    #[error("Nối từ has 2 to 8 seats, not {0}")]
    Seats(usize),
    /// Lives outside 1 to [`MAX_LIVES`].
    #[error("a seat starts with 1 to 5 lives, not {0}")]
    Lives(u32),
    /// The opening word given is not in the dictionary.
    #[error("the opening word {0:?} is not in the dictionary")]
    UnknownOpening(String),
    /// No word fits the opening options, or the one given leaves the first seat no word.
    #[error("no opening word leaves at least {0} continuations as the options require")]
    NoOpening(u32),
}

/// The opening word of `setup` in `dict`.
pub(crate) fn opening(setup: &ChainSetup, dict: &Dictionary) -> Result<WordId, ChainSetupError> {
    if !(2..=MAX_SEATS).contains(&setup.seats) {
        return Err(ChainSetupError::Seats(setup.seats));
    }
    if !(1..=MAX_LIVES).contains(&setup.lives()) {
        return Err(ChainSetupError::Lives(setup.lives()));
    }
    let needed = setup.options.opening_min_continuations.max(1);
    if let Some(given) = &setup.opening {
        let word =
            spelling::normalize(given).ok().and_then(|w| dict.lookup(&w)).ok_or_else(|| ChainSetupError::UnknownOpening(given.clone()))?;
        return if continuations(dict, word) >= 1 { Ok(word) } else { Err(ChainSetupError::NoOpening(1)) };
    }
    let eligible = eligible_openings(&setup.options, dict);
    if eligible.is_empty() {
        return Err(ChainSetupError::NoOpening(needed));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    Ok(eligible[below(&mut rng, eligible.len())])
}

/// The opening of round `round` (from 1: the rounds after a seat lost a life), drawn as the first
/// one is, from the setup's seed and the round, among the openings `options` allow that are not
/// spent and still leave an unspent answer; failing those, among any unspent words that do. None
/// when no word is left to open with.
pub(crate) fn round_opening(setup: &ChainSetup, dict: &Dictionary, round: u32, used: &UsedWords) -> Option<WordId> {
    let answered = |w: WordId| dict.words_from(dict.last(w)).any(|x| x != w && !used.contains(x));
    let mut pool: Vec<WordId> = eligible_openings(&setup.options, dict).into_iter().filter(|&w| !used.contains(w) && answered(w)).collect();
    if pool.is_empty() {
        pool = dict.words().filter(|&w| !used.contains(w) && answered(w)).collect();
    }
    if pool.is_empty() {
        return None;
    }
    // Each round its own stream, from the seed: the golden ratio's bits keep the rounds' seeds
    // apart.
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    Some(pool[below(&mut rng, pool.len())])
}

/// The words an opening is drawn from under `options`, in dictionary order.
pub fn eligible_openings(options: &Options, dict: &Dictionary) -> Vec<WordId> {
    let needed = options.opening_min_continuations.max(1);
    // Per syllable: the words from it that could leave no answer (into a syllable beginning at
    // most two words), and how many familiar words it begins. One pass, not one per opening.
    let syllables = dict.syllable_count();
    let mut near_kills: Vec<Vec<WordId>> = vec![Vec::new(); syllables];
    let mut familiar_from = vec![0u32; syllables];
    for s in dict.syllables() {
        for x in dict.words_from(s) {
            if dict.out_degree(dict.last(x)) <= 2 {
                near_kills[s.index()].push(x);
            }
            familiar_from[s.index()] += u32::from(dict.is_familiar(x));
        }
    }
    dict.words()
        .filter(|&w| continuations(dict, w) >= needed)
        .filter(|&w| !(options.opening_without_instant_win && instant_win_after(dict, w, &near_kills[dict.last(w).index()])))
        .filter(|&w| {
            let own = u32::from(dict.first(w) == dict.last(w) && dict.is_familiar(w));
            !options.opening_familiar || (dict.is_familiar(w) && familiar_from[dict.last(w).index()] - own >= needed)
        })
        .collect()
}

/// Words other than `opening` that begin with its last syllable.
fn continuations(dict: &Dictionary, opening: WordId) -> u32 {
    let last = dict.last(opening);
    let own = u32::from(dict.first(opening) == last);
    dict.out_degree(last) as u32 - own
}

/// Whether, after `opening`, the first seat has a word that leaves the second seat none;
/// `near_kills`: the words from its last syllable into a syllable that begins at most two words
/// (the only ones that can: at most the opening and the answer itself are spent).
fn instant_win_after(dict: &Dictionary, opening: WordId, near_kills: &[WordId]) -> bool {
    let at = dict.last(opening);
    near_kills.iter().copied().filter(|&x| x != opening).any(|x| {
        let to = dict.last(x);
        let spent = usize::from(dict.first(opening) == to) + usize::from(at == to);
        dict.out_degree(to) == spent
    })
}
