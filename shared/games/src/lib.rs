//! The game-family contract the service speaks (after shakmaty's `Position` and
//! `VariantPosition`): every family implements [`Position`] and [`FamilyRules`], and
//! [`AnyGame`] holds one game of any family and forwards each method to it. The tile family ([`tile`]: Scrabble and Эрудит,
//! the `engine` crate) and the chain family ([`chain`]: Nối từ, the `noitu` crate) live behind
//! it; the service, the store and the API see only the contract's plain data: a [`Variant`],
//! untrusted [`Move`]s, opaque [`Checked`] moves, journal [`Entry`]s, typed [`Rejected`]
//! refusals with a code and details, an [`Outcome`], robot moves, and the family's own views,
//! hints, scores, entries and timeline as open values ([`open`], [`EntryView`], [`Timeline`]).
//!
//! Adding a family: the exact list of places it touches is in docs/ARCHITECTURE.md, "Game
//! families".

mod analysis;
mod any;
mod catalog;
pub mod chain;
mod chain_page;
mod chain_view;
mod contract;
mod draw;
mod entry;
mod family;
pub mod lots;
mod moves;
pub mod open;
mod outcome;
mod rejection;
mod seat;
pub mod tile;
mod tile_page;
mod tile_view;
mod timeline;
mod variant;

pub use analysis::{ANALYSIS_NODES, ANALYSIS_ROUNDS, Analysis, ChainReview, Judge, NamedMove, PlayerSummary, TileReview};
pub use any::{AnyGame, Families, FamilyConflict};
pub use catalog::{FamilyInfo, LetterInfo, TileSet, VariantInfo, catalog, families, plays_tournaments};
pub use contract::{Budget, Checked, GameError, GameState, Level, Opponent, Position, RobotMove};
pub use draw::{Draw, DrawError, DrawPick, DrawState, draw_state, draw_step};
pub use engine::gcg::GcgHeader;
pub use engine::seating::Entropy;
pub use engine::{LexiconError, Lexicons};
pub use entry::{Entry, EntryView, MoveKind, Viewer};
pub use family::{FamilyRules, NewSetup, Stored, challenge_rule_of};
pub use moves::Move;
pub use open::{FamilyView, Hint, Revealed, Reviewed, Score, SeatDetail};
pub use outcome::{EndReason, Outcome};
pub use rejection::{Rejected, codes};
pub use seat::{Seat, Timestamp};
pub use timeline::{FamilyTimeline, PageSeat, Stage, Timeline};
pub use variant::{Family, UnknownVariant, Variant};
pub use vocabulary::Clocks;
pub use vocabulary::{ChallengeRule, Lapse, Speed, TimeControl, TimeControlError, TimeControlKind, UnknownLevel};
