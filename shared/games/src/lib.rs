//! The game-family contract the service speaks (after shakmaty's `Position` and
//! `VariantPosition`): every family implements [`Position`], and [`AnyGame`] holds one game of
//! any family and forwards each method to it. The tile family ([`tile`]: Scrabble and Эрудит,
//! the `engine` crate) and the chain family ([`chain`]: Nối từ, the `noitu` crate) live behind
//! it; the service, the store and the API see only the contract's plain data: a [`Variant`],
//! untrusted [`Move`]s, opaque [`Checked`] moves, journal [`Entry`]s, typed [`Rejected`]
//! refusals with a code and details, an [`Outcome`], views, hints and robot moves.
//!
//! Adding a family: the exact list of places it touches is in docs/ARCHITECTURE.md, "Game
//! families".

mod analysis;
mod any;
mod catalog;
pub mod chain;
mod chain_view;
mod contract;
mod draw;
mod entry;
pub mod lots;
mod moves;
mod outcome;
mod rejection;
mod seat;
pub mod tile;
mod tile_view;
mod variant;

pub use analysis::{ANALYSIS_NODES, ANALYSIS_ROUNDS, Analysis, ChainReview, TileReview};
pub use any::{AnyGame, Families, GameState, NewSetup, Stored, challenge_rule_of};
pub use catalog::{LetterInfo, TileSet, VariantInfo, catalog};
pub use contract::{Budget, Checked, FamilyView, GameError, Hint, Level, Position, RobotMove, Score, SeatDetail, Timeline};
pub use draw::{Draw, DrawError, DrawPick, DrawState, draw_state, draw_step};
pub use engine::gcg::GcgHeader;
pub use engine::seating::Entropy;
pub use engine::{LexiconError, Lexicons};
pub use entry::{ActionView, Entry, EntryView, ExchangeKind, MoveKind, Viewer, entry_view};
pub use moves::Move;
pub use outcome::{EndReason, Outcome};
pub use rejection::{Rejected, codes};
pub use seat::{Seat, Timestamp};
pub use variant::{Family, UnknownVariant, Variant};
pub use vocabulary::{ChallengeRule, Lapse, Speed, TimeControl, TimeControlError, TimeControlKind, UnknownLevel};
