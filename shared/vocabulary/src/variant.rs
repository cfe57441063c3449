//! Which game: a variant id names one game and its family. The tile family plays the three
//! 15×15 games (Scrabble in English and Russian, Эрудит); the chain family plays Nối từ.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A game family: the rules engine behind a variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Tiles on a 15×15 board: Scrabble (English, Russian) and Эрудит.
    Tile,
    /// The Vietnamese word chain.
    Chain,
}

impl Family {
    /// The id: tile or chain.
    pub const fn id(self) -> &'static str {
        match self {
            Family::Tile => "tile",
            Family::Chain => "chain",
        }
    }
}

/// A variant the service plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Scrabble, English.
    ScrabbleEn,
    /// Scrabble, Russian.
    ScrabbleRu,
    /// Эрудит.
    Erudit,
    /// Nối từ.
    NoiTu,
}

/// An id that names no variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: one of scrabble-en, scrabble-ru, erudit, noi-tu")]
pub struct UnknownVariant(pub String);

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 4] = [Variant::ScrabbleEn, Variant::ScrabbleRu, Variant::Erudit, Variant::NoiTu];

    /// The id: scrabble-en, scrabble-ru, erudit or noi-tu.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::ScrabbleEn => "scrabble-en",
            Variant::ScrabbleRu => "scrabble-ru",
            Variant::Erudit => "erudit",
            Variant::NoiTu => "noi-tu",
        }
    }

    /// Its family.
    pub const fn family(self) -> Family {
        match self {
            Variant::ScrabbleEn | Variant::ScrabbleRu | Variant::Erudit => Family::Tile,
            Variant::NoiTu => Family::Chain,
        }
    }

    /// The seats a game of it may have.
    pub const fn seats(self) -> std::ops::RangeInclusive<usize> {
        match self.family() {
            Family::Tile => 2..=4,
            Family::Chain => 2..=2,
        }
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.id() == s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_name_their_family() {
        for v in Variant::ALL {
            assert_eq!(v.id().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("noi-tu".parse::<Variant>().unwrap().family(), Family::Chain);
        assert_eq!("erudit".parse::<Variant>().unwrap().family(), Family::Tile);
        assert!("chess".parse::<Variant>().is_err());
    }
}
