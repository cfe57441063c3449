//! What a family is asked before it has a game ([`FamilyRules`]: a new setup, replay from
//! storage, resuming a kept game, the draw for the first move) and the data those take: a game
//! as stored, a new setup, a kept state.

use crate::contract::{GameError, GameState, Position};
use crate::draw::Draw;
use crate::variant::Variant;
use vocabulary::ChallengeRule;

/// A game as stored: the columns every family has, the tile family's own, the family's setup
/// as data and the journal's entries as a JSON array.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    /// The variant.
    pub variant: Variant,
    /// Number of seats.
    pub seats: usize,
    /// The seed.
    pub seed: u64,
    /// Tile family: the no-repeat rule as pinned.
    pub no_repeat_words: Option<bool>,
    /// The setup as its family wrote it (absent for tile games stored before it was kept).
    pub setup: Option<&'a str>,
    /// The journal entries, a JSON array.
    pub journal: &'a str,
}

/// A new game's setup, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSetup {
    /// The seed.
    pub seed: u64,
    /// Tile family: the no-repeat rule pinned.
    pub no_repeat_words: Option<bool>,
    /// The setup as its family writes it (for the chain, with the opening word pinned).
    pub setup: String,
}

/// The challenge rule pinned in a stored setup (void when there is none, or it names none: every
/// chain game and every tile game from before the rules).
///
/// # Errors
/// [`GameError::Replay`] for a setup that does not read or names no rule this service has.
pub fn challenge_rule_of(setup: Option<&str>) -> Result<ChallengeRule, GameError> {
    #[derive(serde::Deserialize)]
    struct Pinned {
        #[serde(default)]
        challenge: ChallengeRule,
    }
    match setup {
        Some(json) => serde_json::from_str::<Pinned>(json).map(|p| p.challenge).map_err(|e| GameError::Replay(format!("setup: {e}"))),
        None => Ok(ChallengeRule::Void),
    }
}

/// One family's entry points: what the service asks of a family before it has a game.
pub trait FamilyRules: Send + Sync {
    /// A new game's setup of `variant` for `seats` seats from `seed`, under the challenge rule
    /// `challenge` where the family has one.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the family cannot set up such a game.
    fn setup(&self, variant: Variant, seats: usize, seed: u64, challenge: ChallengeRule) -> Result<NewSetup, GameError>;
    /// The stored game, replayed.
    ///
    /// # Errors
    /// [`GameError::Replay`] if its setup or journal does not replay.
    fn replay<'a>(&'a self, stored: &Stored<'_>) -> Result<Box<dyn Position + 'a>, GameError>;
    /// The game `state` was taken from, playing with the family's word lists again.
    fn resume<'a>(&'a self, state: &GameState) -> Box<dyn Position + 'a>;
    /// Who moves first among `participants`, by the variant's draw.
    ///
    /// # Errors
    /// [`GameError::Replay`] for a participant count the family does not seat.
    fn draw(&self, variant: Variant, participants: usize, entropy: &mut dyn crate::Entropy) -> Result<Draw, GameError>;
}
