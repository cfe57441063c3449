//! Tournaments for the word games: pairing a round (round robin, Swiss, King of the Hill),
//! standings, and the `.t` file of tsh, the standard tournament software, so that directors
//! keep their tools. Pure and deterministic: no clock, no randomness, no I/O; the caller holds
//! the entrants and the games and asks for the next round.
//!
//! Scoring is NASPA-style: a win is two half-points and a draw one; a bye is a win with
//! +[`BYE_SPREAD`]; a forfeit is a loss with −[`FORFEIT_SPREAD`] for the player who forfeits
//! and a win with +[`FORFEIT_SPREAD`] for the opponent.

mod pairing;
mod record;
mod standings;
mod tsh;

pub use pairing::{PairingError, PairingSystem, pair_round};
pub use record::{BYE_SPREAD, Entrant, FORFEIT_SPREAD, GameWinner, Pairing, PlayerNo, RoundGame, TournamentOutcome};
pub use standings::{Standing, standings};
pub use tsh::{TshError, TshPlayer, tsh_export, tsh_parse, tsh_players};
