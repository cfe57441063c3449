//! The shipped word lists have the counts their recipes promise (scripts/build-wordlists.py).

use engine::lexicon::{Lexicon, embedded_text, encode};
use engine::{TileVariant, WordList};

#[test]
fn the_shipped_lists_have_the_expected_counts() {
    for (variant, count) in [(TileVariant::ScrabbleEn, 168_548), (TileVariant::ScrabbleRu, 59_055), (TileVariant::Erudit, 59_048)] {
        let list = WordList::builtin(variant).unwrap();
        assert_eq!(list.len(), count, "{variant}");
        assert_eq!(embedded_text(variant).unwrap().lines().count(), count, "{variant}");
    }
    let ru = embedded_text(TileVariant::ScrabbleRu).unwrap();
    assert_eq!(ru.lines().filter(|w| w.contains('ё')).count(), 1_823);
    assert!(!embedded_text(TileVariant::Erudit).unwrap().contains('ё'));
}

#[test]
fn lookups_use_the_variant_alphabet() {
    let en = WordList::builtin(TileVariant::ScrabbleEn).unwrap();
    let rules = TileVariant::ScrabbleEn.rules();
    assert!(en.contains(&encode(rules, "QAT").unwrap()));
    assert!(!en.contains(&encode(rules, "QI").unwrap()), "ENABLE predates QI");
    assert!(en.contains(&encode(rules, "zymurgy").unwrap()));
    assert!(!en.contains(&encode(rules, "QIX").unwrap()));
    let er = WordList::builtin(TileVariant::Erudit).unwrap();
    let rules = TileVariant::Erudit.rules();
    assert!(er.contains(&encode(rules, "ёлка").unwrap()), "ё is played as е in Эрудит");
    assert!(er.contains(&encode(rules, "КОТ").unwrap()));
    let ru = WordList::builtin(TileVariant::ScrabbleRu).unwrap();
    assert!(ru.contains(&encode(TileVariant::ScrabbleRu.rules(), "ёлка").unwrap()));
    assert!(!ru.contains(&encode(TileVariant::ScrabbleRu.rules(), "елка").unwrap()));
}

#[test]
fn a_custom_list_with_a_foreign_letter_is_refused() {
    let err = WordList::parse(TileVariant::ScrabbleEn.rules(), "cat\nкот\n").unwrap_err();
    assert!(matches!(err, engine::LexiconError::UnknownLetter { line: 2, .. }), "{err}");
    assert!(WordList::parse(TileVariant::ScrabbleEn.rules(), "a\n").is_err());
}
