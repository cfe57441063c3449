//! What a game starts from: seed, seats, the options pinned for the game and the opening word.
//! With the journal, the setup is everything needed to rebuild a game.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::dictionary::{Dictionary, WordId};
use crate::scoring::DEFAULT_SCORE_CAP;
use crate::spelling;

/// The variant id of Nối từ.
pub const VARIANT: &str = "noi-tu";

/// The default least number of words the opening word's last syllable must begin (see
/// [`Options::opening_min_continuations`]).
pub const DEFAULT_OPENING_MIN_CONTINUATIONS: u32 = 20;

/// Rules a game pins at its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// A drawn opening word's last syllable begins at least this many other words, so the first
    /// answer has a real choice (many syllables are dead ends; at least 1 is always required).
    pub opening_min_continuations: u32,
    /// The most points one word scores ([`crate::scoring`]).
    pub score_cap: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { opening_min_continuations: DEFAULT_OPENING_MIN_CONTINUATIONS, score_cap: DEFAULT_SCORE_CAP }
    }
}

/// A game's setup. A game's own [`crate::Game::setup`] always names its opening word, so a stored
/// setup replays onto the same chain even if the rule that draws openings changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// Seeds the opening draw.
    pub seed: u64,
    /// Number of seats: 2.
    pub seats: usize,
    /// The pinned rules.
    #[serde(default)]
    pub options: Options,
    /// The opening word; absent, it is drawn from the seed among the words whose last syllable
    /// begins at least [`Options::opening_min_continuations`] others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
}

impl Setup {
    /// Two seats, default options, the opening drawn from `seed`.
    pub fn new(seed: u64) -> Setup {
        Setup { seed, seats: 2, options: Options::default(), opening: None }
    }
}

/// A setup the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A seat count other than 2.
    #[error("Nối từ has 2 seats, not {0}")]
    Seats(usize),
    /// The opening word given is not in the dictionary.
    #[error("the opening word {0:?} is not in the dictionary")]
    UnknownOpening(String),
    /// No word can open: none (or not the one given) leaves the first seat enough continuations.
    #[error("no opening word leaves at least {0} continuations")]
    NoOpening(u32),
}

/// The opening word of `setup` in `dict`.
pub(crate) fn opening(setup: &Setup, dict: &Dictionary) -> Result<WordId, SetupError> {
    if setup.seats != 2 {
        return Err(SetupError::Seats(setup.seats));
    }
    let needed = setup.options.opening_min_continuations.max(1);
    if let Some(given) = &setup.opening {
        let word =
            spelling::normalize(given).ok().and_then(|w| dict.lookup(&w)).ok_or_else(|| SetupError::UnknownOpening(given.clone()))?;
        return if continuations(dict, word) >= 1 { Ok(word) } else { Err(SetupError::NoOpening(1)) };
    }
    let eligible: Vec<WordId> = dict.words().filter(|&w| continuations(dict, w) >= needed).collect();
    if eligible.is_empty() {
        return Err(SetupError::NoOpening(needed));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    Ok(eligible[below(&mut rng, eligible.len())])
}

/// Words other than `word` that begin with its last syllable.
fn continuations(dict: &Dictionary, word: WordId) -> u32 {
    let last = dict.last(word);
    let own = u32::from(dict.first(word) == last);
    dict.out_degree(last) as u32 - own
}

/// A uniform index below `n` (> 0), by rejection: no modulo bias, and the same stream always
/// gives the same index.
pub(crate) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}
