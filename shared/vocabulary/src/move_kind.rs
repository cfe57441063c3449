//! What kind of move a journal entry records, in any family: the one list of move kinds, which
//! the tile engine's journal reads its `kind` by and the families name their entries with.

use serde::{Deserialize, Serialize};
use strum::{IntoStaticStr, VariantArray};

/// What kind of move a journal entry records, in any family (stored and shown as its id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MoveKind {
    /// Tiles placed (tile family).
    Play,
    /// A pass (tile family).
    Pass,
    /// Tiles returned to the bag (tile family).
    Exchange,
    /// A resignation.
    Resign,
    /// The seat to move let its deadline pass (a tile game: the turn is lost; the chain: the
    /// game).
    Timeout,
    /// A word added to the chain (chain family).
    Word,
    /// The seat to move ran out of time on a real-time clock and lost the game (tile family).
    OutOfTime,
    /// After the end, points the seat's overtime took off its score (tile family).
    TimePenalty,
    /// The seat's last play was challenged and was not valid: its tiles went back to its rack
    /// and its points off its score (tile family).
    ChallengedOff,
    /// The seat's last play was challenged and was valid: the rule's bonus (tile family).
    ChallengeBonus,
    /// The seat challenged a valid play, at no cost (the single rule; tile family).
    ChallengeFailed,
    /// The seat challenged a valid play and lost its turn (the double rule; tile family).
    ChallengeTurnLost,
    /// The seat accepted the play that went out, and the game ended (tile family).
    Accept,
    /// A group chain's new round: the chain restarts from an opening word, after a seat lost a
    /// life (chain family; written by the game).
    Round,
}

impl MoveKind {
    /// The stored id: play, pass, exchange, resign, timeout, word, out_of_time, time_penalty,
    /// challenged_off, challenge_bonus, challenge_failed, challenge_turn_lost, accept or round.
    pub fn id(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id (strum's name) and the serialized form (serde's) are one name.
    #[test]
    fn the_id_is_the_serialized_name() {
        for &kind in MoveKind::VARIANTS {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.id());
            assert_eq!(serde_json::from_value::<MoveKind>(kind.id().into()).unwrap(), kind);
        }
        assert_eq!(MoveKind::ChallengeTurnLost.id(), "challenge_turn_lost");
    }
}
