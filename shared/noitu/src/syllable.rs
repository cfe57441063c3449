//! Whether a syllable is shaped like a Vietnamese one: at most one tone mark; without it, an
//! onset and a rhyme of the language's (the rhyme list below, with the glide of qu and the i of gi
//! read back in); k, gh and ngh only before i, e, ê and y, c, g and ng never before e, ê and i;
//! and a syllable ending in p, t, c or ch only with the acute or the dot below. The word lists'
//! build (scripts/build-noitu-wordlist.py) drops an entry with a syllable that fails this check;
//! shared/noitu/data/SOURCE.md states the same rule, and a test checks every word of the list
//! new games use against this one.

use unicode_normalization::UnicodeNormalization;

/// The onsets, longest first where one begins another.
const ONSETS: [&str; 27] = [
    "ngh", "ng", "gh", "gi", "kh", "nh", "ph", "qu", "th", "tr", "ch", "b", "c", "d", "đ", "g", "h", "k", "l", "m", "n", "p", "r", "s",
    "t", "v", "x",
];

/// The rhymes, without tone, in code point order.
const RHYMES: &[&str] = &[
    "a", "ac", "ach", "ai", "am", "an", "ang", "anh", "ao", "ap", "at", "au", "ay", "e", "ec", "em", "en", "eng", "eo", "ep", "et", "i",
    "ia", "ich", "im", "in", "inh", "ip", "it", "iu", "iêc", "iêm", "iên", "iêng", "iêp", "iêt", "iêu", "o", "oa", "oac", "oach", "oai",
    "oam", "oan", "oang", "oanh", "oao", "oap", "oat", "oay", "oc", "oe", "oen", "oeo", "oet", "oi", "om", "on", "ong", "ooc", "oong",
    "op", "ot", "oăc", "oăm", "oăn", "oăng", "oăp", "oăt", "u", "ua", "uc", "ui", "um", "un", "ung", "up", "ut", "uy", "uya", "uych",
    "uynh", "uyt", "uyu", "uyên", "uyêt", "uân", "uâng", "uât", "uây", "uê", "uêch", "uên", "uênh", "uêt", "uôc", "uôi", "uôm", "uôn",
    "uông", "uôt", "uơ", "y", "yêm", "yên", "yêt", "yêu", "â", "âc", "âm", "ân", "âng", "âp", "ât", "âu", "ây", "ê", "êch", "êm", "ên",
    "ênh", "êp", "êt", "êu", "ô", "ôc", "ôi", "ôm", "ôn", "ông", "ôp", "ôt", "ăc", "ăm", "ăn", "ăng", "ăp", "ăt", "ơ", "ơi", "ơm", "ơn",
    "ơp", "ơt", "ư", "ưa", "ưc", "ưi", "ưm", "ưn", "ưng", "ưt", "ưu", "ươc", "ươi", "ươm", "ươn", "ương", "ươp", "ươt", "ươu",
];

/// The tone marks, as combining characters: grave, acute, hook above, tilde, dot below.
const TONES: [char; 5] = ['\u{300}', '\u{301}', '\u{309}', '\u{303}', '\u{323}'];

/// Whether `syllable` (lower case, one syllable) is shaped like a Vietnamese syllable (see the
/// module header).
pub fn is_syllable(syllable: &str) -> bool {
    let mut tones = syllable.nfd().filter(|c| TONES.contains(c));
    let tone = tones.next();
    if tones.next().is_some() {
        return false;
    }
    let bare: String = syllable.nfd().filter(|c| !TONES.contains(c)).nfc().collect();
    let onset = ONSETS.iter().find(|o| bare.starts_with(**o)).copied().unwrap_or("");
    let rhyme = &bare[onset.len()..];
    let listed = |r: &str| RHYMES.binary_search(&r).is_ok();
    let shaped = match onset {
        "qu" => !rhyme.is_empty() && (listed(&format!("u{rhyme}")) || (rhyme.starts_with(['a', 'ă', 'e']) && listed(&format!("o{rhyme}")))),
        "gi" => rhyme.is_empty() || listed(rhyme) || listed(&format!("i{rhyme}")),
        _ => listed(rhyme),
    };
    let front = rhyme.starts_with(['i', 'e', 'ê', 'y']);
    let spelled = match onset {
        "k" | "gh" | "ngh" => front,
        "c" | "g" | "ng" => !rhyme.starts_with(['e', 'ê', 'i']),
        _ => true,
    };
    let stopped = ["p", "t", "c", "ch"].iter().any(|c| bare.ends_with(c));
    let toned = !stopped || matches!(tone, Some('\u{301}' | '\u{323}'));
    shaped && spelled && toned
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rhymes_are_in_order_for_the_binary_search() {
        assert!(RHYMES.windows(2).all(|w| w[0] < w[1]), "{:?}", RHYMES.windows(2).find(|w| w[0] >= w[1]));
    }

    #[test]
    fn common_syllables_pass_and_misshapen_ones_fail() {
        for ok in [
            "quốc",
            "gia",
            "giường",
            "khuya",
            "nguyễn",
            "quyển",
            "thuở",
            "xiếc",
            "giặc",
            "gì",
            "giêng",
            "gìn",
            "quên",
            "quắp",
            "kỹ",
            "nghe",
            "ghế",
            "hát",
            "hạt",
            "y",
            "yêu",
            "oán",
            "uống",
            "ương",
            "nghiêng",
            "quý",
            "qua",
            "khuỷu",
            "thuyền",
            "lệnh",
            "chính",
            "mươi",
        ] {
            assert!(is_syllable(ok), "{ok}");
        }
        for bad in [
            "hat", "gế", "cí", "quuyết", "hũu", "sẵắn", "kỉch", "ozon", "web", "jean", "x", "ghá", "nghá", "kan", "phón g", "cưỡì", "mini",
            "đểnn",
        ] {
            assert!(!is_syllable(bad), "{bad}");
        }
    }
}
