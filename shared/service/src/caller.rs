//! Who is calling: an identity the gateway vouched for, refused when it is reserved (a robot's
//! account, the auto-match placeholder), with a display name cleaned for other players to see.

use games::Seat;
use store::{GameRecord, Level};
use uuid::Uuid;

use crate::ServiceError;
use crate::error::ReservedIdentity;

/// The name shown when no claim gives a usable one.
pub const NEUTRAL_NAME: &str = "Player";

/// The longest display name kept, in characters (the accounts table's limit).
const MAX_NAME_CHARS: usize = 64;

/// Who is calling: the identity the gateway vouched for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    account_id: Uuid,
    display_name: String,
    director: bool,
}

impl Caller {
    /// The caller with account `account_id` (the token's `sub`), named by the first of
    /// `names` (the token's name claims, in order of preference) that is still visible once
    /// cleaned ([`clean_name`]), else [`NEUTRAL_NAME`].
    ///
    /// # Errors
    /// [`ServiceError::ReservedIdentity`] for a robot's account or the nil UUID.
    pub fn new<'a>(account_id: Uuid, names: impl IntoIterator<Item = &'a str>) -> Result<Caller, ServiceError> {
        if account_id.is_nil() {
            return Err(ServiceError::ReservedIdentity(ReservedIdentity::Placeholder));
        }
        if Level::ALL.iter().any(|&l| store::robot_account(l) == account_id) {
            return Err(ServiceError::ReservedIdentity(ReservedIdentity::Robot));
        }
        let display_name = names.into_iter().find_map(clean_name).unwrap_or_else(|| NEUTRAL_NAME.to_string());
        Ok(Caller { account_id, display_name, director: false })
    }

    /// The caller, who may direct tournaments when the gateway vouched for the role (the token's
    /// `director` or `admin` group).
    #[must_use]
    pub fn directing(mut self, director: bool) -> Caller {
        self.director = director;
        self
    }

    /// Whether the caller may direct tournaments.
    pub fn is_director(&self) -> bool {
        self.director
    }

    /// The account id.
    pub fn account_id(&self) -> Uuid {
        self.account_id
    }

    /// The cleaned display name, used when the account is first seen (and to rename it).
    pub fn display_name(&self) -> &str {
        &self.display_name
    }
}

/// `raw` as a display name others may see: control and invisible format characters removed,
/// runs of white space made one space, trimmed, at most 64 characters; `None` when nothing
/// visible is left or it is an email address (never shown publicly).
pub fn clean_name(raw: &str) -> Option<String> {
    let mut name = String::new();
    for c in raw.chars().filter(|c| !c.is_control() && !is_invisible_format(*c)) {
        if c.is_whitespace() {
            if !name.is_empty() && !name.ends_with(' ') {
                name.push(' ');
            }
        } else {
            name.push(c);
        }
    }
    let name: String = name.trim_end().chars().take(MAX_NAME_CHARS).collect();
    let name = name.trim_end().to_string();
    (!name.is_empty() && !looks_like_email(&name)).then_some(name)
}

/// Format characters that show nothing: zero-width spaces and joiners, direction marks and
/// embeddings, word joiners, the byte-order mark, the soft hyphen, and the like.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{E0000}'..='\u{E007F}')
}

/// Whether `name` reads as an email address: one `@` with text before it and a dotted domain
/// after, no spaces.
fn looks_like_email(name: &str) -> bool {
    let Some((local, domain)) = name.split_once('@') else { return false };
    !local.is_empty()
        && !name.contains(' ')
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|part| !part.is_empty())
}

/// The caller's seat in the game.
pub(crate) fn seat_of(record: &GameRecord, caller: &Caller) -> Result<Seat, ServiceError> {
    record
        .players
        .iter()
        .find(|p| p.account.as_ref().is_some_and(|a| a.account_id == caller.account_id()))
        .map(|p| Seat(p.seat as u8))
        .ok_or(ServiceError::NotYourGame)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_and_invisible_characters() {
        assert_eq!(clean_name("Ann\0ie").as_deref(), Some("Annie"));
        assert_eq!(clean_name("  Bob \t\n  Smith  ").as_deref(), Some("Bob Smith"));
        assert_eq!(clean_name("Zoë\u{200B}\u{202E}").as_deref(), Some("Zoë"));
        assert_eq!(clean_name("Иван Петров").as_deref(), Some("Иван Петров"));
        assert_eq!(clean_name(&"x".repeat(100)).map(|n| n.chars().count()), Some(64));
        assert_eq!(clean_name(&format!("{} y", "x".repeat(63))).as_deref(), Some("x".repeat(63).as_str()), "no trailing space");
    }

    #[test]
    fn empty_invisible_and_email_names_are_refused() {
        for raw in ["", "   ", "\0\u{7}", "\u{200B}\u{2060}\u{FEFF}", "\u{3164}", "ann@example.com", "a.b+c@mail.co.uk"] {
            assert_eq!(clean_name(raw), None, "{raw:?}");
        }
        assert_eq!(clean_name("ann @ home").as_deref(), Some("ann @ home"), "not an address");
        assert_eq!(clean_name("@ann").as_deref(), Some("@ann"));
    }

    #[test]
    fn the_first_usable_name_wins_and_reserved_identities_are_refused() {
        let id = Uuid::new_v4();
        assert_eq!(Caller::new(id, ["\0", "ann@example.com", "Ann"]).unwrap().display_name(), "Ann");
        assert_eq!(Caller::new(id, ["\u{200B}"]).unwrap().display_name(), NEUTRAL_NAME);
        assert_eq!(Caller::new(id, []).unwrap().account_id(), id);
        assert!(matches!(Caller::new(Uuid::nil(), ["x"]), Err(ServiceError::ReservedIdentity(ReservedIdentity::Placeholder))));
        for level in Level::ALL {
            assert!(matches!(
                Caller::new(store::robot_account(level), ["x"]),
                Err(ServiceError::ReservedIdentity(ReservedIdentity::Robot))
            ));
        }
    }
}
