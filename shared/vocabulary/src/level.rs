//! How strong a robot plays, in every family.

use std::fmt;
use std::str::FromStr;

use strum::{EnumCount, IntoStaticStr, VariantArray};

/// A robot's level (serialized as its id).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize, IntoStaticStr, VariantArray, EnumCount,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Level {
    /// A beginner.
    Easy,
    /// A club player.
    Medium,
    /// The family's best.
    Hard,
}

/// An id that names no level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown robot level {0:?}")]
pub struct UnknownLevel(pub String);

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; Level::COUNT] = *Level::VARIANTS.first_chunk().unwrap();

    /// The level's id: easy, medium or hard.
    pub fn id(self) -> &'static str {
        self.into()
    }

    /// The level with this id.
    pub fn parse(id: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.id() == id)
    }
}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(id: &str) -> Result<Level, UnknownLevel> {
        Level::parse(id).ok_or_else(|| UnknownLevel(id.to_string()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ones_are_refused() {
        for level in Level::ALL {
            assert_eq!(serde_json::to_value(level).unwrap(), level.id());
            assert_eq!(level.id().parse::<Level>(), Ok(level));
        }
        assert_eq!("expert".parse::<Level>(), Err(UnknownLevel("expert".into())));
        assert!(Level::Easy < Level::Hard);
    }
}
