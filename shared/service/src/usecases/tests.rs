//! The use cases on memory ([`MemoryStore`]): a move, a rated end and an invitation, each run
//! through the service as a request would, with no database. The service's own store is a pool
//! that can never connect: a use case that reached past the ports would fail here.

use std::sync::Arc;
use std::time::Duration;

use chrono::DateTime;
use games::{Families, Lexicons, Move, Variant};
use store::{Account, AccountKind, GameStatus, Spectating, Store};
use uuid::Uuid;

use super::*;
use crate::ports::MemoryStore;
use crate::{ManualClock, Runtime, TableOpponent};

/// A service over `memory`, its clock at a fixed time, its entropy from one seed.
fn service(memory: &MemoryStore) -> Service {
    let nowhere = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(50))
        .connect_lazy("postgres://nobody@127.0.0.1:9/nowhere")
        .expect("a lazy pool");
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let families = Families::new(Arc::new(Lexicons::builtin()));
    Service::new(Store::new(nowhere), families, Runtime::seeded(clock, 11)).with_memory_store(memory.clone())
}

fn english() -> Variant {
    "scrabble-en".parse().unwrap()
}

fn player(memory: &MemoryStore, n: u128, name: &str) -> Caller {
    let id = Uuid::from_u128(n);
    memory.add_account(Account {
        account_id: id,
        display_name: name.into(),
        kind: AccountKind::Human,
        robot_level: None,
        created_at: DateTime::UNIX_EPOCH,
        spectating: Spectating::Standard,
    });
    Caller::new(id, [name]).unwrap()
}

fn game_against(opponent: TableOpponent, rated: bool) -> CreateGame {
    CreateGame {
        variant: english(),
        opponents: vec![opponent],
        time_control: None,
        turn_seconds: None,
        challenge_rule: None,
        rated,
        hints: None,
    }
}

fn pass(expected_move_no: u32, key: Option<u128>) -> SubmitMove {
    SubmitMove { expected_move_no, client_move_id: key.map(Uuid::from_u128), mv: Move::Pass }
}

#[tokio::test]
async fn a_move_and_the_robots_reply_are_written_and_a_retry_gets_the_first_answer() {
    let memory = MemoryStore::new();
    let service = service(&memory);
    let ann = player(&memory, 1, "Ann");

    let view = service.create_game(&ann, &game_against(TableOpponent::Robot(store::Level::Easy), false)).await.unwrap();
    let id = view.game_id;
    let before = view.move_count;
    assert_eq!(memory.moves(id).len() as u32, before, "a robot that won the draw moved in the creation");

    let made = match service.submit_move(&ann, id, &pass(before, Some(7))).await.unwrap() {
        Submitted::Made(outcome) => outcome,
        Submitted::Replayed(_) => panic!("a first submit is made"),
    };
    assert_eq!(made.moves.len(), 2, "the pass and the robot's reply");
    let rows = memory.moves(id);
    assert_eq!(rows.len() as u32, before + 2);
    let record = memory.record(id).unwrap();
    assert_eq!((record.move_count, record.status), (before + 2, GameStatus::Active));
    let answer = serde_json::to_string(&made).unwrap();
    assert_eq!(rows[before as usize].response.as_deref(), Some(answer.as_str()), "the answer kept with the keyed move is the one given");

    match service.submit_move(&ann, id, &pass(before, Some(7))).await.unwrap() {
        Submitted::Replayed(first) => assert_eq!(first.get(), answer),
        Submitted::Made(_) => panic!("a retry made a second move"),
    }
    assert_eq!(memory.moves(id).len() as u32, before + 2, "the retry wrote nothing");
    let stale = service.submit_move(&ann, id, &pass(before, None)).await.unwrap_err();
    assert!(matches!(stale, ServiceError::StaleMove { .. }), "{stale:?}");
}

#[tokio::test]
async fn an_invitation_waits_for_its_invitee_and_starts_when_accepted() {
    let memory = MemoryStore::new();
    let service = service(&memory);
    let (ann, bob) = (player(&memory, 1, "Ann"), player(&memory, 2, "Bob"));

    let view = service.create_game(&ann, &game_against(TableOpponent::Account(bob.account_id()), false)).await.unwrap();
    let id = view.game_id;
    assert_eq!(view.status, GameStatus::Open);
    let record = memory.record(id).unwrap();
    assert_eq!((record.started_at, record.turn_deadline), (None, None), "no clock runs before the invitee accepts");
    let refused = service.submit_move(&ann, id, &pass(0, None)).await.unwrap_err();
    assert!(matches!(refused, ServiceError::AwaitingAcceptance), "{refused:?}");
    let refused = service.withdraw_game(&bob, id).await.unwrap_err();
    assert!(matches!(refused, ServiceError::NotInviter), "{refused:?}");

    let accepted = service.join_game(&bob, id).await.unwrap();
    assert_eq!(accepted.status, GameStatus::Active);
    let record = memory.record(id).unwrap();
    assert!(record.players.iter().all(|p| !p.invited), "{:?}", record.players);
    assert!(record.started_at.is_some(), "the game, and its clock, start with the acceptance");
    let declined = service.decline(&bob, id).await.unwrap_err();
    assert!(matches!(declined, ServiceError::NotInvited), "{declined:?}");
}

#[tokio::test]
async fn a_declined_invitation_is_withdrawn_with_no_result() {
    let memory = MemoryStore::new();
    let service = service(&memory);
    let (ann, bob) = (player(&memory, 1, "Ann"), player(&memory, 2, "Bob"));
    let id = service.create_game(&ann, &game_against(TableOpponent::Account(bob.account_id()), true)).await.unwrap().game_id;

    let view = service.decline(&bob, id).await.unwrap();

    assert_eq!(view.status, GameStatus::Withdrawn);
    let record = memory.record(id).unwrap();
    assert_eq!((record.status, record.end_reason, record.move_count), (GameStatus::Withdrawn, None, 0));
    assert!(memory.rating_changes().is_empty());
    let late = service.join_game(&bob, id).await.unwrap_err();
    assert!(matches!(late, ServiceError::NotOpen), "{late:?}");
}

#[tokio::test]
async fn a_rated_end_writes_both_ratings_with_its_moves_and_answers_with_them() {
    let memory = MemoryStore::new();
    let service = service(&memory);
    let (ann, bob) = (player(&memory, 1, "Ann"), player(&memory, 2, "Bob"));
    let id = service.create_game(&ann, &game_against(TableOpponent::Account(bob.account_id()), true)).await.unwrap().game_id;
    service.join_game(&bob, id).await.unwrap();
    // Two passes each: a resignation after them is rated (not an abort).
    for n in 0..4 {
        let record = memory.record(id).unwrap();
        let to_move = if record.players[0].account.as_ref().unwrap().account_id == ann.account_id() { [&ann, &bob] } else { [&bob, &ann] };
        service.submit_move(to_move[n % 2], id, &pass(n as u32, None)).await.unwrap();
    }
    let record = memory.record(id).unwrap();
    let loser_seat = 0;
    let loser = if record.players[loser_seat].account.as_ref().unwrap().account_id == ann.account_id() { &ann } else { &bob };
    let winner = if std::ptr::eq(loser, &ann) { &bob } else { &ann };

    let resign = SubmitMove { expected_move_no: 4, client_move_id: Some(Uuid::from_u128(9)), mv: Move::Resign };
    let Submitted::Made(made) = service.submit_move(loser, id, &resign).await.unwrap() else { panic!("a first submit is made") };

    let record = memory.record(id).unwrap();
    assert_eq!((record.status, record.end_reason), (GameStatus::Finished, Some(EndReason::Resigned)));
    let speed = record.time_control.speed();
    let (lost, won) = (
        memory.rating(loser.account_id(), english(), speed).expect("the loser's rating"),
        memory.rating(winner.account_id(), english(), speed).expect("the winner's rating"),
    );
    assert_eq!((lost.games, won.games), (1, 1));
    assert!(lost.rating < won.rating, "{lost:?} {won:?}");
    assert_eq!(memory.rating_changes().len(), 2);
    let shown = made.game.ratings.as_ref().expect("the end's answer shows the ratings");
    let change = |seat: usize| shown.seats.iter().find(|s| s.seat == seat).and_then(|s| s.change).unwrap();
    assert!(change(loser_seat) < 0 && change(1 - loser_seat) > 0, "{shown:?}");
    let kept = memory.moves(id).into_iter().find(|m| m.client_move_id == resign.client_move_id).unwrap();
    assert_eq!(kept.response.as_deref(), Some(serde_json::to_string(&made).unwrap().as_str()), "the answer kept is the answer given");
    // The same end read again rates nothing twice.
    let again = service.resign(winner, id).await.unwrap_err();
    assert!(matches!(again, ServiceError::Rejected(_)), "{again:?}");
    assert_eq!(memory.rating_changes().len(), 2);
}

#[tokio::test]
async fn a_tournament_round_is_paired_started_drawn_played_and_scored() {
    let memory = MemoryStore::new();
    let service = service(&memory);
    let director = player(&memory, 9, "Dee").directing(true);
    let (ann, bob) = (player(&memory, 1, "Ann"), player(&memory, 2, "Bob"));
    let create = crate::CreateTournament {
        name: "Club night".into(),
        variant: english(),
        time_control: None,
        challenge_rule: None,
        rated: false,
        pairing: crate::PairingSystem::Swiss,
        king_of_the_hill: false,
        rounds: 2,
        draw_seconds: None,
        spectator_delay: None,
    };
    let id = service.create_tournament(&director, &create).await.unwrap().tournament_id;
    // Ann enters by herself; Bob is invited by the director and accepts.
    service.enter_tournament(&ann, id, None).await.unwrap();
    service.register_player(&director, id, bob.account_id()).await.unwrap();
    let refused = service.pair_round(&ann, id).await.unwrap_err();
    assert!(matches!(refused, ServiceError::NotDirector), "{refused:?}");
    service.enter_tournament(&bob, id, None).await.unwrap();

    let paired = service.pair_round(&director, id).await.unwrap();
    assert_eq!((paired.round, paired.round_started, paired.players.len()), (1, false, 2));
    let started = service.start_round(&director, id, 1).await.unwrap();
    let game = started.pairings.iter().flat_map(|r| &r.tables).find_map(|t| t.game_id).expect("the round's game");
    assert_eq!(memory.record(game).unwrap().status, GameStatus::Drawing, "its players draw for who moves first");
    let early = service.pair_round(&director, id).await.unwrap_err();
    assert!(matches!(early, ServiceError::TournamentState(_)), "round 2 before round 1 has results: {early:?}");

    // Each player draws a tile in turn until one leads.
    for _ in 0..20 {
        if memory.record(game).unwrap().status != GameStatus::Drawing {
            break;
        }
        for p in [&ann, &bob] {
            let _ = service.draw_tile(p, game, &crate::DrawTile { client_draw_id: None, player: None }).await;
        }
    }
    let record = memory.record(game).unwrap();
    assert_eq!(record.status, GameStatus::Active, "the draw ended: {:?}", record.draws);
    let seated = |seat: usize| record.players[seat].account.as_ref().unwrap().account_id;
    let (first, second) = if seated(0) == ann.account_id() { (&ann, &bob) } else { (&bob, &ann) };
    for n in 0..4 {
        service.submit_move([first, second][n % 2], game, &pass(n as u32, None)).await.unwrap();
    }
    service.resign(first, game).await.unwrap();

    let scored = service.tournament(&director, id).await.unwrap();
    let standing = |c: &Caller| scored.standings.iter().find(|s| s.account_id == c.account_id()).unwrap();
    assert_eq!((standing(second).wins, standing(second).losses, standing(second).rank), (1, 0, 1), "{:?}", scored.standings);
    assert_eq!((standing(first).wins, standing(first).losses), (0, 1));
    let next = service.pair_round(&director, id).await.unwrap();
    assert_eq!(next.round, 2, "round 1 has its result: round 2 is paired");
}
