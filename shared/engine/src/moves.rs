//! Moves: the untrusted input a player sends, and the checked move that validation produces.

use serde::{Deserialize, Serialize};

use crate::rack::Rack;
use crate::scoring::ScoreBreakdown;
use crate::seat::Seat;
use crate::square::Direction;
use crate::tile::{Placement, RackTile};
use crate::variant::Rules;

/// A tile a player asks to place, as sent: nothing about it is trusted yet. Unknown fields are
/// refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacementInput {
    /// The square's name, "A1".."O15".
    pub square: String,
    /// The letter (for a blank, the letter it stands for).
    pub letter: Option<char>,
    /// Whether the tile is a blank.
    #[serde(default)]
    pub blank: bool,
}

/// A rack tile named in an exchange, as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileInput {
    /// A lettered tile.
    Letter(char),
    /// A blank.
    Blank,
}

/// A move as a player submits it. Only [`crate::Game::check`] turns it into a [`CheckedMove`].
/// Read strictly: a field that the kind does not have is refused, at every depth (a pass
/// carrying `tiles`, a play carrying `score`, a placement carrying `seat`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", from = "MoveInput")]
pub enum TileMove {
    /// Place tiles on the board.
    Play {
        /// The tiles and where they go.
        placements: Vec<PlacementInput>,
    },
    /// Skip the turn.
    Pass,
    /// Return tiles to the bag and draw as many.
    Exchange {
        /// The rack tiles to return.
        tiles: Vec<TileInput>,
    },
    /// Give up the game.
    Resign,
    /// Challenge the play just made (a game whose challenge rule is not void).
    Challenge,
    /// Accept the play that went out, ending the game (a game whose rule is not void).
    Accept,
}

/// The wire form of [`TileMove`]: every kind a struct, so that serde refuses unknown fields on
/// field-less kinds too (a unit variant of a tagged enum ignores them).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum MoveInput {
    Play { placements: Vec<PlacementInput> },
    Pass {},
    Exchange { tiles: Vec<TileInput> },
    Resign {},
    Challenge {},
    Accept {},
}

impl From<MoveInput> for TileMove {
    fn from(m: MoveInput) -> TileMove {
        match m {
            MoveInput::Play { placements } => TileMove::Play { placements },
            MoveInput::Pass {} => TileMove::Pass,
            MoveInput::Exchange { tiles } => TileMove::Exchange { tiles },
            MoveInput::Resign {} => TileMove::Resign,
            MoveInput::Challenge {} => TileMove::Challenge,
            MoveInput::Accept {} => TileMove::Accept,
        }
    }
}

impl PlacementInput {
    /// The input form of a typed placement, as a client would send it.
    pub fn from_placement(rules: &Rules, p: Placement) -> PlacementInput {
        PlacementInput { square: p.square.to_string(), letter: Some(rules.char_of(p.tile.letter())), blank: p.tile.is_blank() }
    }
}

impl TileMove {
    /// The play move that places `placements`.
    pub fn play(rules: &Rules, placements: &[Placement]) -> TileMove {
        TileMove::Play { placements: placements.iter().map(|&p| PlacementInput::from_placement(rules, p)).collect() }
    }

    /// The exchange move that puts back the tiles of `out`.
    pub fn exchange(rules: &Rules, out: &Rack) -> TileMove {
        TileMove::Exchange { tiles: out.tiles().map(|t| TileInput::from_rack_tile(rules, t)).collect() }
    }
}

/// What a checked move does; built only by validation, so applying it cannot fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckedAction {
    /// A legal placement.
    Play {
        /// The tiles placed, in order along the main word.
        placements: Vec<Placement>,
        /// The direction of the main word.
        direction: Direction,
        /// Words formed and their scores.
        score: ScoreBreakdown,
    },
    /// A pass.
    Pass,
    /// An exchange of these rack tiles.
    Exchange {
        /// Tiles returned to the bag.
        tiles: Vec<RackTile>,
    },
    /// A resignation.
    Resign,
    /// The seat to move ran out of time and loses its turn.
    Timeout,
    /// The seat to move ran out of time and loses the game (its flag fell).
    OutOfTime,
    /// After the end, points a seat's overtime takes off its final score.
    TimePenalty {
        /// Points taken off (positive).
        points: i32,
    },
    /// The play just made was challenged and is not valid: it comes off the board.
    ChallengedOff {
        /// Its points, taken back.
        points: i32,
    },
    /// The play just made was challenged and is valid: its player gains the rule's bonus.
    ChallengeBonus {
        /// The bonus.
        points: i32,
    },
    /// The play just made was challenged and is valid; the challenge costs nothing.
    ChallengeFailed,
    /// The play just made was challenged and is valid; the challenger loses its turn.
    ChallengeTurnLost,
    /// The play that went out is accepted: the game ends.
    Accept,
}

/// A move validated against one game state, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedMove {
    pub(crate) seat: Seat,
    pub(crate) move_no: u32,
    pub(crate) action: CheckedAction,
}

impl CheckedMove {
    /// The seat making the move.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// What the move does.
    pub fn action(&self) -> &CheckedAction {
        &self.action
    }

    /// Points the move scores: a play's, a time penalty's or a withdrawn play's (negative), a
    /// challenge bonus; 0 for the rest.
    pub fn score(&self) -> i32 {
        match &self.action {
            CheckedAction::Play { score, .. } => score.total,
            CheckedAction::TimePenalty { points } | CheckedAction::ChallengedOff { points } => -points,
            CheckedAction::ChallengeBonus { points } => *points,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_strictly_at_every_depth() {
        let ok = |s: &str| serde_json::from_str::<TileMove>(s).unwrap();
        let refused = |s: &str| {
            let e = serde_json::from_str::<TileMove>(s).unwrap_err();
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{s}: {e}");
        };
        assert_eq!(ok(r#"{"kind":"pass"}"#), TileMove::Pass);
        assert_eq!(ok(r#"{"kind":"resign"}"#), TileMove::Resign);
        assert_eq!(
            ok(r#"{"kind":"exchange","tiles":[{"letter":"A"},"blank"]}"#),
            TileMove::Exchange { tiles: vec![TileInput::Letter('A'), TileInput::Blank] }
        );
        assert_eq!(
            ok(r#"{"kind":"play","placements":[{"square":"H8","letter":"A"}]}"#),
            TileMove::Play { placements: vec![PlacementInput { square: "H8".into(), letter: Some('A'), blank: false }] }
        );
        refused(r#"{"kind":"pass","tiles":[],"seat":1}"#);
        refused(r#"{"kind":"resign","seat":1}"#);
        refused(r#"{"kind":"play","placements":[],"score":1000}"#);
        refused(r#"{"kind":"play","placements":[{"square":"H8","letter":"A","points":9}]}"#);
        refused(r#"{"kind":"exchange","tiles":[{"letter":"A","blank":true}]}"#);
        refused(r#"{"kind":"exchange","tiles":[{"letter":"A"}],"count":1}"#);
        refused(r#"{"kind":"fly"}"#);
    }

    #[test]
    fn a_move_written_is_read_back() {
        for m in [
            TileMove::Pass,
            TileMove::Resign,
            TileMove::Exchange { tiles: vec![TileInput::Blank, TileInput::Letter('Ж')] },
            TileMove::Play { placements: vec![PlacementInput { square: "A1".into(), letter: Some('q'), blank: true }] },
        ] {
            assert_eq!(serde_json::from_str::<TileMove>(&serde_json::to_string(&m).unwrap()).unwrap(), m);
        }
    }
}
