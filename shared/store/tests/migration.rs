//! Migration 0006 (game families) over rows the code before it wrote: every tile game written
//! then, loaded after the migration, replays to the same game with the same journal; and that
//! code can still write its rows after it (the migration only expands).

use std::sync::Arc;

use engine::robot::{Level, LevelRobot, Robot, RobotView, Rounds, seeded};
use engine::{Game, JournalEntry, TileVariant, Timestamp};
use games::{Families, Position};
use sqlx::PgPool;
use store::testing::{database_at, migrate_past};
use store::{GameStatus, Store};
use uuid::Uuid;

/// A robot-against-robot game of `variant` played to its end (or `limit` moves).
fn self_play(variant: TileVariant, seed: u64, limit: usize) -> Game {
    let graph = engine::builtin_graph(variant);
    let mut game = Game::new(variant, 2, seed).unwrap();
    let mut rng = seeded(seed);
    while !game.is_over() && game.journal().len() < limit {
        let level = if game.to_move().0 == 0 { Level::Medium } else { Level::Easy };
        let decision = LevelRobot::new(level, &game, graph).decide(&RobotView::new(&game), &mut rng, &mut Rounds(1));
        game.play(graph, game.to_move(), &decision.mv, Timestamp(0)).unwrap();
    }
    game
}

/// Writes `game` as the code before migration 0006 did: the row, the seats, a draw, and every
/// journal row with its tiles and words columns.
async fn write_as_before(pool: &PgPool, id: Uuid, game: &Game, seats: [Uuid; 2]) {
    let setup = game.setup();
    let (status, end_reason) = match game.end() {
        Some(end) => (
            "finished",
            Some(match end.reason {
                engine::TileEndReason::WentOut { .. } => "went_out",
                engine::TileEndReason::ScorelessTurns => "scoreless_turns",
                engine::TileEndReason::Resigned { .. } => "resigned",
                engine::TileEndReason::OutOfTime { .. } => "timeout",
            }),
        ),
        None => ("active", None),
    };
    sqlx::query(
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, move_count, end_reason, finished_at)
         VALUES ($1, $2, $3, 2, $4, $5, $6, $7, CASE WHEN $5 = 'finished' THEN now() END)",
    )
    .bind(id)
    .bind(setup.variant.id())
    .bind(setup.seed as i64)
    .bind(setup.no_repeat_words)
    .bind(status)
    .bind(game.move_count() as i32)
    .bind(end_reason)
    .execute(pool)
    .await
    .unwrap();
    for (seat, account) in seats.iter().enumerate() {
        sqlx::query("INSERT INTO game_players (game_id, seat, account_id) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(seat as i16)
            .bind(account)
            .execute(pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO game_setup_draws (game_id, round, pick_no, account_id, letter, rank) VALUES ($1, 1, $2, $3, $4, $5)")
            .bind(id)
            .bind(seat as i16 + 1)
            .bind(account)
            .bind(["A", "E"][seat])
            .bind([0i16, 4][seat])
            .execute(pool)
            .await
            .unwrap();
    }
    for e in game.journal() {
        let (tiles, words) = match &e.action {
            engine::Action::Play { tiles, words, .. } => (serde_json::to_value(tiles).unwrap(), serde_json::to_value(words).unwrap()),
            engine::Action::Exchange { tiles } => (serde_json::to_value(tiles).unwrap(), serde_json::json!([])),
            _ => (serde_json::json!([]), serde_json::json!([])),
        };
        sqlx::query(
            "INSERT INTO game_moves (game_id, move_no, seat, kind, tiles, words, score, entry) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json)",
        )
        .bind(id)
        .bind(e.move_no as i32)
        .bind(i16::from(e.seat.0))
        .bind(e.action.kind())
        .bind(tiles)
        .bind(words)
        .bind(e.score)
        .bind(serde_json::to_string(e).unwrap())
        .execute(pool)
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn games_written_before_the_families_replay_identically_after_the_migration() {
    let pool = database_at(5).await;
    let ann = Uuid::new_v4();
    sqlx::query("INSERT INTO accounts (account_id, display_name, kind) VALUES ($1, 'Ann', 'human')")
        .bind(ann)
        .execute(&pool)
        .await
        .unwrap();
    let robot = store::robot_account(Level::Hard);
    let written = [
        (Uuid::new_v4(), self_play(TileVariant::ScrabbleEn, 11, usize::MAX)),
        (Uuid::new_v4(), self_play(TileVariant::Erudit, 12, usize::MAX)),
        (Uuid::new_v4(), self_play(TileVariant::ScrabbleRu, 13, 9)),
    ];
    for (id, game) in &written {
        write_as_before(&pool, *id, game, [ann, robot]).await;
    }
    migrate_past(&pool, 5).await;
    // The previous release's code still serves while the migration runs: what it writes stays
    // valid.
    let late = (Uuid::new_v4(), self_play(TileVariant::Erudit, 14, 12));
    write_as_before(&pool, late.0, &late.1, [ann, robot]).await;
    let written: Vec<(Uuid, Game)> = written.into_iter().chain([late]).collect();

    let store = Store::new(pool);
    let families = Families::new(Arc::new(engine::Lexicons::builtin()));
    for (id, before) in &written {
        let record = store.game(*id).await.unwrap();
        assert_eq!(record.setup, None, "a tile game from before 0006 is set up from its columns");
        assert_eq!(record.status, if before.is_over() { GameStatus::Finished } else { GameStatus::Active });
        let after = families
            .replay(&games::Stored {
                variant: record.variant,
                seats: record.seats,
                seed: record.seed,
                no_repeat_words: record.no_repeat_words,
                setup: record.setup.as_deref(),
                journal: &record.journal,
            })
            .unwrap();
        assert_eq!(after.state().get::<Game>(), before, "the same game, state for state");
        let entries: Vec<JournalEntry> = after.entries().into_iter().map(|e| serde_json::from_str(&e.to_json()).unwrap()).collect();
        assert_eq!(entries, before.journal());
        assert_eq!(after.scores(), before.scores());
        assert_eq!(record.end_reason, after.outcome().map(|o| o.reason));
        assert_eq!(record.draws[0].letter.as_deref(), Some("A"));
    }
}
