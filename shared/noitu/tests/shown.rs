//! Spelling as people write it, on the built-in dictionary: every accepted spelling of a word is
//! still accepted; a player's word is recorded and shown as typed (tidied), a word the game
//! chooses in the usual spelling; refusals quote what was typed; the key is unchanged.

use noitu::robot::{Level, Nodes, Opponent, seeded, strategy};
use noitu::{ChainAction, ChainRejection, ChainRobotView, ChainSetup, Dictionary, Seat, Timestamp, WordChain, replay};

const NOW: Timestamp = Timestamp(0);

fn opening(word: &str) -> WordChain<'static> {
    WordChain::new(&ChainSetup { opening: Some(word.into()), ..ChainSetup::new(1) }, Dictionary::builtin()).unwrap()
}

#[test]
fn every_spelling_of_a_word_is_accepted_and_recorded_as_typed() {
    // (opening, a spelling typed, its key, what is shown)
    for (open, typed, key, shown) in [
        ("cao quý", "quý báu", "quí báu", "quý báu"),
        ("cao quý", "quí báu", "quí báu", "quí báu"),
        ("cao quý", "QUÝ  BÁU", "quí báu", "quý báu"),
        ("cao quý", "qu\u{79}\u{301} ba\u{301}u", "quí báu", "quý báu"),
        ("hiền hòa", "hòa bình", "hoà bình", "hòa bình"),
        ("hiền hòa", "hoà bình", "hoà bình", "hoà bình"),
        ("hiền hòa", "ho\u{300}a\tbi\u{300}nh", "hoà bình", "hòa bình"),
        ("ca kỹ", "kỹ thuật", "kĩ thuật", "kỹ thuật"),
        ("ca kỹ", "kĩ thuật", "kĩ thuật", "kĩ thuật"),
        ("chân lý", "lý do", "lí do", "lý do"),
        ("chân lý", "lí do", "lí do", "lí do"),
    ] {
        let mut g = opening(open);
        let entry = g.submit(Seat(0), typed, NOW).unwrap_or_else(|r| panic!("{typed:?}: {r}")).clone();
        assert_eq!(entry.action, ChainAction::Word { word: key.into(), spelled: Some(shown.into()) }, "{typed:?}");
        assert_eq!(entry.shown_word(), Some(shown));
        // The chain goes on from the syllable as the player wrote it.
        assert_eq!(g.current_shown(), shown.rsplit(' ').next().unwrap());
        // Replay reads the key, keeps the spelling.
        let replayed = replay(g.setup(), g.journal(), Dictionary::builtin()).unwrap();
        assert_eq!(replayed, g);
    }
}

#[test]
fn a_refusal_quotes_what_the_player_typed() {
    let mut g = opening("cao quý");
    assert_eq!(g.check(Seat(0), "Hòa  Bình", NOW).unwrap_err(), ChainRejection::WrongLink { expected: "quý".into(), found: "hòa".into() });
    g.submit(Seat(0), "quý báu", NOW).unwrap();
    g.submit(Seat(1), "báu vật", NOW).unwrap();
    g.submit(Seat(0), "vật lý", NOW).unwrap();
    // The syllable required is shown as the last word wrote it, the word found as typed.
    assert_eq!(g.check(Seat(1), "quí báu", NOW).unwrap_err(), ChainRejection::WrongLink { expected: "lý".into(), found: "quí".into() });
    assert_eq!(g.check(Seat(1), "lý do", NOW).map(|c| c.spelled().map(str::to_string)), Ok(Some("lý do".into())));
    g.submit(Seat(1), "lí do", NOW).unwrap();
    assert_eq!(g.current_shown(), "do");
    assert_eq!(g.journal()[3].shown_word(), Some("lí do"));

    // Played already in another spelling: quoted as typed now.
    let dict = Dictionary::from_words(["đá quý", "quý báu", "báu quý", "quý giá"]).unwrap();
    let mut h = WordChain::new(&ChainSetup { opening: Some("đá quí".into()), ..ChainSetup::new(1) }, &dict).unwrap();
    h.submit(Seat(0), "quý báu", NOW).unwrap();
    h.submit(Seat(1), "báu quý", NOW).unwrap();
    assert_eq!(h.check(Seat(0), "QUÍ  BÁU", NOW).unwrap_err(), ChainRejection::AlreadyUsed { word: "quí báu".into() });
}

#[test]
fn robots_words_and_the_opening_are_shown_in_the_usual_spelling() {
    let dict = Dictionary::builtin();
    // Over many positions, each robot's word as shown is a spelling of the word, and it is the
    // dictionary's display spelling: never "quí", "kĩ", "lí" or "hoà".
    for seed in 0..40u64 {
        let mut g = WordChain::new(&ChainSetup::new(seed), dict).unwrap();
        assert!(dict.display(g.opening()).ends_with(g.current_shown()));
        for ply in 0..6 {
            if g.is_over() {
                break;
            }
            let level = [Level::Easy, Level::Medium, Level::Hard][(seed as usize + ply) % 3];
            let d = strategy(level).decide(&ChainRobotView::against(&g, Opponent::Robot), &mut seeded(seed), &mut Nodes(2_000)).unwrap();
            let shown = dict.display(d.word).to_string();
            let seat = g.to_move();
            let entry = g.submit(seat, &shown, NOW).unwrap().clone();
            assert_eq!(entry.shown_word(), Some(shown.as_str()));
            for bad in ["quí", "kĩ", "lí", "mĩ", "hoà", "thuỷ", "khoẻ"] {
                assert!(!shown.split(' ').any(|s| s == bad), "{shown}");
            }
        }
    }
}
