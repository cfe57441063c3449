//! Reading a journal entry in one pass, by serde's derive. The entry's JSON is flat (`kind`
//! beside the other fields); serde's derive for a flattened, internally tagged enum buffers every
//! entry twice before it reads it, and loading a game reads every entry of its journal. So the
//! entry is read as one flat struct of every field any kind has ([`RawEntry`], derived: the
//! fields in whatever order they come, unknown ones skipped), and the action its `kind` names is
//! built from it.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use vocabulary::MoveKind;

use super::{Action, JournalEntry, JournalTile};
use crate::moves::TileInput;
use crate::scoring::WordScore;
use crate::seat::Seat;
use crate::square::{Direction, Square};

/// Every field an entry may carry; which ones it must carry is its kind's business.
#[derive(Deserialize)]
pub(super) struct RawEntry {
    move_no: u32,
    seat: Seat,
    kind: MoveKind,
    score: i32,
    tiles: Option<Vec<AnyTile>>,
    direction: Option<Direction>,
    words: Option<Vec<WordScore>>,
    bingo: Option<i32>,
}

/// Why a raw entry is not a journal entry: a field its kind needs is missing, a tile has the
/// other kind's shape, or the kind is not a tile move.
#[derive(Debug, thiserror::Error)]
pub(super) enum EntryError {
    /// A field the kind needs.
    #[error("missing field `{0}`")]
    Missing(&'static str),
    /// A tile of the wrong shape.
    #[error("{0}")]
    Tile(&'static str),
    /// A kind of another family.
    #[error("`{0}` is not a kind of tile move")]
    NotATileKind(&'static str),
}

impl TryFrom<RawEntry> for JournalEntry {
    type Error = EntryError;

    fn try_from(raw: RawEntry) -> Result<JournalEntry, EntryError> {
        let tiles = || raw.tiles.ok_or(EntryError::Missing("tiles"));
        let action = match raw.kind {
            MoveKind::Play => Action::Play {
                tiles: tiles()?.into_iter().map(AnyTile::placed).collect::<Result<_, _>>().map_err(EntryError::Tile)?,
                direction: raw.direction.ok_or(EntryError::Missing("direction"))?,
                words: raw.words.ok_or(EntryError::Missing("words"))?,
                bingo: raw.bingo.ok_or(EntryError::Missing("bingo"))?,
            },
            MoveKind::Exchange => {
                Action::Exchange { tiles: tiles()?.into_iter().map(AnyTile::returned).collect::<Result<_, _>>().map_err(EntryError::Tile)? }
            }
            MoveKind::Pass => Action::Pass,
            MoveKind::Resign => Action::Resign,
            MoveKind::Timeout => Action::Timeout,
            MoveKind::OutOfTime => Action::OutOfTime,
            MoveKind::TimePenalty => Action::TimePenalty,
            MoveKind::ChallengedOff => Action::ChallengedOff,
            MoveKind::ChallengeBonus => Action::ChallengeBonus,
            MoveKind::ChallengeFailed => Action::ChallengeFailed,
            MoveKind::ChallengeTurnLost => Action::ChallengeTurnLost,
            MoveKind::Accept => Action::Accept,
            kind @ (MoveKind::Word | MoveKind::Round) => return Err(EntryError::NotATileKind(kind.id())),
        };
        Ok(JournalEntry { move_no: raw.move_no, seat: raw.seat, action, score: raw.score })
    }
}

/// A tile in `tiles`, before `kind` says which of the two shapes it must be: a placed tile
/// (`{"square", "letter", "blank"}`) or an exchanged one (`{"letter": c}` or `"blank"`).
enum AnyTile {
    Placed(JournalTile),
    Returned(TileInput),
}

impl AnyTile {
    /// The tile of a play: it must name its square and blank flag.
    fn placed(self) -> Result<JournalTile, &'static str> {
        match self {
            AnyTile::Placed(t) => Ok(t),
            AnyTile::Returned(_) => Err("a play's tile needs its square and blank flag"),
        }
    }

    /// The tile of an exchange: it has no square.
    fn returned(self) -> Result<TileInput, &'static str> {
        match self {
            AnyTile::Returned(t) => Ok(t),
            AnyTile::Placed(_) => Err("an exchanged tile has no square"),
        }
    }
}

impl<'de> Deserialize<'de> for AnyTile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TileVisitor)
    }
}

struct TileVisitor;

impl<'de> Visitor<'de> for TileVisitor {
    type Value = AnyTile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a placed tile {square, letter, blank}, {\"letter\": c} or \"blank\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<AnyTile, E> {
        match v {
            "blank" => Ok(AnyTile::Returned(TileInput::Blank)),
            other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AnyTile, A::Error> {
        let RawTile { square, letter, blank } = RawTile::deserialize(de::value::MapAccessDeserializer::new(map))?;
        match (square, blank) {
            (Some(square), Some(blank)) => Ok(AnyTile::Placed(JournalTile { square, letter, blank })),
            (Some(_), None) => Err(de::Error::missing_field("blank")),
            (None, None) => Ok(AnyTile::Returned(TileInput::Letter(letter))),
            (None, Some(_)) => Err(de::Error::missing_field("square")),
        }
    }
}

/// The fields a tile written as an object may carry: a placed tile has all three, an exchanged
/// one its letter only.
#[derive(Deserialize)]
struct RawTile {
    square: Option<Square>,
    letter: char,
    blank: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::Seat;

    fn play() -> JournalEntry {
        JournalEntry {
            move_no: 3,
            seat: Seat(1),
            action: Action::Play {
                tiles: vec![
                    JournalTile { square: "H8".parse().unwrap(), letter: 'C', blank: false },
                    JournalTile { square: "H9".parse().unwrap(), letter: 'A', blank: true },
                ],
                direction: Direction::Down,
                words: vec![WordScore {
                    word: "CAT".into(),
                    start: "H8".parse().unwrap(),
                    direction: Direction::Down,
                    main: true,
                    score: 5,
                    repeat: false,
                }],
                bingo: 0,
            },
            score: 5,
        }
    }

    /// Every kind reads back as written, and with its fields in another order.
    #[test]
    fn every_kind_round_trips_in_any_field_order() {
        let entries = [
            play(),
            JournalEntry { move_no: 4, seat: Seat(0), action: Action::Pass, score: 0 },
            JournalEntry {
                move_no: 5,
                seat: Seat(1),
                action: Action::Exchange { tiles: vec![TileInput::Letter('Q'), TileInput::Blank] },
                score: 0,
            },
            JournalEntry { move_no: 6, seat: Seat(0), action: Action::Resign, score: 0 },
            JournalEntry { move_no: 7, seat: Seat(1), action: Action::Timeout, score: 0 },
            JournalEntry { move_no: 8, seat: Seat(0), action: Action::OutOfTime, score: 0 },
            JournalEntry { move_no: 9, seat: Seat(1), action: Action::TimePenalty, score: -20 },
            JournalEntry { move_no: 10, seat: Seat(0), action: Action::ChallengedOff, score: -14 },
            JournalEntry { move_no: 11, seat: Seat(0), action: Action::ChallengeBonus, score: 5 },
            JournalEntry { move_no: 12, seat: Seat(1), action: Action::ChallengeFailed, score: 0 },
            JournalEntry { move_no: 13, seat: Seat(1), action: Action::ChallengeTurnLost, score: 0 },
            JournalEntry { move_no: 14, seat: Seat(1), action: Action::Accept, score: 0 },
        ];
        for e in entries {
            let text = serde_json::to_string(&e).unwrap();
            // The kind written is the move kind's id, the one list of kinds.
            assert!(text.contains(&format!(r#""kind":"{}""#, e.action.kind())), "{text}");
            assert_eq!(serde_json::from_str::<JournalEntry>(&text).unwrap(), e, "{text}");
            // Reversed key order (as a JSON object may legally come back).
            let value: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
            let reversed = format!(
                "{{{}}}",
                value.iter().rev().map(|(k, v)| format!("{}:{v}", serde_json::to_string(k).unwrap())).collect::<Vec<_>>().join(",")
            );
            assert_eq!(serde_json::from_str::<JournalEntry>(&reversed).unwrap(), e, "{reversed}");
        }
    }

    /// A malformed entry is an error, never a guess.
    #[test]
    fn malformed_entries_are_refused() {
        for bad in [
            r#"{"move_no":0,"seat":0,"score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"castle","score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"play","tiles":[],"direction":"down","words":[],"score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"play","tiles":[{"letter":"A"}],"direction":"down","words":[],"bingo":0,"score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"exchange","tiles":[{"square":"H8","letter":"A","blank":false}],"score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"exchange","tiles":["joker"],"score":0}"#,
            r#"{"move_no":0,"seat":0,"kind":"play","tiles":[{"square":"Z99","letter":"A","blank":false}],"direction":"down","words":[],"bingo":0,"score":0}"#,
            r#"{"seat":0,"kind":"pass","score":0}"#,
            r#"[0, 0, "pass", 0]"#,
            r#"{"move_no":0,"seat":0,"kind":"word","word":"học sinh","score":1}"#,
        ] {
            assert!(serde_json::from_str::<JournalEntry>(bad).is_err(), "{bad}");
        }
    }
}
