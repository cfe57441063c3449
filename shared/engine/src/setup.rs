//! What a game starts from: with the journal, everything needed to rebuild it; and the setups
//! the engine cannot play.

use serde::{Deserialize, Serialize};

use crate::variant::TileVariant;
use vocabulary::ChallengeRule;

/// What a game starts from: with the journal, everything needed to rebuild it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// The variant.
    pub variant: TileVariant,
    /// Number of seats, 2..=4.
    pub seats: usize,
    /// The bag's seed.
    pub seed: u64,
    /// Whether the no-repeat-words rule applies (pinned per game; absent in old records = off).
    #[serde(default)]
    pub no_repeat_words: bool,
    /// How a word not in the list is settled (pinned per game; absent in old records = void).
    #[serde(default, skip_serializing_if = "is_void")]
    pub challenge: ChallengeRule,
}

fn is_void(rule: &ChallengeRule) -> bool {
    *rule == ChallengeRule::Void
}

/// A setup the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Seat count outside 2..=4.
    #[error("a game has 2 to 4 seats, not {0}")]
    SeatCount(usize),
}
