//! Hints, rationed: how many hints each seat of a game may take (pinned when the game is made,
//! [`allowance`], the one rule), and the hint use case, which takes one of them.

use games::{Family, Hint, Position, Variant};
use serde::Serialize;
use store::GameRecord;
use uuid::Uuid;

use crate::caller::seat_of;
use crate::error::Invalid;
use crate::invitation::ensure_not_awaiting;
use crate::usecases::{ensure_not_withdrawn, invalid};
use crate::{Caller, Service, ServiceError};

/// The most hints a game may allow each seat (a request asks 0 to this many).
pub const MAX_HINTS_ALLOWED: u32 = 20;

/// Hints a seat of a new casual game may take when the request does not say, by family: a
/// word chain is soon over and a hint there all but plays the turn, so it gets a few; the tile
/// games (where a hint is a lesson in the board) as many as one likes. A family not listed
/// gets as many as one likes.
const DEFAULT_HINTS: &[(Family, u8)] = &[(Family::CHAIN, 3)];

/// The hints each seat of a new game may take (`None`: as many as it likes), the one rule
/// every way of making a game reads (create, open, rematch, a tournament's round): a rated game
/// has none, whatever was asked, so a rating never rests on a hint (a rated game later played
/// casual by the pair limit keeps its none: its players set out to play without); otherwise
/// what was asked, else the family's default ([`DEFAULT_HINTS`]).
pub(crate) fn allowance(variant: Variant, rated: bool, asked: Option<u8>) -> Option<u8> {
    if rated {
        return Some(0);
    }
    asked.or_else(|| DEFAULT_HINTS.iter().find(|(family, _)| *family == variant.family()).map(|(_, n)| *n))
}

/// A request's `hints`, checked: 0 to [`MAX_HINTS_ALLOWED`].
///
/// # Errors
/// [`Invalid::BadHints`] out of that range.
pub(crate) fn checked_hints(asked: Option<i32>) -> Result<Option<u8>, ServiceError> {
    asked
        .map(|n| {
            u8::try_from(n)
                .ok()
                .filter(|&n| u32::from(n) <= MAX_HINTS_ALLOWED)
                .ok_or_else(|| invalid(Invalid::BadHints, format!("hints must be 0..={MAX_HINTS_ALLOWED}, not {n}")))
        })
        .transpose()
}

/// The hints `seat` of `record` has left: `None` when they are not rationed.
pub(crate) fn hints_left(record: &GameRecord, seat: usize) -> Option<u32> {
    let used = record.players.get(seat).map_or(0, |p| p.hints_used);
    record.hints_allowed.map(|allowed| allowed.saturating_sub(used))
}

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
        if hints_left(&record, seat.index()) == Some(0) {
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
