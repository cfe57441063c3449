//! Chain games written before the everyday word list and the recorded spellings (the fixture was
//! written by the engine of commit abc7233: setups without `word_list`, entries without
//! `spelled`) load and replay identically: the same entries, end, winner, scores and syllable.
//! Most of them ended on a syllable that begins no word of pyvi's list but does begin words of
//! the everyday list, so they replay as finished only on the list they pin.

use games::{Budget, EndReason, Families, Level, Opponent, Position, Seat, Stored, Variant};
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Old {
    seed: u64,
    setup: String,
    journal: String,
    end: Option<End>,
    scores: Vec<i32>,
    syllable: String,
}

#[derive(serde::Deserialize)]
struct End {
    reason: String,
    loser: u8,
}

#[test]
fn chain_games_stored_before_the_everyday_list_replay_identically() {
    let families = Families::new(Arc::new(engine::Lexicons::builtin()));
    let old: Vec<Old> = serde_json::from_str(include_str!("fixtures/noi-tu-pyvi-games.json")).unwrap();
    assert_eq!(old.len(), 60);
    let (mut finished, mut live_on_everyday) = (0, 0);
    let everyday = noitu::Dictionary::builtin();
    for g in &old {
        let stored =
            Stored { variant: Variant::NOI_TU, seats: 2, seed: g.seed, no_repeat_words: None, setup: Some(&g.setup), journal: &g.journal };
        let game = families.replay(&stored).unwrap_or_else(|e| panic!("game {}: {e}", g.seed));
        let journal = format!("[{}]", game.entries().iter().map(games::Entry::to_json).collect::<Vec<_>>().join(","));
        assert_eq!(journal, g.journal, "game {}: the entries as written", g.seed);
        assert_eq!(game.scores(), g.scores, "game {}", g.seed);
        let outcome = game.outcome();
        match &g.end {
            Some(end) => {
                let outcome = outcome.unwrap_or_else(|| panic!("game {} is over", g.seed));
                assert_eq!(outcome.reason, EndReason::parse(&end.reason).unwrap(), "game {}", g.seed);
                assert_eq!((outcome.seat, outcome.winners.clone()), (Some(Seat(end.loser)), vec![Seat(1 - end.loser)]));
                finished += 1;
                if end.reason == "no_legal_move" && everyday.syllable_id(&g.syllable).is_some_and(|s| everyday.out_degree(s) > 0) {
                    live_on_everyday += 1;
                }
            }
            None => {
                assert!(outcome.is_none(), "game {} goes on", g.seed);
                // It goes on on its own list: a robot's word and the hints come from it.
                let mv = game.robot(Level::Hard, 1, Budget::Counted { rounds: 1, nodes: 2_000 }, Opponent::Person).unwrap().unwrap();
                assert!(game.check(game.next_seat().unwrap(), &mv.mv, games::Timestamp(0)).is_ok());
                assert!(!game.hints(game.next_seat().unwrap(), 3, Budget::Counted { rounds: 1, nodes: 2_000 }).unwrap().is_empty());
            }
        }
        let view = game.view(None);
        assert_eq!(view.json()["syllable"].as_str(), Some(g.syllable.as_str()), "game {}", g.seed);
        // Words played before spellings were recorded are shown as the journal keeps them.
        let words: Vec<String> = serde_json::from_str::<Vec<serde_json::Value>>(&g.journal)
            .unwrap()
            .iter()
            .filter_map(|e| e["word"].as_str().map(str::to_string))
            .collect();
        let chain: Vec<String> = view.json()["chain"].as_array().unwrap().iter().map(|l| l["word"].as_str().unwrap().to_string()).collect();
        assert_eq!(chain, words);
        assert!(game.timeline().is_ok());
    }
    assert_eq!(finished, 56);
    assert!(live_on_everyday >= 30, "{live_on_everyday} games ended on a syllable the everyday list continues");
}
