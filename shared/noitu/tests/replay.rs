//! Replay: a game rebuilt from its setup and journal equals the live game, whatever was played
//! (words, refused input, timeouts, resignations), and the journal reads back from JSON.

use noitu::{ChainJournalEntry, ChainReplayError, ChainSetup, Dictionary, Seat, Timestamp, WordChain, replay};
use proptest::prelude::*;

/// One step of a scripted game.
#[derive(Debug, Clone)]
enum Step {
    /// The `n`-th legal word (modulo their number), typed in upper case or with the old tones.
    Word(usize, bool),
    /// Input that is refused.
    Junk(&'static str),
    /// The other seat tries a legal word.
    OutOfTurn(usize),
    /// A deadline is set and then claimed.
    Timeout,
    /// A seat resigns.
    Resign(u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        20 => (any::<usize>(), any::<bool>()).prop_map(|(n, upper)| Step::Word(n, upper)),
        2 => prop::sample::select(vec!["", "một", "xyz abc", "luật\u{0}sư", "hòa bình!"]).prop_map(Step::Junk),
        2 => any::<usize>().prop_map(Step::OutOfTurn),
        1 => Just(Step::Timeout),
        1 => (0u8..2).prop_map(Step::Resign),
    ]
}

/// Plays `steps` live from `seed`.
fn live<'d>(dict: &'d Dictionary, seed: u64, steps: &[Step]) -> WordChain<'d> {
    let mut game = WordChain::new(&ChainSetup::new(seed), dict).unwrap();
    for s in steps {
        if game.is_over() {
            break;
        }
        let legal: Vec<_> = game.legal_moves().collect();
        let seat = game.to_move();
        match s {
            Step::Word(n, upper) => {
                let text = dict.text(legal[n % legal.len()]);
                let typed = if *upper { text.to_uppercase() } else { text.replace("oà", "òa").replace("uỷ", "ủy") };
                game.submit(seat, &typed, Timestamp(0)).unwrap_or_else(|r| panic!("{typed}: {r}"));
            }
            Step::Junk(raw) => assert!(game.submit(seat, raw, Timestamp(0)).is_err()),
            Step::OutOfTurn(n) => assert!(game.submit(seat.other(), dict.text(legal[n % legal.len()]), Timestamp(0)).is_err()),
            Step::Timeout => {
                game.set_deadline(Some(Timestamp(10)));
                let checked = game.check_timeout(Timestamp(10)).unwrap();
                game.apply(checked);
            }
            Step::Resign(s) => {
                let checked = game.check_resign(Seat(*s)).unwrap();
                game.apply(checked);
            }
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn replay_equals_live_play(seed in any::<u64>(), steps in prop::collection::vec(step(), 0..40)) {
        let dict = Dictionary::builtin();
        let game = live(dict, seed, &steps);
        let replayed = replay(game.setup(), game.journal(), dict).unwrap();
        prop_assert_eq!(&replayed, &game);
        // From JSON too, with the setup as stored.
        let json = serde_json::to_string(game.journal()).unwrap();
        let read: Vec<ChainJournalEntry> = serde_json::from_str(&json).unwrap();
        let setup: ChainSetup = serde_json::from_str(&serde_json::to_string(game.setup()).unwrap()).unwrap();
        prop_assert_eq!(replay(&setup, &read, dict).unwrap(), game.clone());
        // The setup without its opening draws the same one from the seed.
        let unpinned = ChainSetup { opening: None, ..game.setup().clone() };
        prop_assert_eq!(replay(&unpinned, game.journal(), dict).unwrap(), game);
    }
}

#[test]
fn an_entry_is_written_flat_with_its_kind() {
    let dict = Dictionary::builtin();
    let mut game = WordChain::new(&ChainSetup { opening: Some("pháp luật".into()), ..ChainSetup::new(1) }, dict).unwrap();
    game.submit(Seat(0), "luật sư", Timestamp(0)).unwrap();
    let checked = game.check_resign(Seat(0)).unwrap();
    game.apply(checked);
    let json = serde_json::to_string(game.journal()).unwrap();
    assert_eq!(
        json,
        r#"[{"move_no":0,"seat":0,"kind":"word","word":"luật sư","spelled":"luật sư","score":12},{"move_no":1,"seat":0,"kind":"resign","score":0}]"#
    );
}

#[test]
fn a_journal_that_does_not_fit_its_setup_is_refused() {
    let dict = Dictionary::builtin();
    let setup = ChainSetup { opening: Some("pháp luật".into()), ..ChainSetup::new(1) };
    let entry = |move_no, seat, kind: &str| -> ChainJournalEntry {
        serde_json::from_str(&format!(r#"{{"move_no":{move_no},"seat":{seat},{kind}}}"#)).unwrap()
    };
    let word = entry(0, 0, r#""kind":"word","word":"luật sư","score":12"#);
    assert!(replay(&setup, std::slice::from_ref(&word), dict).is_ok());
    assert_eq!(
        replay(&setup, &[entry(1, 0, r#""kind":"word","word":"luật sư","score":12"#)], dict).unwrap_err(),
        ChainReplayError::OutOfOrder { expected: 0, found: 1 }
    );
    assert!(matches!(
        replay(&setup, &[entry(0, 1, r#""kind":"word","word":"luật sư","score":12"#)], dict),
        Err(ChainReplayError::Refused { move_no: 0, .. })
    ));
    assert_eq!(
        replay(&setup, &[entry(0, 0, r#""kind":"word","word":"luật sư","score":99"#)], dict).unwrap_err(),
        ChainReplayError::Score { move_no: 0, recorded: 99, computed: 12 }
    );
    assert!(matches!(
        replay(&setup, &[word.clone(), entry(1, 0, r#""kind":"timeout","score":0"#)], dict),
        Err(ChainReplayError::Refused { move_no: 1, .. })
    ));
    assert!(matches!(replay(&ChainSetup { seats: 9, ..setup }, &[], dict), Err(ChainReplayError::ChainSetup(_))));
}
