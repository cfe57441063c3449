//! The medium level: a win when it sees one, else a word that leaves the opponent few answers,
//! at random among the lowest quartile; thinking 500–1,100 ms.

use rand_chacha::ChaCha8Rng;

use super::{Basis, Budget, Decision, Level, Strategy, pick, thinking};
use crate::dictionary::WordId;
use crate::view::RobotView;

/// Greedy on the opponent's answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Medium;

impl Strategy for Medium {
    fn level(&self) -> Level {
        Level::Medium
    }

    fn decide(&self, view: &RobotView<'_, '_>, rng: &mut ChaCha8Rng, _budget: &mut dyn Budget) -> Option<Decision> {
        let (word, basis) = choose(view, rng)?;
        Some(Decision { word, thinking_ms: thinking(rng, 500, 1_100), basis })
    }
}

/// Medium's word and how it was found; the hard level's fallback too.
pub(super) fn choose(view: &RobotView<'_, '_>, rng: &mut ChaCha8Rng) -> Option<(WordId, Basis)> {
    let mut words: Vec<(usize, WordId)> = view.legal_moves().map(|w| (view.replies_after(w), w)).collect();
    if words.is_empty() {
        return None;
    }
    words.sort_unstable();
    let kills: Vec<WordId> = words.iter().take_while(|(n, _)| *n == 0).map(|&(_, w)| w).collect();
    if let Some(kill) = pick(rng, &kills) {
        return Some((kill, Basis::Kill));
    }
    let quartile: Vec<WordId> = words[..words.len().div_ceil(4)].iter().map(|&(_, w)| w).collect();
    pick(rng, &quartile).map(|w| (w, Basis::LowDegree))
}
