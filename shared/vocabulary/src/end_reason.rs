//! Why a game ended, in any family.

use serde::Serialize;
use strum::{EnumCount, IntoStaticStr, VariantArray};

/// Why a game ended (stored and shown as its snake_case name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, IntoStaticStr, VariantArray, EnumCount)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum EndReason {
    /// Tile: a seat emptied its rack with the bag empty.
    WentOut,
    /// Tile: the variant's run of scoreless turns was reached.
    ScorelessTurns,
    /// A seat resigned.
    Resigned,
    /// Chain: the seat to move had no unused word for the syllable.
    NoLegalMove,
    /// The seat to move ran out of time and lost: the chain's deadline, a real-time clock's
    /// flag.
    Timeout,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; EndReason::COUNT] = *EndReason::VARIANTS.first_chunk().unwrap();

    /// The stored name.
    pub fn id(self) -> &'static str {
        self.into()
    }

    /// The reason stored as `id`.
    pub fn parse(id: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored name (strum's) and the serialized form (serde's) are one name.
    #[test]
    fn the_stored_name_is_the_serialized_one_and_reads_back() {
        for reason in EndReason::ALL {
            assert_eq!(serde_json::to_value(reason).unwrap(), reason.id());
            assert_eq!(EndReason::parse(reason.id()), Some(reason));
        }
        assert_eq!(EndReason::NoLegalMove.id(), "no_legal_move");
        assert_eq!(EndReason::parse("draw"), None);
    }
}
