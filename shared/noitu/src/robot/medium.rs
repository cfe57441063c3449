//! The medium level plays the familiar words ([`crate::Dictionary::is_familiar`]) when it has one,
//! like a person who knows those (all its legal words otherwise). Answers are counted as its
//! opponent can answer ([`ChainRobotView::answers_after`]: a person's familiar words, a robot's every
//! word). Against a robot it takes a win it sees (a word that leaves no answer); against a person
//! it never does while another word serves (no unfair trap). Else, among the words that hand the
//! opponent no instant win (when there are any), a word that leaves the opponent few answers, at
//! random among the lowest quartile; thinking 500–1,100 ms. A win with an unfamiliar word is not
//! one it knows, so not one it declines.
//!
//! Seeing the opponent's instant win is one ply more than the seed's medium, which only looked at
//! the opponent's out-degree: on this dictionary that medium beat easy 83.7% of 1,000 games,
//! short of the 85% wanted, as low out-degree syllables are often ones whose every word wins.

use rand_chacha::ChaCha8Rng;

use super::Opponent;
use super::{Basis, ChainDecision, Level, Strategy, ThinkingLimit, familiar_or_all, thinking};
use crate::dictionary::WordId;
use crate::random::pick;
use crate::view::ChainRobotView;

/// Greedy on the opponent's answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Medium;

impl Strategy for Medium {
    fn level(&self) -> Level {
        Level::Medium
    }

    fn decide(&self, view: &ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng, _budget: &mut dyn ThinkingLimit) -> Option<ChainDecision> {
        let (word, basis) = choose(view, rng)?;
        Some(ChainDecision { word, thinking_ms: thinking(rng, 500, 1_100), basis })
    }
}

/// Medium's word and how it was found; the hard level's fallback too.
pub(super) fn choose(view: &ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng) -> Option<(WordId, Basis)> {
    let known = familiar_or_all(view, view.legal_moves().collect());
    let mut words: Vec<(usize, WordId)> = known.into_iter().map(|w| (view.answers_after(w), w)).collect();
    if words.is_empty() {
        return None;
    }
    words.sort_unstable();
    let kills: Vec<WordId> = words.iter().take_while(|(n, _)| *n == 0).map(|&(_, w)| w).collect();
    if (view.opponent() == Opponent::Robot || kills.len() == words.len())
        && let Some(kill) = pick(rng, &kills)
    {
        return Some((kill, Basis::Kill));
    }
    words.drain(..kills.len());
    let safe: Vec<(usize, WordId)> = words.iter().copied().filter(|&(_, w)| !hands_a_win(view, w)).collect();
    let pool = if safe.is_empty() { &words } else { &safe };
    let quartile: Vec<WordId> = pool[..pool.len().div_ceil(4)].iter().map(|&(_, w)| w).collect();
    pick(rng, &quartile).map(|w| (w, Basis::LowDegree))
}

/// Whether, after the legal move `word`, the opponent has a word it knows that leaves no answer.
fn hands_a_win(view: &ChainRobotView<'_, '_>, word: WordId) -> bool {
    let dict = view.dictionary();
    let (at, to) = (view.current(), dict.last(word));
    dict.words_from(to).filter(|&reply| reply != word && !view.is_used(reply) && view.opponent_knows(reply)).any(|reply| {
        let end = dict.last(reply);
        // Both words are spent by then: `word` begins at `at`, `reply` at `to`.
        view.remaining_from(end) == usize::from(at == end) + usize::from(to == end)
    })
}
