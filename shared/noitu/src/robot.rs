//! Robots at three levels behind one [`Strategy`] interface over a [`ChainRobotView`]. A robot returns
//! a word and a thinking delay for the caller to pace the reveal; nothing sleeps. Randomness comes
//! in as a seeded ChaCha8 and the hard level's time as a [`ThinkingLimit`]: the engine reads no clock.
//!
//! - easy: a uniform random legal word, among the familiar ones when it has one;
//! - medium: plays the familiar words when it has one (all its words otherwise): takes a win it
//!   sees among them (a word that leaves no answer), else hands the opponent a syllable of low
//!   out-degree, at random among the lowest quartile, leaving out words after which the opponent
//!   has an instant win when it can;
//! - hard: takes a win it sees, [`Hard::kill_rate`] of the time; otherwise a negamax search with
//!   alpha-beta over links, [`Hard::depth`] plies, moves ordered by ascending opponent
//!   out-degree, then links with a familiar word first (so equal values go to the familiar),
//!   leaves valued +ln(1 + words) for the side to move, [`Hard::node_cap`] nodes at most;
//!   medium's choice if the budget stops it before one ply is searched. Of the link chosen, a
//!   familiar word when it has one, the longest of those.
//!
//! Familiar: [`crate::Dictionary::is_familiar`] (the most familiar 45% of the everyday list; every
//! word of a list without familiarity scores, so games on pyvi's list play as before).
//!
//! Difficulty comes from lookahead, never from declining a win it has found: the seed measured
//! that a medium robot withholding wins loses to the random one 97% of the time. The hard level's
//! kill rate only makes it sometimes not look for the instant win.

mod easy;
mod hard;
mod medium;
mod search;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::dictionary::WordId;
use crate::random::below;
use crate::view::ChainRobotView;
/// The robot's level and its budget (the hard level's search asks it every few hundred nodes):
/// the vocabulary every family shares.
pub use vocabulary::{Level, Opponent, ThinkingLimit, Work};

pub use easy::Easy;
pub use hard::{DEFAULT_DEPTH, DEFAULT_KILL_RATE, DEFAULT_NODE_CAP, DEFAULT_TRAP_RATE, Hard, is_win};
pub use medium::Medium;

/// The robot of `level` with its default tuning: easy plays at random, medium greedily on the
/// opponent's options, hard searches.
pub fn strategy(level: Level) -> Box<dyn Strategy + Send + Sync> {
    match level {
        Level::Easy => Box::new(Easy),
        Level::Medium => Box::new(Medium),
        Level::Hard => Box::new(Hard::default()),
    }
}

/// How a robot came to its word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// A uniform random legal word.
    Random,
    /// Among the words leaving the opponent fewest answers.
    LowDegree,
    /// A word that leaves the opponent no answer.
    Kill,
    /// The best word of a search this many plies deep.
    Search {
        /// The deepest search completed.
        depth: u32,
    },
    /// The budget stopped the search before one ply: medium's choice.
    Fallback,
}

/// A robot's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainDecision {
    /// The word to submit (its spelling: `view.dictionary().text(word)`).
    pub word: WordId,
    /// How long a person would seem to think, for the caller to pace the reveal.
    pub thinking_ms: u32,
    /// How the word was chosen.
    pub basis: Basis,
}

/// A budget of a number of search nodes: deterministic, for tests and replays.
#[derive(Debug, Clone, Copy)]
pub struct Nodes(pub u64);

impl ThinkingLimit for Nodes {
    fn expired(&mut self, done: Work) -> bool {
        matches!(done, Work::Nodes(nodes) if nodes >= self.0)
    }
}

/// A robot: it reads a position and proposes a word; it cannot play it.
pub trait Strategy {
    /// Its level.
    fn level(&self) -> Level;

    /// Its word for the seat to move in `view`, or `None` if it has none it will play: none at
    /// all (the game is then over), or, against a person, no familiar one (it concedes, as a
    /// person who knows no word does). `rng` makes its choices repeatable; `budget` stops a
    /// search.
    fn decide(&self, view: &ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng, budget: &mut dyn ThinkingLimit) -> Option<ChainDecision>;
}

/// A seeded random source for a robot (ChaCha8): the same seed, the same choices.
pub fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The words of `words` a robot plays ([`crate::Dictionary::is_familiar`]): against a person the
/// familiar ones only (a robot speaks the words people know, and with none it concedes); against
/// a robot the familiar ones, or all of them when none is.
fn familiar_or_all(view: &ChainRobotView<'_, '_>, words: Vec<WordId>) -> Vec<WordId> {
    let dict = view.dictionary();
    if view.opponent() == Opponent::Person || words.iter().any(|&w| dict.is_familiar(w)) {
        words.into_iter().filter(|&w| dict.is_familiar(w)).collect()
    } else {
        words
    }
}

/// The words of `words` that leave the opponent an answer it knows ([`ChainRobotView::answers_after`]):
/// against a person, no "unfair trap" (a syllable only the dictionary can answer) while another
/// word serves; against a robot, all of them.
fn fair(view: &ChainRobotView<'_, '_>, words: Vec<WordId>) -> Vec<WordId> {
    if view.opponent() == Opponent::Robot {
        return words;
    }
    let fair: Vec<WordId> = words.iter().copied().filter(|&w| view.answers_after(w) > 0).collect();
    if fair.is_empty() { words } else { fair }
}

/// A uniform number of milliseconds in `lo..=hi`.
fn thinking(rng: &mut ChaCha8Rng, lo: u32, hi: u32) -> u32 {
    lo + below(rng, (hi - lo + 1) as usize) as u32
}
