//! Moves: the untrusted input a player sends, and the checked move that validation produces.

use serde::{Deserialize, Serialize};

use crate::game::Seat;
use crate::scoring::ScoreBreakdown;
use crate::square::Direction;
use crate::tile::{Placement, RackTile};
use crate::variant::Rules;

/// A tile a player asks to place, as sent: nothing about it is trusted yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Move {
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
}

impl PlacementInput {
    /// The input form of a typed placement, as a client would send it.
    pub fn from_placement(rules: &Rules, p: Placement) -> PlacementInput {
        PlacementInput { square: p.square.to_string(), letter: Some(rules.char_of(p.tile.letter())), blank: p.tile.is_blank() }
    }
}

impl Move {
    /// The play move that places `placements`.
    pub fn play(rules: &Rules, placements: &[Placement]) -> Move {
        Move::Play { placements: placements.iter().map(|&p| PlacementInput::from_placement(rules, p)).collect() }
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
    /// The seat to move ran out of time.
    Timeout,
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

    /// Points the move scores (0 for anything but a play).
    pub fn score(&self) -> i32 {
        match &self.action {
            CheckedAction::Play { score, .. } => score.total,
            _ => 0,
        }
    }
}
