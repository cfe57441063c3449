//! Pure, deterministic rules engine for 15×15 word games: Scrabble (English), Scrabble (Russian)
//! and Эрудит.
//!
//! The engine does no I/O and never reads the clock or the OS RNG: a game is fully determined by
//! its [`Setup`] (variant, seat count, bag seed) and its journal. Moves arrive untrusted as
//! [`TileMove`], become a [`CheckedMove`] only through [`Game::check`], and applying a checked move
//! cannot fail. Every applied move is recorded as a self-contained [`JournalEntry`], and
//! [`replay()`] rebuilds the exact state from the journal.

pub mod bag;
pub mod best_plays;
mod bingo;
pub mod board;
pub mod brute;
pub mod cgp;
mod counts;
pub mod endgame;
pub mod exchange;
pub mod game;
pub mod gcg;
pub mod journal;
#[cfg(feature = "lab")]
pub mod lab;
pub mod layout;
pub mod leave;
pub mod letter;
pub mod lexicon;
pub mod movegen;
pub mod moves;
pub mod norepeat;
pub mod play;
pub mod rack;
pub mod rejection;
pub mod replay;
pub mod review;
pub mod robot;
pub mod scoring;
pub mod seat;
pub mod seating;
pub mod setup;
mod short_words;
pub mod square;
mod tables;
pub mod tile;
pub mod timeline;
pub mod variant;

pub use bag::Bag;
pub use board::Board;
pub use cgp::{CgpError, CgpPosition};
pub use game::{Game, GameEnd, TileEndReason};
pub use journal::{Action, JournalEntry, JournalTile};
pub use layout::{Layout, Premium};
pub use leave::LeaveTable;
pub use letter::Letter;
pub use lexicon::{Lexicon, LexiconError, Lexicons, WordGraph, WordList, builtin_graph};
pub use movegen::{GeneratedPlay, MoveGenerator, Ranking, SearchCounts};
pub use moves::{CheckedMove, PlacementInput, TileInput, TileMove};
pub use rack::Rack;
pub use rejection::Rejection;
pub use replay::{ReplayError, replay};
pub use scoring::{ScoreBreakdown, WordScore};
pub use seat::{Seat, Timestamp};
pub use setup::{Setup, SetupError};
pub use square::{Direction, Square};
pub use tile::{Placement, RackTile, Tile};
pub use variant::{EndRule, ExchangeRule, LetterSpec, Rules, TileVariant};
pub use vocabulary::ChallengeRule;
