//! A letter of a variant's alphabet, held as its index in that alphabet.

use serde::Serialize;

/// The most letters any variant's alphabet has (Russian Scrabble: 33).
pub const MAX_LETTERS: usize = 33;

/// A letter of one variant's alphabet, stored as its zero-based index there (A/А = 0).
///
/// A `Letter` means nothing without its [`crate::Rules`]: use [`crate::Rules::letter`] to make one
/// from a character and [`crate::Rules::char_of`] to print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Letter(u8);

impl Letter {
    /// The letter at `index` of an alphabet; callers keep `index` below the alphabet's length.
    pub(crate) const fn new(index: u8) -> Self {
        debug_assert!((index as usize) < MAX_LETTERS);
        Letter(index)
    }

    /// Zero-based index in the variant's alphabet; also the letter's rank in the first-move draw.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
