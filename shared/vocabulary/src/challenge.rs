//! How a tile game treats a word that is not in its word list, pinned when the game is created:
//! refused outright (`void`, casual play), or laid, left to the next player to challenge, and
//! settled by the rule tournament Scrabble names (single, double, five-point, ten-point).

use serde::{Deserialize, Serialize};
use strum::{EnumCount, IntoStaticStr, VariantArray};

use crate::Family;

/// A tile game's challenge rule. Written as its id (`void`, `single`, `double`, `five_point`,
/// `ten_point`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, IntoStaticStr, VariantArray, EnumCount)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ChallengeRule {
    /// A play with a word not in the list is refused when submitted; nothing to challenge.
    #[default]
    Void,
    /// A phony may be laid; challenged off if invalid, and an unsuccessful challenge costs nothing.
    Single,
    /// As single, but an unsuccessful challenge costs the challenger its turn.
    Double,
    /// As single, but an unsuccessful challenge gives the challenged player 5 points.
    FivePoint,
    /// As single, but an unsuccessful challenge gives the challenged player 10 points.
    TenPoint,
}

/// A challenge rule the game's family does not play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the {family} family has no challenges: its rule is void")]
pub struct ChallengeRuleError {
    /// The family.
    pub family: &'static str,
}

impl ChallengeRule {
    /// Every rule, in the order the docs list them.
    pub const ALL: [ChallengeRule; ChallengeRule::COUNT] = *ChallengeRule::VARIANTS.first_chunk().unwrap();

    /// The id as written: void, single, double, five_point or ten_point.
    pub fn id(self) -> &'static str {
        self.into()
    }

    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<ChallengeRule> {
        ChallengeRule::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether a play with words not in the list is laid (to be challenged) rather than refused.
    pub const fn allows_phonies(self) -> bool {
        !matches!(self, ChallengeRule::Void)
    }

    /// Points an unsuccessful challenge gives the challenged player (0 when it gives none).
    pub const fn bonus(self) -> i32 {
        match self {
            ChallengeRule::FivePoint => 5,
            ChallengeRule::TenPoint => 10,
            ChallengeRule::Void | ChallengeRule::Single | ChallengeRule::Double => 0,
        }
    }

    /// Whether an unsuccessful challenge costs the challenger its turn.
    pub const fn costs_turn(self) -> bool {
        matches!(self, ChallengeRule::Double)
    }

    /// The rule checked against the family that plays it: a family without challenges (the
    /// chain) has only `void`.
    ///
    /// # Errors
    /// [`ChallengeRuleError`] for a rule other than void in a family without challenges.
    pub fn check(self, family: Family) -> Result<ChallengeRule, ChallengeRuleError> {
        if family.challenges() || self == ChallengeRule::Void { Ok(self) } else { Err(ChallengeRuleError { family: family.id() }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_reads_back_from_its_id_and_its_json() {
        for rule in ChallengeRule::ALL {
            assert_eq!(ChallengeRule::from_id(rule.id()), Some(rule));
            assert_eq!(serde_json::to_string(&rule).unwrap(), format!("\"{}\"", rule.id()));
            assert_eq!(serde_json::from_str::<ChallengeRule>(&format!("\"{}\"", rule.id())).unwrap(), rule);
        }
        assert_eq!(ChallengeRule::from_id("triple"), None);
        assert!(serde_json::from_str::<ChallengeRule>("\"Single\"").is_err());
    }

    #[test]
    fn each_rule_says_what_a_failed_challenge_costs() {
        let costs: Vec<(bool, i32, bool)> = ChallengeRule::ALL.iter().map(|r| (r.allows_phonies(), r.bonus(), r.costs_turn())).collect();
        assert_eq!(costs, vec![(false, 0, false), (true, 0, false), (true, 0, true), (true, 5, false), (true, 10, false)]);
        assert!(ChallengeRule::Double.check(Family::CHAIN).is_err());
        assert_eq!(ChallengeRule::Void.check(Family::CHAIN), Ok(ChallengeRule::Void));
        assert_eq!(ChallengeRule::TenPoint.check(Family::TILE), Ok(ChallengeRule::TenPoint));
    }
}
