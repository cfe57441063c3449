//! Which game: a variant id names one game and its family. Families and variants are values,
//! not branches: a family says what its games take (which clocks, whether a challenge rule), a
//! variant its id, family and seats. The service ships four ([`Variant::SHIPPED`]): the tile
//! family's three 15×15 games (Scrabble in English and Russian, Эрудит) and the chain family's
//! Nối từ. A family written elsewhere defines its own with [`Family::new`] and [`Variant::new`]
//! and makes them parse with [`Variant::admit`].

use std::fmt;
use std::str::FromStr;
use std::sync::RwLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The clocks a family's games run under, beyond none and correspondence (which every family
/// takes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clocks {
    /// A clock a game with increment and overtime; a lapsed correspondence turn loses the turn.
    GameClock,
    /// A limit a turn; any lapse loses the game.
    TurnTimer,
}

/// A game family: the rules engine behind a variant, and what its games take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Family {
    id: &'static str,
    name: &'static str,
    clocks: Clocks,
    challenges: bool,
}

impl Family {
    /// Tiles on a 15×15 board: Scrabble (English, Russian) and Эрудит.
    pub const TILE: Family = Family::new("tile", "tile", Clocks::GameClock, true);
    /// The Vietnamese word chain.
    pub const CHAIN: Family = Family::new("chain", "noi-tu", Clocks::TurnTimer, false);

    /// A family with id `id`, called `name` in messages to players, running under `clocks`,
    /// taking challenge rules other than void if `challenges`.
    pub const fn new(id: &'static str, name: &'static str, clocks: Clocks, challenges: bool) -> Family {
        Family { id, name, clocks, challenges }
    }

    /// The id: tile, chain, or a family's own.
    pub const fn id(self) -> &'static str {
        self.id
    }

    /// What its players call it, in messages.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The clocks its games run under.
    pub const fn clocks(self) -> Clocks {
        self.clocks
    }

    /// Whether its games take a challenge rule other than void.
    pub const fn challenges(self) -> bool {
        self.challenges
    }
}

impl Serialize for Family {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

/// A variant the service plays: its id, family and seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    id: &'static str,
    family: Family,
    min_seats: u8,
    max_seats: u8,
}

/// An id that names no variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: one of {ids}", ids = shipped_ids())]
pub struct UnknownVariant(pub String);

/// The shipped variants' ids, comma-separated.
fn shipped_ids() -> String {
    Variant::SHIPPED.map(Variant::id).join(", ")
}

/// Variants admitted beyond the shipped ones, in this process.
static ADMITTED: RwLock<Vec<Variant>> = RwLock::new(Vec::new());

impl Variant {
    /// Scrabble, English.
    pub const SCRABBLE_EN: Variant = Variant::new("scrabble-en", Family::TILE, 2, 4);
    /// Scrabble, Russian.
    pub const SCRABBLE_RU: Variant = Variant::new("scrabble-ru", Family::TILE, 2, 4);
    /// Эрудит.
    pub const ERUDIT: Variant = Variant::new("erudit", Family::TILE, 2, 4);
    /// Nối từ.
    pub const NOI_TU: Variant = Variant::new("noi-tu", Family::CHAIN, 2, 8);

    /// Every variant the service ships.
    pub const SHIPPED: [Variant; 4] = [Variant::SCRABBLE_EN, Variant::SCRABBLE_RU, Variant::ERUDIT, Variant::NOI_TU];

    /// A variant with id `id` of `family`, for `min_seats..=max_seats` players.
    pub const fn new(id: &'static str, family: Family, min_seats: u8, max_seats: u8) -> Variant {
        Variant { id, family, min_seats, max_seats }
    }

    /// Makes `variant` parse from its id in this process, beside the shipped ones (a family
    /// written outside the service, as the tests' toy is). Admitting one twice is harmless.
    ///
    /// # Errors
    /// [`UnknownVariant`] naming the id if another variant already has it.
    pub fn admit(variant: Variant) -> Result<(), UnknownVariant> {
        match variant.id.parse::<Variant>() {
            Ok(known) if known == variant => Ok(()),
            Ok(_) => Err(UnknownVariant(variant.id.to_string())),
            Err(_) => {
                let mut admitted = ADMITTED.write().unwrap_or_else(std::sync::PoisonError::into_inner);
                if !admitted.contains(&variant) {
                    admitted.push(variant);
                }
                Ok(())
            }
        }
    }

    /// The id: scrabble-en, scrabble-ru, erudit, noi-tu, or an admitted variant's.
    pub const fn id(self) -> &'static str {
        self.id
    }

    /// Its family.
    pub const fn family(self) -> Family {
        self.family
    }

    /// The seats a game of it may have.
    pub const fn seats(self) -> std::ops::RangeInclusive<usize> {
        self.min_seats as usize..=self.max_seats as usize
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        if let Some(v) = Variant::SHIPPED.into_iter().find(|v| v.id == s) {
            return Ok(v);
        }
        let admitted = ADMITTED.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        admitted.iter().copied().find(|v| v.id == s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
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
        for v in Variant::SHIPPED {
            assert_eq!(v.id().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("noi-tu".parse::<Variant>().unwrap().family(), Family::CHAIN);
        assert_eq!("erudit".parse::<Variant>().unwrap().family(), Family::TILE);
        assert_eq!(Variant::NOI_TU.seats(), 2..=8);
        let err = "chess".parse::<Variant>().unwrap_err();
        assert_eq!(err.to_string(), r#"unknown variant "chess": one of scrabble-en, scrabble-ru, erudit, noi-tu"#);
    }

    #[test]
    fn an_admitted_variant_parses_and_no_id_is_taken_twice() {
        let chess = Variant::new("chess-960", Family::new("chess", "chess", Clocks::GameClock, false), 2, 2);
        assert!("chess-960".parse::<Variant>().is_err());
        Variant::admit(chess).unwrap();
        Variant::admit(chess).unwrap();
        assert_eq!("chess-960".parse::<Variant>().unwrap(), chess);
        assert_eq!(serde_json::to_string(&chess.family()).unwrap(), "\"chess\"");
        let impostor = Variant::new("erudit", chess.family(), 2, 2);
        assert!(Variant::admit(impostor).is_err());
    }
}
