//! The post-game analysis of a finished game, for any family: a tile game's every play, pass and
//! exchange beside the hard level's move in the same position, both by static equity, and what
//! the move gave away (`engine::review`); a chain game's every word beside whether a winning
//! word existed there and which (the hard level's judgement, the search the hint uses). Budgets
//! are counted ([`ANALYSIS_ROUNDS`], [`ANALYSIS_NODES`]), so a game's analysis is the same on every
//! run.

use serde::Serialize;

use crate::open::Reviewed;
use crate::tile_view::TileHint;

/// The simulation rounds the hard level runs per tile move in an analysis.
pub const ANALYSIS_ROUNDS: u32 = 8;

/// The search nodes the hard level may visit per word in a chain game's analysis.
pub const ANALYSIS_NODES: u64 = 20_000;

/// A finished game, move by move: the family's reviews and each player's summary.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Analysis {
    /// The family's reviews: `{"family": "tile", "moves": [...]}`, `{"family": "chain",
    /// "words": [...]}`.
    #[serde(flatten)]
    pub reviewed: Reviewed,
    /// Each seat's moves in sum, seat 0 first.
    pub players: Vec<PlayerSummary>,
}

/// One player's moves in sum.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerSummary {
    /// The seat.
    pub seat: usize,
    /// Moves (tile) or words (chain) analysed.
    pub moves: u32,
    /// Tile: the mean equity given away per move, points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_equity_lost: Option<f64>,
    /// Tile: the move that gave away least (the first such); chain: a winning word played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move: Option<u32>,
    /// Tile: the move that gave away most; chain: the first word where a win was missed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst_move: Option<u32>,
    /// Chain: words played where a winning word existed and was not played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missed_wins: Option<u32>,
}

/// One tile move beside the hard level's.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TileReview {
    /// The move's number.
    pub move_no: u32,
    /// Who made it.
    pub seat: usize,
    /// Its static equity, points.
    pub played_equity: f64,
    /// The hard level's move: `play` (with the play), `exchange` or `pass`.
    pub best_kind: &'static str,
    /// That play, as a hint shows one (null for an exchange or a pass).
    pub best_play: Option<TileHint>,
    /// An exchange's tiles (`?` for a blank); empty otherwise.
    pub best_exchange: Vec<String>,
    /// Its static equity, points.
    pub best_equity: f64,
    /// The equity the move gave away (0 when it was as good), points.
    pub equity_lost: f64,
}

/// One word beside the position's winning words.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChainReview {
    /// The word's number.
    pub move_no: u32,
    /// Who played it.
    pub seat: usize,
    /// The word as shown.
    pub word: String,
    /// Whether it wins by force (the opponent is left without an answer, now or by the
    /// search's depth).
    pub wins: bool,
    /// A word that wins by force here, if one did (the most familiar of the best link's), when
    /// the word played does not.
    pub winning_word: Option<String>,
}

/// Thousandths of a point as points, to a tenth.
pub(crate) fn points(thousandths: i32) -> f64 {
    (f64::from(thousandths) / 100.0).round() / 10.0
}
