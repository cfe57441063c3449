//! The post-game analysis of a finished game, for any family: a tile game's every play, pass and
//! exchange beside the hard level's move in the same position, both by static equity, and what
//! the move gave away (`engine::review`); a chain game's every word beside whether a winning
//! word existed there and which (the hard level's judgement, the search the hint uses). Budgets
//! are counted ([`ANALYSIS_ROUNDS`], [`ANALYSIS_NODES`]), so a game's analysis is the same on every
//! run.

use noitu::{Game, RobotView};
use serde::Serialize;

use crate::any::AnyGame;
use crate::contract::{Budget, GameError};
use crate::tile_view::TileHint;

/// The simulation rounds the hard level runs per tile move in an analysis.
pub const ANALYSIS_ROUNDS: u32 = 8;

/// The search nodes the hard level may visit per word in a chain game's analysis.
pub const ANALYSIS_NODES: u64 = 20_000;

/// A finished game, move by move.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "family", rename_all = "snake_case")]
pub enum Analysis {
    /// A tile game's plays, passes and exchanges.
    Tile {
        /// Each reviewed move, in order.
        moves: Vec<TileReview>,
    },
    /// A chain game's words.
    Chain {
        /// Each word, in order.
        words: Vec<ChainReview>,
    },
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

fn points(thousandths: i32) -> f64 {
    (f64::from(thousandths) / 100.0).round() / 10.0
}

impl AnyGame<'_> {
    /// The analysis of this game (over or not: the service analyses finished games only).
    ///
    /// # Errors
    /// [`GameError::Lexicon`]; [`GameError::Replay`] for a journal that does not replay.
    pub fn analysis(&self) -> Result<Analysis, GameError> {
        match self {
            AnyGame::Tile(t) => {
                let game = t.engine_game();
                let rules = game.rules();
                let reviews = engine::review::review(game.setup(), game.journal(), t.graph()?, ANALYSIS_ROUNDS)
                    .map_err(|e| GameError::Replay(e.to_string()))?;
                let moves = reviews
                    .into_iter()
                    .map(|r| {
                        let (best_kind, best_exchange) = match &r.best {
                            engine::Move::Exchange { tiles } => (
                                "exchange",
                                tiles
                                    .iter()
                                    .map(|t| match t {
                                        engine::moves::TileInput::Letter(c) => c.to_string(),
                                        engine::moves::TileInput::Blank => "?".to_string(),
                                    })
                                    .collect(),
                            ),
                            engine::Move::Play { .. } => ("play", Vec::new()),
                            _ => ("pass", Vec::new()),
                        };
                        TileReview {
                            move_no: r.move_no,
                            seat: r.seat.index(),
                            played_equity: points(r.played_equity),
                            best_kind,
                            best_play: r.best_play.map(|p| TileHint::of_play(rules, &p)),
                            best_exchange,
                            best_equity: points(r.best_equity),
                            equity_lost: points(r.lost()),
                        }
                    })
                    .collect();
                Ok(Analysis::Tile { moves })
            }
            AnyGame::Chain(c) => {
                let played = c.engine_game();
                let dict = played.dictionary();
                let mut game = Game::new(played.setup(), dict).map_err(|e| GameError::Replay(e.to_string()))?;
                let mut words = Vec::new();
                for entry in played.journal() {
                    if let noitu::Action::Word { word, spelled } = &entry.action
                        && !game.is_over()
                    {
                        let view = RobotView::new(&game);
                        let mut budget = Budget::Counted { rounds: 0, nodes: ANALYSIS_NODES };
                        let judged = noitu::robot::Hard::default().judge(&view, &mut budget);
                        let winning: Vec<_> = judged.iter().filter(|(_, v)| noitu::robot::is_win(*v)).map(|(l, _)| *l).collect();
                        let id = dict.lookup(word);
                        let wins = id.is_some_and(|w| winning.contains(&dict.link_of(w)));
                        let winning_word = (!wins)
                            .then(|| {
                                winning.first().and_then(|&link| {
                                    let mut options: Vec<_> = dict.link(link).words().filter(|&w| !view.is_used(w)).collect();
                                    options.sort_by_key(|&w| (!dict.is_familiar(w), w));
                                    options.first().map(|&w| dict.display(w).to_string())
                                })
                            })
                            .flatten();
                        words.push(ChainReview {
                            move_no: entry.move_no,
                            seat: entry.seat.index(),
                            word: spelled.clone().unwrap_or_else(|| id.map_or_else(|| word.clone(), |w| dict.display(w).to_string())),
                            wins,
                            winning_word,
                        });
                    }
                    game.apply_recorded(entry).map_err(|e| GameError::Replay(e.to_string()))?;
                }
                Ok(Analysis::Chain { words })
            }
        }
    }
}
