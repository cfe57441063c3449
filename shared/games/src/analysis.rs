//! The post-game analysis of a finished game, for any family: a tile game's every play, pass and
//! exchange beside the hard level's move in the same position, both by static equity, and what
//! the move gave away (`engine::review`); a chain game's every word beside whether a winning
//! word existed there and which (the hard level's judgement, the search the hint uses). Budgets
//! are counted ([`ANALYSIS_ROUNDS`], [`ANALYSIS_NODES`]), so a game's analysis is the same on every
//! run.

use serde::Serialize;

use crate::entry::MoveKind;
use crate::open::Reviewed;
use crate::tile_view::TileHint;

/// The simulation rounds the hard level runs per tile move in an analysis.
pub const ANALYSIS_ROUNDS: u32 = 8;

/// The search nodes the hard level may visit per word in a chain game's analysis.
pub const ANALYSIS_NODES: u64 = 20_000;

/// A finished game, move by move: who judged it, the family's reviews and each player's
/// summary.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Analysis {
    /// The robot level whose moves every move is compared with, and its budget.
    pub judge: Judge,
    /// The family's reviews: `{"family": "tile", "moves": [...]}`, `{"family": "chain",
    /// "words": [...]}`.
    #[serde(flatten)]
    pub reviewed: Reviewed,
    /// Each seat's moves in sum, seat 0 first.
    pub players: Vec<PlayerSummary>,
}

/// Who judged an analysis: the robot level that plays in games (its moves are the suggestions, so
/// they improve as it does) and the counted budget it had per move.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Judge {
    /// The level.
    pub level: vocabulary::Level,
    /// Tile games: the simulation rounds per move ([`ANALYSIS_ROUNDS`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Chain games: the search nodes per word ([`ANALYSIS_NODES`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
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

/// One tile move beside the hard level's. Equities are compared as shown, to a tenth of a point,
/// so `equity_lost` is 0 exactly when `played_as_good`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TileReview {
    /// The move's number.
    pub move_no: u32,
    /// Who made it.
    pub seat: usize,
    /// The move made.
    pub played: NamedMove,
    /// Its static equity, points.
    pub played_equity: f64,
    /// The hard level's move in the same position.
    pub suggested: NamedMove,
    /// The hard level's move: `play` (with the play), `exchange` or `pass`.
    pub best_kind: MoveKind,
    /// That play, as a hint shows one (null for an exchange or a pass).
    pub best_play: Option<TileHint>,
    /// An exchange's tiles (`?` for a blank); empty otherwise.
    pub best_exchange: Vec<String>,
    /// Its static equity, points.
    pub best_equity: f64,
    /// The equity the move gave away (0 when it was as good), points.
    pub equity_lost: f64,
    /// Whether the move made held at least the static equity of the hard level's (which chooses
    /// by simulation, so it may hold less).
    pub played_as_good: bool,
}

/// A tile move as the analysis names it: `{"kind": "play", "coord": "8D", "word": "QI.", "score":
/// 22}`, `{"kind": "exchange", "count": 3, "score": 0}`, `{"kind": "pass", "score": 0}`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct NamedMove {
    /// `play`, `exchange` or `pass`.
    pub kind: MoveKind,
    /// A play's GCG coordinate: "8D" across from row 8, "D8" down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coord: Option<String>,
    /// A play's main word (`.` for tiles already on the board, lower case for blanks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub word: Option<String>,
    /// The points it scores (0 for an exchange or a pass).
    pub score: i32,
    /// An exchange's number of tiles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

impl NamedMove {
    /// A play at `coord` spelling `word` for `score`.
    pub(crate) fn play(coord: String, word: String, score: i32) -> NamedMove {
        NamedMove { kind: MoveKind::Play, coord: Some(coord), word: Some(word), score, count: None }
    }

    /// An exchange of `count` tiles.
    pub(crate) fn exchange(count: usize) -> NamedMove {
        NamedMove { kind: MoveKind::Exchange, coord: None, word: None, score: 0, count: Some(count) }
    }

    /// A pass.
    pub(crate) fn pass() -> NamedMove {
        NamedMove { kind: MoveKind::Pass, coord: None, word: None, score: 0, count: None }
    }
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
    f64::from(tenths(thousandths)) / 10.0
}

/// Thousandths of a point in tenths, rounded (half away from zero).
pub(crate) fn tenths(thousandths: i32) -> i32 {
    (f64::from(thousandths) / 100.0).round() as i32
}
