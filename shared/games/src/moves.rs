//! A move as a player sends it, for any family: the tile kinds (play, pass, exchange, and under
//! a challenge rule challenge and accept), the
//! chain's word, and resign, which both have. Read strictly at every depth: a field the kind
//! does not have is refused. Which kinds a game takes is its family's business: a word sent to
//! a tile game, or tiles to a chain, is refused with [`crate::GameError::WrongFamily`].

use engine::{PlacementInput, TileInput};
use serde::{Deserialize, Serialize};

/// An untrusted move. It serializes exactly as the tile engine's `TileMove` does for the tile kinds,
/// so a request hashed before the families came hashes the same now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(tag = "kind", rename_all = "snake_case", from = "MoveInput")]
#[strum(serialize_all = "snake_case")]
pub enum Move {
    /// Tiles placed on the board (tile family).
    Play {
        /// The tiles and where they go.
        placements: Vec<PlacementInput>,
    },
    /// Skip the turn (tile family).
    Pass,
    /// Return tiles to the bag (tile family).
    Exchange {
        /// The rack tiles to return.
        tiles: Vec<TileInput>,
    },
    /// Give up the game (every family).
    Resign,
    /// A word for the chain (chain family), as typed.
    Word {
        /// The word.
        word: String,
    },
    /// Challenge the play just made (tile family, under a challenge rule).
    Challenge,
    /// Accept the play that went out, ending the game (tile family, under a challenge rule).
    Accept,
}

/// The wire form: every kind a struct, so unknown fields are refused on field-less kinds too.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum MoveInput {
    Play { placements: Vec<PlacementInput> },
    Pass {},
    Exchange { tiles: Vec<TileInput> },
    Resign {},
    Word { word: String },
    Challenge {},
    Accept {},
}

impl From<MoveInput> for Move {
    fn from(m: MoveInput) -> Move {
        match m {
            MoveInput::Play { placements } => Move::Play { placements },
            MoveInput::Pass {} => Move::Pass,
            MoveInput::Exchange { tiles } => Move::Exchange { tiles },
            MoveInput::Resign {} => Move::Resign,
            MoveInput::Word { word } => Move::Word { word },
            MoveInput::Challenge {} => Move::Challenge,
            MoveInput::Accept {} => Move::Accept,
        }
    }
}

impl Move {
    /// The kind as sent: play, pass, exchange, resign, word, challenge or accept.
    pub fn kind(&self) -> &'static str {
        self.into()
    }

    /// The tile engine's move, if this is one of its kinds.
    pub(crate) fn tile(&self) -> Option<engine::TileMove> {
        Some(match self {
            Move::Play { placements } => engine::TileMove::Play { placements: placements.clone() },
            Move::Pass => engine::TileMove::Pass,
            Move::Exchange { tiles } => engine::TileMove::Exchange { tiles: tiles.clone() },
            Move::Resign => engine::TileMove::Resign,
            Move::Challenge => engine::TileMove::Challenge,
            Move::Accept => engine::TileMove::Accept,
            Move::Word { .. } => return None,
        })
    }
}

impl From<engine::TileMove> for Move {
    fn from(m: engine::TileMove) -> Move {
        match m {
            engine::TileMove::Play { placements } => Move::Play { placements },
            engine::TileMove::Pass => Move::Pass,
            engine::TileMove::Exchange { tiles } => Move::Exchange { tiles },
            engine::TileMove::Resign => Move::Resign,
            engine::TileMove::Challenge => Move::Challenge,
            engine::TileMove::Accept => Move::Accept,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_moves_write_as_the_engine_writes_them_and_strays_are_refused() {
        for json in [
            r#"{"kind":"play","placements":[{"square":"H8","letter":"A","blank":false}]}"#,
            r#"{"kind":"pass"}"#,
            r#"{"kind":"exchange","tiles":[{"letter":"Q"},"blank"]}"#,
            r#"{"kind":"resign"}"#,
        ] {
            let ours: Move = serde_json::from_str(json).unwrap();
            assert!(json.starts_with(&format!(r#"{{"kind":"{}""#, ours.kind())), "{json}");
            let theirs: engine::TileMove = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&theirs).unwrap());
        }
        let word: Move = serde_json::from_str(r#"{"kind":"word","word":"học sinh"}"#).unwrap();
        assert_eq!(word, Move::Word { word: "học sinh".into() });
        for bad in
            [r#"{"kind":"word"}"#, r#"{"kind":"word","word":"a b","score":1}"#, r#"{"kind":"pass","word":"x"}"#, r#"{"kind":"jump"}"#]
        {
            assert!(serde_json::from_str::<Move>(bad).is_err(), "{bad}");
        }
    }
}
