//! Points per accepted word: 10 + 2 × chain length + 5 × (syllables − 2), capped.
//!
//! The chain length is the number of words accepted in the game so far, this one included (the
//! opening word is given, not played): the first answer is worth 12 points as a two-syllable
//! word, 17 as three. The cap ([`DEFAULT_SCORE_CAP`] unless the setup pins another) keeps long
//! games from being decided by length alone: a two-syllable word reaches 50 at chain length 20.
//! The score never decides the winner (the chain does); it is the players' record.

/// The default most points one word scores.
pub const DEFAULT_SCORE_CAP: u32 = 50;

/// The points for a word of `syllables` (≥ 2) accepted at chain length `chain` (≥ 1), at most
/// `cap`.
pub const fn points(chain: u32, syllables: u32, cap: u32) -> u32 {
    let raw = 10u32.saturating_add(chain.saturating_mul(2)).saturating_add(syllables.saturating_sub(2).saturating_mul(5));
    if raw < cap { raw } else { cap }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_formula_and_its_cap() {
        assert_eq!(points(1, 2, 50), 12);
        assert_eq!(points(1, 3, 50), 17);
        assert_eq!(points(4, 4, 50), 28);
        assert_eq!(points(20, 2, 50), 50);
        assert_eq!(points(40, 9, 50), 50);
        assert_eq!(points(u32::MAX, u32::MAX, 50), 50);
    }
}
