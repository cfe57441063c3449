//! Spelling: a player's input meets the dictionary's form whatever the Unicode form, the tone
//! placement, the i/y variant, the case and the spaces.

use noitu::spelling::{MAX_INPUT_BYTES, SpellingError, normalize, syllable_count};
use unicode_normalization::UnicodeNormalization;

fn n(s: &str) -> String {
    normalize(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

#[test]
fn decomposed_and_precomposed_input_read_the_same() {
    let nfc = "tiếng việt";
    let nfd: String = nfc.nfd().collect();
    assert_ne!(nfc, nfd);
    assert_eq!(n(&nfd), nfc);
    // Marks in any order: the tone before the circumflex.
    assert_eq!(n("tie\u{301}\u{302}ng vie\u{323}\u{302}t"), nfc);
    // The output is NFC.
    let out = n("nguye\u{302}\u{303}n");
    assert_eq!(out, out.nfc().collect::<String>());
    assert_eq!(out, "nguyễn");
}

#[test]
fn old_and_new_tone_placement_are_one_word() {
    for (old, new) in [
        ("hòa bình", "hoà bình"),
        ("thủy thủ", "thuỷ thủ"),
        ("khỏe mạnh", "khoẻ mạnh"),
        ("hóa học", "hoá học"),
        ("lòe loẹt", "loè loẹt"),
        ("ủy ban", "uỷ ban"),
        ("tùy ý", "tuỳ ý"),
    ] {
        assert_eq!(n(old), new, "{old}");
        assert_eq!(n(new), new, "{new}");
    }
    // A closed syllable keeps the tone on its last vowel in both styles.
    assert_eq!(n("hoàn toàn"), "hoàn toàn");
    assert_eq!(n("hòan tòan"), "hoàn toàn");
}

#[test]
fn a_lone_i_or_y_after_a_consonant_is_written_i() {
    for (typed, canonical) in [
        ("bác sỹ", "bác sĩ"),
        ("bác sĩ", "bác sĩ"),
        ("kỹ thuật", "kĩ thuật"),
        ("lý do", "lí do"),
        ("công ty", "công ti"),
        ("hy vọng", "hi vọng"),
        ("quý báu", "quí báu"),
        ("kỳ lạ", "kì lạ"),
        ("nước mỹ", "nước mĩ"),
    ] {
        assert_eq!(n(typed), canonical, "{typed}");
    }
    // A y that begins a syllable or belongs to a longer rhyme stays.
    for kept in ["y tá", "ý kiến", "yêu thương", "tuy nhiên", "quyển sách", "huỳnh quang", "khuya khoắt", "máy bay", "thuỷ tinh"]
    {
        assert_eq!(n(kept), kept);
    }
}

#[test]
fn case_and_spaces_are_folded() {
    assert_eq!(n("HÀ NỘI"), "hà nội");
    assert_eq!(n("Đường Phố"), "đường phố");
    assert_eq!(n("ĐƯỜNG"), "đường");
    assert_eq!(n("  hoà   bình \t"), "hoà bình");
    assert_eq!(n("hoà\u{a0}bình\u{3000}"), "hoà bình");
    assert_eq!(n("\nhoà\r\nbình\n"), "hoà bình");
    assert_eq!(syllable_count("  hoà   bình \t"), 2);
    assert_eq!(syllable_count(""), 0);
}

#[test]
fn anything_but_vietnamese_letters_is_refused() {
    assert_eq!(normalize(""), Err(SpellingError::Empty));
    assert_eq!(normalize("   "), Err(SpellingError::Empty));
    assert_eq!(normalize("hoà bình!"), Err(SpellingError::NotALetter('!')));
    assert_eq!(normalize("hoà 2 bình"), Err(SpellingError::NotALetter('2')));
    assert_eq!(normalize("hoà\u{0}bình"), Err(SpellingError::NotALetter('\u{0}')));
    assert_eq!(normalize("hoà\u{1b}bình"), Err(SpellingError::NotALetter('\u{1b}')));
    assert_eq!(normalize("hoà\u{200b}bình"), Err(SpellingError::NotALetter('\u{200b}')));
    assert_eq!(normalize("hoà бình"), Err(SpellingError::NotALetter('б')));
    assert_eq!(normalize("和平 bình"), Err(SpellingError::NotALetter('和')));
    assert_eq!(normalize("ñandu"), Err(SpellingError::MisplacedMark('\u{303}')));
    assert!(matches!(normalize("ha\u{301}\u{300}"), Err(SpellingError::BadTone(_))));
    let long = "a ".repeat(MAX_INPUT_BYTES);
    assert_eq!(normalize(&long), Err(SpellingError::TooLong(long.len())));
    assert_eq!(normalize(&"á".repeat(5_000)), Err(SpellingError::TooLong(10_000)));
}

#[test]
fn latin_words_without_marks_are_letters_but_spell_as_typed() {
    assert_eq!(n("Trang WEB"), "trang web");
    assert_eq!(n("hello world"), "hello world");
}

#[test]
fn normalising_twice_changes_nothing() {
    for w in ["hòa bình", "bác sỹ", "  QUÝ  báu ", "thủy", "người", "khuỷu tay", "nghiêng ngả"] {
        let once = n(w);
        assert_eq!(n(&once), once);
    }
}
