//! Reading a journal entry in one pass. The entry's JSON is flat (`kind` beside the other
//! fields); serde's derive for a flattened, internally tagged enum buffers every entry twice
//! before it reads it, and loading a game reads every entry of its journal. This reads the fields
//! in whatever order they come, then builds the action its `kind` names.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::{Action, JournalEntry, JournalTile};
use crate::moves::TileInput;
use crate::scoring::WordScore;
use crate::seat::Seat;
use crate::square::{Direction, Square};

impl<'de> Deserialize<'de> for JournalEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EntryVisitor)
    }
}

/// The fields an entry may carry.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    MoveNo,
    Seat,
    Kind,
    Tiles,
    Direction,
    Words,
    Bingo,
    Score,
    #[serde(other)]
    Other,
}

/// The kinds of move, as named in `kind`.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Play,
    Pass,
    Exchange,
    Resign,
    Timeout,
    OutOfTime,
    TimePenalty,
    ChallengedOff,
    ChallengeBonus,
    ChallengeFailed,
    ChallengeTurnLost,
    Accept,
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

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyTile, A::Error> {
        let (mut square, mut letter, mut blank) = (None::<Square>, None::<char>, None::<bool>);
        while let Some(key) = map.next_key::<TileField>()? {
            match key {
                TileField::Square => square = Some(map.next_value()?),
                TileField::Letter => letter = Some(map.next_value()?),
                TileField::Blank => blank = Some(map.next_value()?),
                TileField::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let letter = letter.ok_or_else(|| de::Error::missing_field("letter"))?;
        match (square, blank) {
            (Some(square), Some(blank)) => Ok(AnyTile::Placed(JournalTile { square, letter, blank })),
            (Some(_), None) => Err(de::Error::missing_field("blank")),
            (None, None) => Ok(AnyTile::Returned(TileInput::Letter(letter))),
            (None, Some(_)) => Err(de::Error::missing_field("square")),
        }
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum TileField {
    Square,
    Letter,
    Blank,
    #[serde(other)]
    Other,
}

struct EntryVisitor;

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = JournalEntry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a journal entry")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JournalEntry, A::Error> {
        let (mut move_no, mut seat, mut kind, mut score) = (None::<u32>, None::<Seat>, None::<Kind>, None::<i32>);
        let (mut tiles, mut direction, mut words, mut bingo) =
            (None::<Vec<AnyTile>>, None::<Direction>, None::<Vec<WordScore>>, None::<i32>);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::MoveNo => move_no = Some(map.next_value()?),
                Field::Seat => seat = Some(map.next_value()?),
                Field::Kind => kind = Some(map.next_value()?),
                Field::Tiles => tiles = Some(map.next_value()?),
                Field::Direction => direction = Some(map.next_value()?),
                Field::Words => words = Some(map.next_value()?),
                Field::Bingo => bingo = Some(map.next_value()?),
                Field::Score => score = Some(map.next_value()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let missing = de::Error::missing_field;
        let kind = kind.ok_or_else(|| missing("kind"))?;
        let action = match kind {
            Kind::Play => Action::Play {
                tiles: tiles
                    .ok_or_else(|| missing("tiles"))?
                    .into_iter()
                    .map(AnyTile::placed)
                    .collect::<Result<_, _>>()
                    .map_err(de::Error::custom)?,
                direction: direction.ok_or_else(|| missing("direction"))?,
                words: words.ok_or_else(|| missing("words"))?,
                bingo: bingo.ok_or_else(|| missing("bingo"))?,
            },
            Kind::Exchange => Action::Exchange {
                tiles: tiles
                    .ok_or_else(|| missing("tiles"))?
                    .into_iter()
                    .map(AnyTile::returned)
                    .collect::<Result<_, _>>()
                    .map_err(de::Error::custom)?,
            },
            Kind::Pass => Action::Pass,
            Kind::Resign => Action::Resign,
            Kind::Timeout => Action::Timeout,
            Kind::OutOfTime => Action::OutOfTime,
            Kind::TimePenalty => Action::TimePenalty,
            Kind::ChallengedOff => Action::ChallengedOff,
            Kind::ChallengeBonus => Action::ChallengeBonus,
            Kind::ChallengeFailed => Action::ChallengeFailed,
            Kind::ChallengeTurnLost => Action::ChallengeTurnLost,
            Kind::Accept => Action::Accept,
        };
        Ok(JournalEntry {
            move_no: move_no.ok_or_else(|| missing("move_no"))?,
            seat: seat.ok_or_else(|| missing("seat"))?,
            action,
            score: score.ok_or_else(|| missing("score"))?,
        })
    }
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
        ] {
            assert!(serde_json::from_str::<JournalEntry>(bad).is_err(), "{bad}");
        }
    }
}
