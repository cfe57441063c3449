//! Nối từ, the Vietnamese word chain, as a pure engine: each word must begin with the syllable
//! the last one ended with, on a directed graph where syllables are nodes and words are edges.
//!
//! The engine does no I/O and never reads the clock or the OS RNG: a game is fully determined by
//! its [`ChainSetup`] (seed, seats, pinned options, opening word), its journal and its dictionary. A
//! typed word becomes a [`CheckedChainMove`] only through [`WordChain::check`], applying one cannot fail,
//! and every applied move is a [`ChainJournalEntry`] from which [`replay`] rebuilds the game exactly.
//! Robots read a [`ChainRobotView`] and propose words; randomness and time come in as parameters.

pub mod dictionary;
pub mod game;
pub mod journal;
mod random;
pub mod rejection;
pub mod replay;
mod replay_error;
pub mod robot;
pub mod scoring;
pub mod seat;
pub mod setup;
pub mod spelling;
pub mod syllable;
pub mod used;
pub mod view;

pub use dictionary::{Dictionary, DictionaryError, FAMILIAR, Link, LinkId, MOST_FAMILIAR, Stats, SyllableId, WordId, WordListEdition};
pub use game::{ChainEndReason, CheckedChainMove, WordChain};
pub use journal::{ChainAction, ChainJournalEntry};
pub use rejection::ChainRejection;
pub use replay::replay;
pub use replay_error::ChainReplayError;
pub use seat::{Seat, Timestamp};
pub use setup::{ChainSetup, ChainSetupError, Options, VARIANT};
pub use spelling::{SpellingError, normalize, spelled};
pub use syllable::is_syllable;
pub use used::UsedWords;
pub use view::ChainRobotView;
