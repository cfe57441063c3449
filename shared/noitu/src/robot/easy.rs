//! The easy level: a uniform random legal word, among the familiar ones when it has one
//! ([`crate::Dictionary::is_familiar`]); against a person, among those that leave a familiar
//! answer when it has one (no unfair trap); thinking 400–900 ms.

use rand_chacha::ChaCha8Rng;

use super::{Basis, Budget, Decision, Level, Strategy, fair, familiar_or_all, thinking};
use crate::dictionary::WordId;
use crate::random::pick;
use crate::view::RobotView;

/// A uniform random legal word, familiar and fair when it can.
#[derive(Debug, Clone, Copy, Default)]
pub struct Easy;

impl Strategy for Easy {
    fn level(&self) -> Level {
        Level::Easy
    }

    fn decide(&self, view: &RobotView<'_, '_>, rng: &mut ChaCha8Rng, _budget: &mut dyn Budget) -> Option<Decision> {
        let words: Vec<WordId> = fair(view, familiar_or_all(view, view.legal_moves().collect()));
        let word = pick(rng, &words)?;
        Some(Decision { word, thinking_ms: thinking(rng, 400, 900), basis: Basis::Random })
    }
}
