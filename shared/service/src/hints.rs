//! Hints, rationed: how many hints each seat of a game may take, pinned when the game is made
//! ([`allowance`], the one rule every way of making a game reads). The hint use case, which takes
//! one of them, is [`crate::take_hint`].

use games::{Family, Variant};

use crate::ServiceError;
use crate::error::ErrorCode;

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
/// [`ErrorCode::BadHints`] out of that range.
pub(crate) fn checked_hints(asked: Option<i32>) -> Result<Option<u8>, ServiceError> {
    asked
        .map(|n| {
            u8::try_from(n).ok().filter(|&n| u32::from(n) <= MAX_HINTS_ALLOWED).ok_or_else(|| ServiceError::Invalid {
                reason: ErrorCode::BadHints,
                message: format!("hints must be 0..={MAX_HINTS_ALLOWED}, not {n}"),
            })
        })
        .transpose()
}
