//! The easy level: a uniform random legal word, among the familiar ones
//! ([`crate::Dictionary::is_familiar`]; against a robot, any word when it has no familiar one).
//! Against a person it is a friendly partner: among the words that leave a familiar answer (no
//! unfair trap), the half that leave the most, and with no familiar word it concedes. Thinking
//! 400–900 ms.

use rand_chacha::ChaCha8Rng;

use super::{Basis, ChainDecision, Level, Opponent, Strategy, ThinkingLimit, fair, familiar_or_all, thinking};
use crate::dictionary::WordId;
use crate::random::pick;
use crate::view::ChainRobotView;

/// A uniform random legal word, familiar and fair when it can.
#[derive(Debug, Clone, Copy, Default)]
pub struct Easy;

impl Strategy for Easy {
    fn level(&self) -> Level {
        Level::Easy
    }

    fn decide(&self, view: &ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng, _budget: &mut dyn ThinkingLimit) -> Option<ChainDecision> {
        let mut words: Vec<WordId> = fair(view, familiar_or_all(view, view.legal_moves().collect()));
        if view.opponent() == Opponent::Person {
            // Most answers first, then the dictionary's order: the same seed, the same word.
            words.sort_by_cached_key(|&w| (std::cmp::Reverse(view.answers_after(w)), w));
            words.truncate(words.len().div_ceil(2));
        }
        let word = pick(rng, &words)?;
        Some(ChainDecision { word, thinking_ms: thinking(rng, 400, 900), basis: Basis::Random })
    }
}
