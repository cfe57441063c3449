//! The built-in dictionaries: their counts after normalisation, their spellings, and their graph.

use std::io::Read;

use noitu::{Dictionary, DictionaryError, Stats, WordListEdition, normalize, spelled};

/// A compiled list as committed, before normalisation.
fn entries_of(list: WordListEdition) -> Vec<String> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(list.gzip()).read_to_string(&mut text).unwrap();
    text.lines().map(str::to_string).collect()
}

/// Edition 1 as committed.
fn source_entries() -> Vec<String> {
    entries_of(WordListEdition::Pyvi)
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
fn the_pyvi_dictionary_counts_after_normalisation() {
    let stats = Dictionary::of(WordListEdition::Pyvi).stats();
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
fn the_everyday_list_holds_one_spelling_a_word_as_counted_at_build_time() {
    let entries = entries_of(WordListEdition::Everyday);
    assert_eq!(entries.len(), 59_590);
    let by = |n: usize| entries.iter().filter(|e| e.split(' ').count() == n).count();
    assert_eq!((by(2), by(3), by(4)), (45_706, 5_199, 6_929));
    assert!(entries.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
    // The build script's key is the crate's: no two entries spell one word, and each entry is
    // shown as written.
    let dict = Dictionary::of(WordListEdition::Everyday);
    assert_eq!(dict.len(), entries.len());
    for e in &entries {
        let w = dict.lookup(&normalize(e).unwrap()).unwrap();
        assert_eq!(dict.display(w), e);
        assert_eq!(spelled(e).as_deref(), Ok(e.as_str()), "already tidy");
    }
}

#[test]
fn the_everyday_dictionary_counts_after_normalisation() {
    assert_eq!(
        Dictionary::of(WordListEdition::Everyday).stats(),
        Stats {
            words: 59_590,
            by_syllables: [45_706, 5_199, 6_929, 1_756],
            syllables: 6_883,
            dead_ends: 1_458,
            out_degree_10: 1_598,
            links: 56_430
        }
    );
}

#[test]
fn the_everyday_list_keeps_every_word_of_the_pyvi_list_but_its_latin_spellings() {
    // Lost: the entries with a syllable no Vietnamese syllable is shaped like ("trang web",
    // "acid amin", "ôxy già"); every one has a letter cluster Vietnamese does not write.
    let (old, new) = (Dictionary::of(WordListEdition::Pyvi), Dictionary::of(WordListEdition::Everyday));
    let lost: Vec<&str> = old.words().map(|w| old.text(w)).filter(|t| new.lookup(t).is_none()).collect();
    assert_eq!(lost.len(), 77, "{lost:?}");
    for word in ["trang web", "world cup", "acid amin", "credit card"] {
        assert!(lost.contains(&word), "{word}");
    }
}

#[test]
fn every_everyday_word_has_a_familiarity_and_common_words_are_familiar() {
    let dict = Dictionary::of(WordListEdition::Everyday);
    let mut by = [0usize; 10];
    for w in dict.words() {
        by[usize::from(dict.familiarity(w).unwrap())] += 1;
    }
    assert_eq!(by, [19_152, 13_463, 7_146, 4_877, 3_522, 3_495, 3_541, 3_322, 1_013, 59]);
    assert_eq!(dict.words().filter(|&w| dict.is_familiar(w)).count(), 26_975);
    let of = |word: &str| dict.familiarity(dict.lookup(&normalize(word).unwrap()).unwrap()).unwrap();
    for common in ["hoàn toàn", "sân bay", "sạch sẽ", "gia đình", "hòa bình", "bác sĩ", "trả lời"] {
        assert!(of(common) >= 7, "{common}: {}", of(common));
    }
    for rare in ["kem giặt", "ẵm nách", "xá cày"] {
        assert!(of(rare) < noitu::FAMILIAR, "{rare}: {}", of(rare));
    }
    // The pyvi list has no scores: every word counts as familiar.
    let old = Dictionary::of(WordListEdition::Pyvi);
    assert!(old.words().all(|w| old.familiarity(w).is_none() && old.is_familiar(w)));
}

#[test]
fn edition_3_holds_one_spelling_a_word_with_valid_syllables_as_counted_at_build_time() {
    let entries = entries_of(WordListEdition::Everyday3);
    assert_eq!(entries.len(), 59_529);
    assert!(entries.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
    let dict = Dictionary::builtin();
    assert_eq!(dict.len(), entries.len());
    for e in &entries {
        let w = dict.lookup(&normalize(e).unwrap()).unwrap();
        assert_eq!(dict.display(w), e);
        assert!(e.split(' ').all(noitu::is_syllable), "{e}");
    }
    assert_eq!(
        dict.stats(),
        Stats {
            words: 59_529,
            by_syllables: [45_664, 5_199, 6_912, 1_754],
            syllables: 6_803,
            dead_ends: 1_413,
            out_degree_10: 1_604,
            links: 56_378
        }
    );
    // Edition 2's words with a misshapen syllable are gone, its typos with them.
    let old = Dictionary::of(WordListEdition::Everyday);
    let dropped: Vec<&str> = old.words().map(|w| old.text(w)).filter(|t| t.split(' ').any(|s| !noitu::is_syllable(s))).collect();
    assert!(dropped.len() >= 80, "{}", dropped.len());
    assert!(dropped.iter().all(|t| dict.lookup(t).is_none()), "{dropped:?}");
    for typo in ["tự quuyết", "kính đên"] {
        assert!(old.lookup(&normalize(typo).unwrap()).is_some() && dict.find(&normalize(typo).unwrap()).is_none(), "{typo}");
    }
}

#[test]
fn edition_3_knows_the_words_people_play_and_scores_them_familiar() {
    let (old, dict) = (Dictionary::of(WordListEdition::Everyday), Dictionary::builtin());
    let of = |d: &Dictionary, word: &str| d.lookup(&normalize(word).unwrap()).and_then(|w| d.familiarity(w));
    // Missing from edition 2, or scored 0 or 1 there: everyday words, familiar now.
    for word in [
        "thịt bò",
        "bữa sáng",
        "bữa tối",
        "làng quê",
        "dòng sông",
        "chạy bộ",
        "canh chua",
        "mì tôm",
        "trời mưa",
        "đọc sách",
        "món quà",
        "trận đấu",
        "vẽ tranh",
        "tạo ra",
        "đạt được",
        "đoạt giải",
        "nải chuối",
        "buốt giá",
        "bảy mươi",
        "lát nữa",
        "dưới đây",
        "phiếu bầu",
    ] {
        assert!(of(old, word).is_none_or(|f| f < noitu::FAMILIAR), "{word} was missing or unfamiliar in edition 2");
        assert!(of(dict, word).is_some_and(|f| f >= 4), "{word}: {:?}", of(dict, word));
    }
    // Words few people know, which robots played on edition 2, are not familiar.
    for word in [
        "trùng triềng",
        "lệnh doãn",
        "trì dộn",
        "độ đặm",
        "dạ dịp",
        "bù trội",
        "đãi buôi",
        "ninh ních",
        "rủa ráy",
        "công sảnh",
        "kính coong",
    ] {
        assert!(of(dict, word).is_some_and(|f| f < noitu::FAMILIAR), "{word}: {:?}", of(dict, word));
    }
    // Syllables a speaker goes on from begin familiar words.
    for syllable in ["xiếc", "giâm", "vã", "dịp", "quẻ", "suất", "tấu", "thuở", "đạt", "đọc"] {
        let s = dict.syllable_id(&normalize(syllable).unwrap()).unwrap_or_else(|| panic!("{syllable}"));
        assert!(dict.words_from(s).any(|w| dict.is_familiar(w)), "{syllable}");
    }
    let mut by = [0usize; 10];
    for w in dict.words() {
        by[usize::from(dict.familiarity(w).unwrap())] += 1;
    }
    assert_eq!(by, [8_326, 27_354, 7_140, 1_936, 2_760, 3_362, 3_413, 2_933, 1_222, 1_083]);
}

#[test]
fn a_regional_spelling_is_an_alias_of_the_standard_word_not_a_dead_end() {
    let dict = Dictionary::builtin();
    assert_eq!(dict.alias_count(), 54);
    for (variant, standard) in [("pháp lịnh", "pháp lệnh"), ("chẩn bịnh", "chẩn bệnh"), ("hành chánh", "hành chính"), ("mần ăn", "làm ăn")]
    {
        let (v, s) = (normalize(variant).unwrap(), normalize(standard).unwrap());
        assert_eq!(dict.lookup(&v), None, "{variant} is no word of its own");
        assert_eq!(dict.find(&v), dict.lookup(&s), "{variant} plays {standard}");
    }
    // Played as typed, the chain goes on from the standard syllable; replay reads it back.
    let setup = noitu::ChainSetup { opening: Some("hiến pháp".into()), ..noitu::ChainSetup::new(1) };
    let mut game = noitu::WordChain::new(&setup, dict).unwrap();
    let entry = game.submit(noitu::Seat(0), "Pháp Lịnh", noitu::Timestamp(0)).unwrap().clone();
    assert_eq!(entry.shown_word(), Some("pháp lịnh"));
    assert_eq!((entry.shown_ending(), game.current_shown()), (Some("lệnh"), "lệnh"));
    assert_eq!(dict.syllable(game.current()), "lệnh");
    assert_eq!(noitu::replay(game.setup(), game.journal(), dict).unwrap(), game);
    let lenh = dict.words_from(game.current()).next().unwrap();
    assert!(game.check(noitu::Seat(1), dict.display(lenh), noitu::Timestamp(0)).is_ok());
    let again = noitu::ChainSetup { opening: Some("pháp lệnh".into()), ..noitu::ChainSetup::new(1) };
    let game = noitu::WordChain::new(&again, dict).unwrap();
    assert!(matches!(game.check(noitu::Seat(0), "pháp lịnh", noitu::Timestamp(0)), Err(noitu::ChainRejection::WrongLink { .. })));
}

#[test]
fn aliases_that_are_words_or_name_no_word_are_refused() {
    let dict = || Dictionary::from_words(["pháp lệnh", "pháp luật"]).unwrap();
    assert_eq!(dict().with_aliases([("pháp lịnh", "pháp lệnh")]).unwrap().find("pháp lịnh"), dict().lookup("pháp lệnh"));
    assert!(matches!(dict().with_aliases([("pháp luật", "pháp lệnh")]), Err(DictionaryError::Alias(_))));
    assert!(matches!(dict().with_aliases([("pháp lịnh", "pháp lý")]), Err(DictionaryError::Alias(_))));
    assert!(matches!(dict().with_aliases([("pháp 1", "pháp lệnh")]), Err(DictionaryError::Alias(_))));
}

#[test]
fn familiarity_for_no_word_or_out_of_scale_or_missing_is_refused() {
    let dict = || Dictionary::from_words(["hoà bình", "bình an"]).unwrap();
    let ok = dict().with_familiarity([("hòa bình", 3), ("bình an", 9)]).unwrap();
    assert_eq!(ok.familiarity(ok.lookup("hoà bình").unwrap()), Some(3));
    assert!(!ok.is_familiar(ok.lookup("hoà bình").unwrap()) || noitu::FAMILIAR <= 3);
    assert_eq!(dict().with_familiarity([("hoà bình", 3)]).unwrap_err(), DictionaryError::Familiarity("bình an".into()));
    assert!(matches!(dict().with_familiarity([("hoà bình", 3), ("bình an", 10)]), Err(DictionaryError::Familiarity(_))));
    assert!(matches!(dict().with_familiarity([("an bình", 3)]), Err(DictionaryError::Familiarity(_))));
}

#[test]
fn words_are_shown_as_most_writers_spell_them() {
    let dict = Dictionary::builtin();
    for (key, shown) in [
        ("quí báu", "quý báu"),
        ("qui định", "quy định"),
        ("kĩ thuật", "kỹ thuật"),
        ("lí do", "lý do"),
        ("mĩ thuật", "mỹ thuật"),
        ("hi vọng", "hy vọng"),
        ("thuỷ thủ", "thủy thủ"),
        ("hoà bình", "hòa bình"),
        ("khoẻ mạnh", "khỏe mạnh"),
        ("công ti", "công ty"),
        ("bác sĩ", "bác sĩ"),
        ("tỉ mỉ", "tỉ mỉ"),
    ] {
        let w = dict.lookup(key).unwrap_or_else(|| panic!("{key}"));
        assert_eq!(dict.display(w), shown);
    }
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

#[test]
fn openings_are_drawn_from_familiar_words_with_answers_and_no_instant_win() {
    let everyday = Dictionary::builtin();
    let openings = noitu::setup::eligible_openings(&noitu::Options::default(), everyday);
    assert_eq!(openings.len(), 5_249);
    assert!(openings.iter().all(|&w| everyday.is_familiar(w)));
    let options = noitu::Options { word_list: WordListEdition::Everyday, ..noitu::Options::default() };
    assert_eq!(noitu::setup::eligible_openings(&options, Dictionary::of(WordListEdition::Everyday)).len(), 5_536);
    // pyvi's list without scores: the same 3,357 openings as before familiarity.
    let pyvi = Dictionary::of(WordListEdition::Pyvi);
    let options = noitu::Options { word_list: WordListEdition::Pyvi, ..noitu::Options::default() };
    assert_eq!(noitu::setup::eligible_openings(&options, pyvi).len(), 3_357);
}

#[test]
fn a_game_on_edition_2_keeps_its_list_and_replays_identically() {
    // A setup stored before edition 3 names "everyday": its game plays and replays on edition 2,
    // whose words edition 3 dropped included.
    let mut setup = noitu::ChainSetup::new(11);
    setup.options.word_list = WordListEdition::Everyday;
    let stored = serde_json::to_string(&setup).unwrap();
    assert!(stored.contains(r#""word_list":"everyday""#), "{stored}");
    let setup: noitu::ChainSetup = serde_json::from_str(&stored).unwrap();
    let dict = Dictionary::of(setup.options.word_list);
    let mut game = noitu::WordChain::new(&setup, dict).unwrap();
    let robot = noitu::robot::strategy(noitu::robot::Level::Medium);
    let mut rng = noitu::robot::seeded(11);
    while !game.is_over() && game.chain() < 12 {
        let view = noitu::ChainRobotView::against(&game, noitu::robot::Opponent::Robot);
        let d = robot.decide(&view, &mut rng, &mut noitu::robot::Nodes(1_000)).unwrap();
        game.submit(game.to_move(), dict.display(d.word), noitu::Timestamp(0)).unwrap();
    }
    let journal = serde_json::to_string(game.journal()).unwrap();
    let journal: Vec<noitu::ChainJournalEntry> = serde_json::from_str(&journal).unwrap();
    assert_eq!(noitu::replay(&setup, &journal, Dictionary::of(WordListEdition::Everyday)).unwrap(), game);
    // A word of edition 2 that edition 3 dropped is still a word there.
    let typo = normalize("tự quuyết").unwrap();
    assert!(dict.lookup(&typo).is_some() && Dictionary::builtin().find(&typo).is_none());
    // New games use edition 3.
    assert_eq!(noitu::ChainSetup::new(11).options.word_list, WordListEdition::Everyday3);
}

#[test]
fn the_familiar_counts_of_links_and_syllables_are_the_familiar_words_they_hold() {
    for list in [WordListEdition::Pyvi, WordListEdition::Everyday3] {
        let dict = Dictionary::of(list);
        for l in dict.syllables().flat_map(|s| dict.links_from(s)) {
            assert_eq!(dict.familiar_len(l), dict.link(l).words().filter(|&w| dict.is_familiar(w)).count(), "{list:?}");
        }
        for s in dict.syllables() {
            assert_eq!(dict.familiar_out_degree(s), dict.words_from(s).filter(|&w| dict.is_familiar(w)).count(), "{list:?}");
        }
    }
}
