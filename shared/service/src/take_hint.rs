//! The hint use case: the best moves for the caller, taking one of the seat's rationed hints
//! ([`crate::hints::allowance`]).

use games::{Hint, Position};
use serde::Serialize;
use uuid::Uuid;

use crate::caller::seat_of;
use crate::invitation::ensure_not_awaiting;
use crate::usecases::ensure_not_withdrawn;
use crate::{Caller, Service, ServiceError};

/// The answer to a hint: the moves, and the hints the caller has left after this one.
#[derive(Debug, Clone, Serialize)]
pub struct Hinted {
    /// The best moves, best first.
    pub hints: Vec<Hint>,
    /// Hints the caller's seat has left in this game; null when they are not rationed.
    pub hints_left: Option<u32>,
}

impl Service {
    /// The best moves for the caller, best first (at most 20): tile plays by equity, chain words
    /// as the hard robot orders them. In a game whose hints are rationed it takes one of the
    /// seat's: none left is refused before anything is computed, and the hint is counted only
    /// once the moves are found, by one statement guarded by the allowance (of two requests for
    /// the last hint one gets it, the other `no_hints_left`); a refusal counts nothing.
    ///
    /// # Errors
    /// [`ServiceError::NoHintsLeft`]; [`ServiceError::Rejected`] with `game_over` once the game
    /// has ended (or `challenge_window`); [`ServiceError::NotYourGame`], [`ServiceError::NotFound`],
    /// [`ServiceError::Withdrawn`], [`ServiceError::AwaitingAcceptance`].
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn hint(&self, caller: &Caller, game_id: Uuid, limit: usize) -> Result<Hinted, ServiceError> {
        let (record, game) = self.load_settled(game_id).await?;
        let seat = seat_of(&record, caller)?;
        ensure_not_withdrawn(&record)?;
        ensure_not_awaiting(&record)?;
        let no_hints_left = || ServiceError::NoHintsLeft { allowed: record.hints_allowed.unwrap_or(0) };
        if record.hints_left(seat.index()) == Some(0) {
            return Err(no_hints_left());
        }
        let hints = game.hints(seat, limit, self.runtime.thinking.budget())?;
        let hints_left = match record.hints_allowed {
            None => None,
            Some(_) => Some(self.store.take_hint(game_id, seat.index()).await?.ok_or_else(no_hints_left)?),
        };
        Ok(Hinted { hints, hints_left })
    }
}
