//! What one account may have at once: unfinished games, open lobby games of a variant, and
//! pending invitations to one account. Each is checked as a game is created (under a lock on
//! the creator's account) or joined, and refused with its own typed code.

use store::Limits;
use uuid::Uuid;

/// How many open lobby games of one variant an account may have at once (invitations it has
/// received are not counted).
pub const MAX_OPEN_PER_VARIANT: u32 = 3;

/// How many unfinished games (open or being played, against robots too) an account may sit in
/// at once.
pub const MAX_UNFINISHED_GAMES: u32 = 100;

/// How many pending invitations one account may have sent to any one other account at once.
pub const MAX_INVITATIONS_FROM_ONE: u32 = 3;

/// The limits `account` is held to creating a game: a lobby game (`open`) or one that
/// invites another human (`invites`).
pub(crate) fn for_new_game(account: Uuid, open: bool, invites: bool) -> Limits {
    Limits {
        account,
        unfinished: MAX_UNFINISHED_GAMES,
        open: open.then_some(MAX_OPEN_PER_VARIANT),
        invitations: invites.then_some(MAX_INVITATIONS_FROM_ONE),
    }
}
