//! The built-in dictionary: its counts after normalisation, its spellings, and its graph.

use std::io::Read;

use noitu::{Dictionary, DictionaryError, Stats, normalize};

/// The compiled list as committed, before normalisation.
fn source_entries() -> Vec<String> {
    let gz = include_bytes!("../data/noi-tu.txt.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    text.lines().map(str::to_string).collect()
}

#[test]
fn the_compiled_list_holds_pyvis_entries_as_counted_at_build_time() {
    let entries = source_entries();
    assert_eq!(entries.len(), 25_297);
    let by = |n: usize| entries.iter().filter(|e| e.split(' ').count() == n).count();
    assert_eq!((by(2), by(3), by(4)), (22_632, 1_873, 755));
    assert!(entries.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
}

#[test]
fn the_builtin_dictionary_counts_after_normalisation() {
    let stats = Dictionary::builtin().stats();
    assert_eq!(
        stats,
        Stats {
            words: 24_883,
            by_syllables: [22_323, 1_813, 714, 33],
            syllables: 5_785,
            dead_ends: 1_593,
            out_degree_10: 691,
            links: 24_263
        }
    );
}

#[test]
fn normalisation_only_merges_i_and_y_spellings_of_the_source() {
    // The source writes tones in the modern style throughout: an entry changes only where a lone
    // y after a consonant becomes i.
    let fold = |c: char| match c {
        'y' => 'i',
        'ý' => 'í',
        'ỳ' => 'ì',
        'ỷ' => 'ỉ',
        'ỹ' => 'ĩ',
        'ỵ' => 'ị',
        c => c,
    };
    let mut changed = 0;
    for entry in source_entries() {
        let canonical = normalize(&entry).unwrap();
        if canonical != entry {
            changed += 1;
            for (a, b) in entry.split(' ').zip(canonical.split(' ')) {
                assert!(a == b || a.chars().map(fold).collect::<String>() == b, "{entry} → {canonical}");
            }
        }
    }
    assert_eq!(changed, 465);
}

#[test]
fn every_word_is_its_own_normal_form_and_found_by_its_other_spellings() {
    let dict = Dictionary::builtin();
    for w in dict.words() {
        let text = dict.text(w);
        assert_eq!(normalize(text).as_deref(), Ok(text));
        assert_eq!(dict.lookup(text), Some(w));
    }
    for (typed, found) in [("bác sỹ", "bác sĩ"), ("hòa bình", "hoà bình"), ("công ty", "công ti"), ("thủy thủ", "thuỷ thủ")]
    {
        assert_eq!(normalize(typed).ok().and_then(|t| dict.lookup(&t)).map(|w| dict.text(w)), Some(found), "{typed}");
    }
}

#[test]
fn a_syllable_with_more_than_one_tone_mark_finds_no_word() {
    let dict = Dictionary::builtin();
    for (typed, real) in [("mắ́t bão", "mắt bão"), ("hòà bình", "hoà bình"), ("ho\u{300}\u{300}a bình", "hoà bình")] {
        assert!(dict.lookup(real).is_some(), "{real}");
        assert_eq!(normalize(typed).ok().and_then(|t| dict.lookup(&t)), None, "{typed}");
    }
}

#[test]
fn the_graph_joins_each_word_from_its_first_syllable_to_its_last() {
    let dict = Dictionary::builtin();
    let luat = dict.syllable_id("luật").unwrap();
    let from: Vec<&str> = dict.words_from(luat).map(|w| dict.text(w)).collect();
    assert!(from.contains(&"luật sư"), "{from:?}");
    assert!(from.iter().all(|w| w.starts_with("luật ")));
    assert_eq!(dict.out_degree(luat), from.len());
    let mut total = 0;
    for s in dict.syllables() {
        assert_eq!(dict.syllable_id(dict.syllable(s)), Some(s));
        for l in dict.links_from(s) {
            let link = dict.link(l);
            assert_eq!(link.from, s);
            for w in link.words() {
                assert_eq!((dict.first(w), dict.last(w), dict.link_of(w)), (s, link.to, l));
                total += 1;
            }
        }
    }
    assert_eq!(total, dict.len());
}

#[test]
fn a_list_with_an_unspellable_or_one_syllable_entry_is_refused() {
    assert!(matches!(Dictionary::from_words(["hoà bình", "x1 y"]), Err(DictionaryError::Spelling { line: 2, .. })));
    assert_eq!(Dictionary::from_words(["hoà"]).unwrap_err(), DictionaryError::OneSyllable { line: 1, entry: "hoà".into() });
}
