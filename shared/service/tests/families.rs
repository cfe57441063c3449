//! Every family through the service and the store, the same test for each: Scrabble, Nối từ and
//! a toy third family written in the tests (`shared/games/tests/families/toy.rs`), which the
//! service and store know only through the contract and a row in the variants table. A human
//! plays a robot to the end against a real PostgreSQL; the game is rebuilt from its journal by a
//! service that never saw it, and its history, replay page and analysis are read.

#[path = "../../games/tests/families/toy.rs"]
mod toy;

use std::sync::Arc;

use games::{Families, Level, Move, Variant};
use serde_json::Value;
use service::{Caller, CreateGame, ErrorCode, GameStatus, Service, ServiceError, SubmitMove, Submitted, TableOpponent};
use store::Store;
use uuid::Uuid;

/// The families a service plays in these tests: the shipped two and the toy.
fn families() -> Families {
    Families::new(Arc::new(games::Lexicons::builtin())).with(Arc::new(toy::ToyRules), &[toy::TOY]).unwrap()
}

fn service(store: Store, seed: u64) -> Service {
    Service::new(store, families(), service::Runtime::seeded(Arc::new(service::SystemClock), seed))
}

/// The move a hint describes: a tile play's placements or a chain's (or the toy's) word; a
/// pass (or, in a family without passes, resigning) when there is no hint.
fn move_of(hint: Option<&Value>, variant: Variant) -> Move {
    match hint {
        Some(h) if h.get("placements").is_some() => {
            serde_json::from_value(serde_json::json!({"kind": "play", "placements": h["placements"]})).unwrap()
        }
        Some(h) => Move::Word { word: h["word"].as_str().expect("a word hint").to_string() },
        None if variant == Variant::NOI_TU => Move::Resign,
        None => Move::Pass,
    }
}

/// An untimed, casual game of `variant` against the easy robot, with the most hints a game
/// allows.
fn against_the_easy_robot(variant: Variant) -> CreateGame {
    CreateGame {
        variant,
        opponents: vec![TableOpponent::Robot(Level::Easy)],
        time_control: None,
        turn_seconds: None,
        challenge_rule: None,
        rated: false,
        hints: Some(service::MAX_HINTS_ALLOWED as i32),
    }
}

/// A move of the kinds another family has.
fn foreign(variant: Variant) -> Move {
    if variant.family() == games::Family::TILE { Move::Word { word: "học sinh".into() } } else { Move::Exchange { tiles: Vec::new() } }
}

/// One whole game of `variant` between a human and the easy robot, the human following the
/// first hint for at most `human_moves` moves (or until its hints run out) and then resigning.
async fn a_whole_game(variant: Variant, seed: u64, human_moves: usize) {
    eprintln!("{variant}: seed {seed}");
    let pool = store::testing::database().await;
    store::testing::add_variant(&pool, toy::TOY).await;
    let store = Store::new(pool);
    let svc = service(store.clone(), seed);
    let me = Caller::new(Uuid::from_u128(u128::from(seed) + 1), ["Ann"]).unwrap();
    let created = svc.create_game(&me, &against_the_easy_robot(variant)).await.unwrap();
    assert_eq!((created.variant, created.family, created.status), (variant, variant.family(), GameStatus::Active));
    let game_id = created.game_id;
    let seat = created.your_seat.expect("the creator sits");
    let mut made = 0;
    let mut first = true;
    loop {
        let view = svc.get_game(&me, game_id).await.unwrap();
        if view.status != GameStatus::Active {
            break;
        }
        assert_eq!(view.to_move, Some(seat), "the robot answers in the same request");
        let before = store.game(game_id).await.unwrap().journal;
        let refused = svc
            .submit_move(&me, game_id, &SubmitMove { expected_move_no: view.move_count, client_move_id: None, mv: foreign(variant) })
            .await;
        assert!(matches!(refused, Err(ref e) if e.code() == Some(ErrorCode::WrongFamily)), "{refused:?}");
        assert_eq!(store.game(game_id).await.unwrap().journal, before, "a refused move changes nothing");
        let mv = if made == human_moves {
            Move::Resign
        } else {
            match svc.hint(&me, game_id, 1).await {
                Ok(hinted) => move_of(hinted.hints.first().map(|h| h.json()), variant),
                Err(e) if e.code() == Some(ErrorCode::NoHintsLeft) => Move::Resign,
                Err(e) => panic!("{e}"),
            }
        };
        let submit =
            SubmitMove { expected_move_no: view.move_count, client_move_id: Some(Uuid::from_u128(u128::from(view.move_count) + 7)), mv };
        let answer = match svc.submit_move(&me, game_id, &submit).await.unwrap() {
            Submitted::Made(outcome) => serde_json::to_string(&outcome).unwrap(),
            Submitted::Replayed(raw) => panic!("a first submission is made, not replayed: {raw}"),
        };
        if first {
            match svc.submit_move(&me, game_id, &submit).await.unwrap() {
                Submitted::Replayed(raw) => assert_eq!(raw.get(), answer, "a retry gets the first answer"),
                Submitted::Made(_) => panic!("a retry is not made twice"),
            }
            first = false;
        }
        made += 1;
        assert!(made <= human_moves + 1, "{variant}: the game ends by resigning at the latest");
    }

    let view = svc.get_game(&me, game_id).await.unwrap();
    assert_eq!(view.status, GameStatus::Finished);
    let result = view.result.as_ref().expect("a finished game has a result");
    eprintln!("{variant}: {made} moves of the human, {} in all, ended by {:?}", view.move_count, result.reason);
    assert!(!result.winners.is_empty() || result.reason == games::EndReason::ScorelessTurns, "{result:?}");

    // The history is the journal, every entry with its kind; the store holds a row for each.
    let page = svc.moves(&me, game_id, 0).await.unwrap();
    assert_eq!(page.moves.len() as u32, view.move_count);
    let record = store.game(game_id).await.unwrap();
    assert_eq!(record.move_count, view.move_count);
    for (i, m) in page.moves.iter().enumerate() {
        let m = serde_json::to_value(m).unwrap();
        assert_eq!(m["move_no"], i as u64, "{m}");
        assert!(m["kind"].is_string(), "{m}");
    }

    // A service that never saw the game rebuilds it from the setup and journal alone.
    let fresh = service(store.clone(), seed ^ 1);
    let again = fresh.get_game(&me, game_id).await.unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), serde_json::to_value(&view).unwrap());

    // The replay page's data and the analysis: the family's own JSON.
    let replay = fresh.admin_replay(game_id).await.unwrap();
    assert_eq!((replay.variant, replay.seats.len()), (variant, 2));
    assert!(serde_json::to_value(&replay).unwrap().is_object());
    let analysis: Value = serde_json::from_str(fresh.analysis(&me, game_id).await.unwrap().get()).unwrap();
    assert_eq!(analysis["players"].as_array().map(Vec::len), Some(2), "{analysis}");
}

#[tokio::test]
async fn scrabble_plays_through_the_service_and_store() {
    a_whole_game(Variant::SCRABBLE_EN, 11, 6).await;
}

#[tokio::test]
async fn noi_tu_plays_through_the_service_and_store() {
    a_whole_game(Variant::NOI_TU, 12, 40).await;
}

#[tokio::test]
async fn a_third_family_written_in_the_tests_plays_through_the_same_service_and_store() {
    a_whole_game(toy::TOY, 13, 40).await;
}

#[tokio::test]
async fn a_variant_no_family_here_plays_is_refused_and_nothing_is_written() {
    let store = Store::new(store::testing::database().await);
    let svc = Service::new(store.clone(), Families::new(Arc::new(games::Lexicons::builtin())), service::Runtime::system());
    let me = Caller::new(Uuid::from_u128(99), ["Bo"]).unwrap();
    let ghost = Variant::new("ghost", games::Family::new("ghost", "ghost", games::Clocks::TurnTimer, false), 2, 2);
    let err = svc.create_game(&me, &against_the_easy_robot(ghost)).await.unwrap_err();
    assert!(matches!(err, ServiceError::Replay(_)), "{err:?}");
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(store.pool()).await.unwrap();
    assert_eq!(games, 0);
}
