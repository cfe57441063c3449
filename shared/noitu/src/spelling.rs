//! Spelling: how a typed word meets the dictionary's. A word is normalised to one canonical
//! form, the same for the player's input and for every dictionary entry:
//!
//! - Unicode: any mix of precomposed letters and combining marks (NFC, NFD or out of order) is
//!   read letter by letter, and the result is written in NFC;
//! - case: lower case;
//! - spaces: syllables are separated by single spaces, with none around the word (any Unicode
//!   white space, tabs and line breaks included, counts as a separator);
//! - tone marks: a syllable has one tone, written on one vowel by the modern rule, the dictionary's
//!   own ("hoà", "thuỷ", "khoẻ"); the old placement ("hòa", "thủy", "khỏe") reads as the same word;
//! - i and y: a syllable whose rhyme is a lone i or y after an initial consonant is written with
//!   i ("sỹ" and "sĩ" are both "sĩ", "công ty" is "công ti", "quý" is "quí"); a y that begins a
//!   syllable ("y tá", "yêu") or belongs to a longer rhyme ("tuy", "quyển", "huỳnh") is kept.
//!
//! Anything that is not a Vietnamese letter (digits, punctuation, control characters, other
//! scripts) makes the word unspellable: it cannot be in the dictionary.

use unicode_normalization::UnicodeNormalization;

/// The longest input, in bytes, that is read at all; nothing in the dictionary comes close (its
/// longest entry is under 60 bytes even fully decomposed).
pub const MAX_INPUT_BYTES: usize = 512;

/// Why a word cannot be spelled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpellingError {
    /// The input is longer than [`MAX_INPUT_BYTES`].
    #[error("the input is {0} bytes long")]
    TooLong(usize),
    /// There is no syllable at all.
    #[error("the input is empty")]
    Empty,
    /// A character that is neither a Vietnamese letter nor one of its marks.
    #[error("{0:?} is not a Vietnamese letter")]
    NotALetter(char),
    /// A mark that no Vietnamese letter carries there (a circumflex on u, a tone on a consonant,
    /// a mark with no letter).
    #[error("a misplaced mark {0:?}")]
    MisplacedMark(char),
    /// A syllable with two different tone marks.
    #[error("the syllable {0:?} carries two tones")]
    BadTone(String),
}

/// The number of syllables in `raw`: its runs of non-space characters.
pub fn syllable_count(raw: &str) -> usize {
    raw.split_whitespace().count()
}

/// The canonical spelling of `raw` (see the module header).
///
/// # Errors
/// [`SpellingError`] when `raw` is too long, empty, or holds anything but Vietnamese letters.
pub fn normalize(raw: &str) -> Result<String, SpellingError> {
    if raw.len() > MAX_INPUT_BYTES {
        return Err(SpellingError::TooLong(raw.len()));
    }
    let mut out = String::with_capacity(raw.len());
    for token in raw.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        syllable(token, &mut out)?;
    }
    if out.is_empty() {
        return Err(SpellingError::Empty);
    }
    Ok(out)
}

/// A tone: the five marked ones as their combining marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    Huyen,
    Sac,
    Hoi,
    Nga,
    Nang,
}

impl Tone {
    fn of_mark(c: char) -> Option<Tone> {
        match c {
            '\u{300}' => Some(Tone::Huyen),
            '\u{301}' => Some(Tone::Sac),
            '\u{309}' => Some(Tone::Hoi),
            '\u{303}' => Some(Tone::Nga),
            '\u{323}' => Some(Tone::Nang),
            _ => None,
        }
    }

    fn mark(self) -> char {
        match self {
            Tone::Huyen => '\u{300}',
            Tone::Sac => '\u{301}',
            Tone::Hoi => '\u{309}',
            Tone::Nga => '\u{303}',
            Tone::Nang => '\u{323}',
        }
    }
}

const CIRCUMFLEX: char = '\u{302}';
const BREVE: char = '\u{306}';
const HORN: char = '\u{31b}';

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'ă' | 'â' | 'e' | 'ê' | 'i' | 'o' | 'ô' | 'ơ' | 'u' | 'ư' | 'y')
}

fn has_quality_mark(c: char) -> bool {
    matches!(c, 'ă' | 'â' | 'ê' | 'ô' | 'ơ' | 'ư')
}

/// A base letter with a vowel-quality mark: â ă ê ô ơ ư, or `None` where Vietnamese has none.
fn with_quality(base: char, mark: char) -> Option<char> {
    match (base, mark) {
        ('a', CIRCUMFLEX) => Some('â'),
        ('a', BREVE) => Some('ă'),
        ('e', CIRCUMFLEX) => Some('ê'),
        ('o', CIRCUMFLEX) => Some('ô'),
        ('o', HORN) => Some('ơ'),
        ('u', HORN) => Some('ư'),
        _ => None,
    }
}

/// Appends the canonical spelling of one syllable to `out`.
fn syllable(token: &str, out: &mut String) -> Result<(), SpellingError> {
    // Letters without tone (â, ơ, đ ... as single chars) and the syllable's one tone.
    let mut letters: Vec<char> = Vec::with_capacity(token.len());
    let mut tone: Option<Tone> = None;
    for c in token.nfd() {
        if let Some(t) = Tone::of_mark(c) {
            if !letters.last().is_some_and(|&l| is_vowel(l)) {
                return Err(SpellingError::MisplacedMark(c));
            }
            if tone.replace(t).is_some_and(|old| old != t) {
                return Err(SpellingError::BadTone(token.to_string()));
            }
        } else if matches!(c, CIRCUMFLEX | BREVE | HORN) {
            let Some(last) = letters.last_mut() else { return Err(SpellingError::MisplacedMark(c)) };
            *last = with_quality(*last, c).ok_or(SpellingError::MisplacedMark(c))?;
        } else {
            let lower = match c {
                'A'..='Z' => c.to_ascii_lowercase(),
                'Đ' => 'đ',
                _ => c,
            };
            if !(lower.is_ascii_lowercase() || lower == 'đ') {
                return Err(SpellingError::NotALetter(c));
            }
            letters.push(lower);
        }
    }
    let (onset, nucleus) = split(&letters);
    let open = nucleus == letters.len();
    if onset > 0 && nucleus == onset + 1 && open && letters[onset] == 'y' {
        letters[onset] = 'i';
    }
    // A tone always follows a vowel, so the vowel run is not empty.
    let carrier = tone.map(|t| (onset + tone_position(&letters[onset..nucleus], !open), t));
    let start = out.len();
    for (i, &c) in letters.iter().enumerate() {
        out.push(c);
        if let Some((at, t)) = carrier
            && at == i
        {
            out.push(t.mark());
        }
    }
    if carrier.is_some() {
        let composed: String = out[start..].nfc().collect();
        out.truncate(start);
        out.push_str(&composed);
    }
    Ok(())
}

/// Where a toneless syllable's onset ends and where its vowel run ends (the coda follows). The
/// u of "qu" and the i of "gi" before a vowel belong to the onset.
fn split(letters: &[char]) -> (usize, usize) {
    let mut onset = letters.iter().position(|&c| is_vowel(c)).unwrap_or(letters.len());
    let vowel_at = |i: usize| letters.get(i).is_some_and(|&c| is_vowel(c));
    if onset == 1 && ((letters[0] == 'q' && letters[1] == 'u') || (letters[0] == 'g' && letters[1] == 'i')) && vowel_at(2) {
        onset = 2;
    }
    let nucleus = onset + letters[onset..].iter().take_while(|&&c| is_vowel(c)).count();
    (onset, nucleus)
}

/// The vowel of `vowels` (a syllable's vowel run) that carries the tone, by the modern rule.
fn tone_position(vowels: &[char], closed: bool) -> usize {
    let n = vowels.len();
    if n == 1 {
        return 0;
    }
    if let Some(i) = vowels.iter().rposition(|&c| has_quality_mark(c)) {
        return i;
    }
    if closed {
        return n - 1;
    }
    match vowels {
        ['o', 'a'] | ['o', 'e'] | ['u', 'y'] => 1,
        [_, _] => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> String {
        normalize(s).unwrap()
    }

    #[test]
    fn syllables_split_at_the_onset_vowels_and_coda() {
        let letters = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(split(&letters("nghieng")), (3, 5));
        assert_eq!(split(&letters("quyen")), (2, 4));
        assert_eq!(split(&letters("gin")), (1, 2));
        assert_eq!(split(&letters("gia")), (2, 3));
        assert_eq!(split(&letters("oa")), (0, 2));
    }

    #[test]
    fn tones_land_on_the_modern_vowel() {
        for (typed, canonical) in [
            ("người", "người"),
            ("ngoài", "ngoài"),
            ("khuỷu", "khuỷu"),
            ("hoạch", "hoạch"),
            ("thuyền", "thuyền"),
            ("quốc", "quốc"),
            ("gìn", "gìn"),
            ("giữ", "giữ"),
            ("mía", "mía"),
            ("của", "của"),
            ("rượu", "rượu"),
            ("huỳnh", "huỳnh"),
            ("quạu", "quạu"),
            ("ngoẹo", "ngoẹo"),
        ] {
            assert_eq!(n(typed), canonical, "{typed}");
        }
    }

    #[test]
    fn a_tone_on_a_consonant_or_two_tones_are_refused() {
        assert!(matches!(normalize("ǹg"), Err(SpellingError::MisplacedMark(_))));
        assert!(matches!(normalize("ha\u{301}\u{300}"), Err(SpellingError::BadTone(_))));
        assert!(matches!(normalize("\u{302}a"), Err(SpellingError::MisplacedMark(_))));
        assert!(matches!(normalize("u\u{302}"), Err(SpellingError::MisplacedMark(_))));
    }
}
