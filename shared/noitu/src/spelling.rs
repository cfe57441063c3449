//! Spelling: how a typed word meets the dictionary's. A word is normalised to one canonical
//! form, the same for the player's input and for every dictionary entry:
//!
//! - Unicode: any mix of precomposed letters and combining marks (NFC, NFD or out of order) is
//!   read letter by letter, and the result is written in NFC;
//! - case: lower case;
//! - spaces: syllables are separated by single spaces, with none around the word (any Unicode
//!   white space, tabs and line breaks included, counts as a separator);
//! - tone marks: a syllable has one tone, written on one vowel by the modern rule, the dictionary's
//!   own ("hoà", "thuỷ", "khoẻ"); the old placement ("hòa", "thủy", "khỏe") reads as the same word.
//!   A syllable carries at most one tone mark: a second one, even the same tone again on the same
//!   vowel ("mắ́t") or on another ("hòà"), makes it unspellable rather than being folded away;
//! - i and y: a syllable whose rhyme is a lone i or y after an initial consonant is written with
//!   i ("sỹ" and "sĩ" are both "sĩ", "công ty" is "công ti", "quý" is "quí"); a y that begins a
//!   syllable ("y tá", "yêu") or belongs to a longer rhyme ("tuy", "quyển", "huỳnh") is kept.
//!
//! Anything that is not a Vietnamese letter (digits, punctuation, control characters, other
//! scripts) makes the word unspellable: it cannot be in the dictionary.
//!
//! The canonical form is a key, not what a game shows: a word a player typed is shown as
//! [`spelled`] (their own tone placement and i or y, tidied), and a word the game chooses in the
//! dictionary's usual spelling ([`crate::Dictionary::display`]).

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
    /// A syllable with more than one tone mark, whether the same tone repeated or two tones.
    #[error("the syllable {0:?} carries more than one tone mark")]
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
    each_syllable(raw, syllable)
}

/// `raw`'s syllables, each written by `write_syllable`, separated by single spaces.
fn each_syllable(raw: &str, write_syllable: fn(&str, &mut String) -> Result<(), SpellingError>) -> Result<String, SpellingError> {
    if raw.len() > MAX_INPUT_BYTES {
        return Err(SpellingError::TooLong(raw.len()));
    }
    let mut out = String::with_capacity(raw.len());
    for token in raw.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        write_syllable(token, &mut out)?;
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

/// The letters of one syllable without tone (â, ơ, đ ... as single chars), its one tone and the
/// letter the tone was typed on.
struct Parsed {
    letters: Vec<char>,
    tone: Option<(Tone, usize)>,
}

fn parse(token: &str) -> Result<Parsed, SpellingError> {
    let mut letters: Vec<char> = Vec::with_capacity(token.len());
    let mut tone: Option<(Tone, usize)> = None;
    for c in token.nfd() {
        if let Some(t) = Tone::of_mark(c) {
            if !letters.last().is_some_and(|&l| is_vowel(l)) {
                return Err(SpellingError::MisplacedMark(c));
            }
            // A repeated mark is refused too: folding it away would accept a misspelling.
            if tone.replace((t, letters.len() - 1)).is_some() {
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
    Ok(Parsed { letters, tone })
}

/// Appends `letters` to `out` with the tone `carrier` on its letter, composed (NFC).
fn write(letters: &[char], carrier: Option<(usize, Tone)>, out: &mut String) {
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
}

/// Appends the canonical spelling of one syllable to `out`.
fn syllable(token: &str, out: &mut String) -> Result<(), SpellingError> {
    let Parsed { mut letters, tone } = parse(token)?;
    let (onset, nucleus) = split(&letters);
    let open = nucleus == letters.len();
    if onset > 0 && nucleus == onset + 1 && open && letters[onset] == 'y' {
        letters[onset] = 'i';
    }
    // A tone always follows a vowel, so the vowel run is not empty.
    let carrier = tone.map(|(t, _)| (onset + tone_position(&letters[onset..nucleus], !open), t));
    write(&letters, carrier, out);
    Ok(())
}

/// `raw` as its writer spelled it, tidied: lower case, composed (NFC), syllables separated by
/// single spaces, each tone mark on the vowel it was typed on and i or y as typed ("Hòa  Bình"
/// is "hòa bình", "quý" stays "quý"). The form a game shows of a word a player typed; its key is
/// [`normalize`].
///
/// # Errors
/// [`SpellingError`] exactly when [`normalize`] refuses `raw`.
pub fn spelled(raw: &str) -> Result<String, SpellingError> {
    each_syllable(raw, |token, out| {
        let Parsed { letters, tone } = parse(token)?;
        write(&letters, tone.map(|(t, at)| (at, t)), out);
        Ok(())
    })
}

/// Where a toneless syllable's onset ends and where its vowel run ends (the coda follows). The
/// u of "qu" and the i of "gi" before a vowel belong to the onset.
fn split(letters: &[char]) -> (usize, usize) {
    let mut onset = letters.iter().position(|&c| is_vowel(c)).unwrap_or(letters.len());
    let vowel_at = |i: usize| letters.get(i).is_some_and(|&c| is_vowel(c));
    if onset == 1 && matches!(letters, ['q', 'u', ..] | ['g', 'i', ..]) && vowel_at(2) {
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
        // A lone q or g (a syllable of one consonant) has no vowel run, and no panic.
        assert_eq!(split(&letters("q")), (1, 1));
        assert_eq!(split(&letters("g")), (1, 1));
        assert_eq!(split(&letters("gi")), (1, 2));
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

    /// The tone marks a syllable carries, counted on its decomposed form.
    fn tone_marks(syllable: &str) -> usize {
        syllable.nfd().filter(|&c| Tone::of_mark(c).is_some()).count()
    }

    #[test]
    fn a_second_tone_mark_on_a_syllable_is_refused_even_the_same_tone() {
        for typed in [
            "mắ́t bão",                      // the report: a doubled acute on ă
            "hòà bình",                     // the report: a grave on two vowels of one syllable
            "ma\u{306}\u{301}\u{301}t bão", // the first report decomposed
            "ho\u{300}a\u{300} bình",       // the second report decomposed
            "HÒÀ BÌNH",                     // and in upper case
            "ho\u{300}\u{300}a bình",       // a doubled grave
            "tho\u{301}a\u{301}\u{301}",    // three marks
            "thủỷ thủ",                     // a hook above on u and on y
            "quý́ báu",                      // a doubled acute on the y that becomes i
        ] {
            assert!(matches!(normalize(typed), Err(SpellingError::BadTone(_))), "{typed:?}: {:?}", normalize(typed));
        }
        // A tone on a consonant is refused whatever else the syllable carries.
        assert!(matches!(normalize("mắt\u{300} bão"), Err(SpellingError::MisplacedMark('\u{300}'))));
        assert!(matches!(normalize("hoàǹ"), Err(SpellingError::MisplacedMark('\u{300}'))));
    }

    #[test]
    fn one_tone_mark_still_reads_in_either_placement_form_and_case() {
        for (typed, canonical) in [
            ("hoà", "hoà"),
            ("hòa", "hoà"),
            ("ho\u{300}a", "hoà"),
            ("HÒA", "hoà"),
            ("thuỷ", "thuỷ"),
            ("thủy", "thuỷ"),
            ("quý", "quí"),
            ("quí", "quí"),
            ("mắt bão", "mắt bão"),
            ("ma\u{306}\u{301}t ba\u{303}o", "mắt bão"),
            ("MẮT BÃO", "mắt bão"),
        ] {
            assert_eq!(n(typed), canonical, "{typed:?}");
        }
    }

    #[test]
    fn the_writers_spelling_keeps_tone_placement_and_i_or_y_and_tidies_the_rest() {
        for (typed, shown) in [
            ("quý", "quý"),
            ("quí", "quí"),
            ("Hòa  Bình", "hòa bình"),
            ("hoà bình", "hoà bình"),
            ("ho\u{300}a\tbi\u{300}nh", "hòa bình"),
            ("  KỸ   THUẬT ", "kỹ thuật"),
            ("ma\u{301}\u{306}t", "mắt"),
            ("thủy", "thủy"),
        ] {
            assert_eq!(spelled(typed).as_deref(), Ok(shown), "{typed:?}");
        }
        assert!(matches!(spelled("hòà"), Err(SpellingError::BadTone(_))));
        assert_eq!(spelled(""), Err(SpellingError::Empty));
    }

    /// Pieces of input: letters, precomposed toned letters, loose marks and spaces.
    const PIECES: &[&str] = &[
        "a", "ă", "â", "e", "ê", "i", "o", "ô", "ơ", "u", "ư", "y", "b", "c", "g", "h", "m", "n", "q", "t", "đ", "A", "Ư", "Đ", "à", "á",
        "ắ", "ề", "ỷ", "ọ", "Ồ", "ũ", "\u{300}", "\u{301}", "\u{303}", "\u{309}", "\u{323}", "\u{302}", "\u{306}", "\u{31b}", " ",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        #[test]
        fn an_accepted_word_has_at_most_one_tone_mark_per_syllable(
            picks in proptest::collection::vec(0..PIECES.len(), 1..14),
        ) {
            let typed: String = picks.iter().map(|&i| PIECES[i]).collect();
            if let Ok(canonical) = normalize(&typed) {
                for s in typed.split_whitespace() {
                    proptest::prop_assert!(tone_marks(s) <= 1, "{typed:?} typed {s:?}");
                }
                for s in canonical.split(' ') {
                    proptest::prop_assert!(tone_marks(s) <= 1, "{typed:?} spelled {s:?}");
                }
                proptest::prop_assert_eq!(normalize(&canonical), Ok(canonical.clone()));
                // The writer's spelling is a spelling of the same word, already tidy.
                let shown = spelled(&typed).unwrap();
                proptest::prop_assert_eq!(normalize(&shown), Ok(canonical.clone()));
                proptest::prop_assert_eq!(spelled(&shown), Ok(shown.clone()));
                proptest::prop_assert_eq!(shown.nfc().collect::<String>(), shown.clone());
            } else {
                proptest::prop_assert!(spelled(&typed).is_err());
            }
        }

        #[test]
        fn another_tone_mark_on_a_toned_syllable_is_refused(
            word in proptest::sample::select(&["hoà bình", "mắt bão", "thuỷ thủ", "quý báu", "người việt", "khuỷu", "tiếng việt"][..]),
            mark in proptest::sample::select(&['\u{300}', '\u{301}', '\u{303}', '\u{309}', '\u{323}'][..]),
            pick in 0usize..32,
        ) {
            // Every syllable of these words has its tone already: the extra mark goes after any
            // vowel, in decomposed form, before or after the marks already there.
            let mut typed: Vec<char> = word.nfd().collect();
            let vowels: Vec<usize> = (0..typed.len()).filter(|&i| is_vowel(typed[i])).collect();
            typed.insert(vowels[pick % vowels.len()] + 1, mark);
            let typed: String = typed.into_iter().collect();
            proptest::prop_assert!(matches!(normalize(&typed), Err(SpellingError::BadTone(_))), "{typed:?}");
        }
    }
}
