//! The store against a real PostgreSQL: games, seats, the journal, locking and constraints.

use engine::{Game, Seat, TileMove, Timestamp};
use games::Variant;
use store::testing::database;
use store::{Conflict, DrawRow, GameStatus, GameUpdate, KnownGame, Level, Limits, NewGame, NewMove, SpentToken, Store, StoreError};
use uuid::Uuid;

fn update(move_count: u32) -> GameUpdate {
    GameUpdate {
        move_count,
        status: GameStatus::Active,
        turn_deadline: None,
        started_at: None,
        finished_at: None,
        end_reason: None,
        winners: None,
        to_move: Some(0),
        scores: vec![],
    }
}

async fn new_game(store: &Store, human: Uuid) -> Uuid {
    let id = Uuid::new_v4();
    store
        .create_game(&NewGame {
            game_id: id,
            variant: Variant::SCRABBLE_EN,
            seed: u64::MAX - 3,
            no_repeat_words: Some(false),
            setup: r#"{"variant":"scrabble-en","seats":2,"seed":1}"#.into(),
            status: GameStatus::Active,
            time_control: Default::default(),
            turn_deadline: None,
            started_at: None,
            seats: vec![Some(human), Some(store::robot_account(Level::Hard))],
            draws: vec![
                DrawRow { round: 1, pick_no: 1, account_id: Some(human), letter: Some("E".into()), is_blank: false, rank: 4 },
                DrawRow {
                    round: 1,
                    pick_no: 2,
                    account_id: Some(store::robot_account(Level::Hard)),
                    letter: Some("?".into()),
                    is_blank: true,
                    rank: -1,
                },
            ],
            limits: None,
            created_at: chrono::Utc::now(),
            rematch_of: None,
            invited: vec![],
            invited_by: None,
            rated: false,
            rating_range: None,
            tournament_id: None,
            draw_deadline: None,
            hints_allowed: None,
        })
        .await
        .unwrap()
        .finish(&[], &update(0))
        .await
        .unwrap();
    id
}

fn row(entry: &engine::JournalEntry) -> NewMove {
    NewMove {
        move_no: entry.move_no,
        seat: entry.seat.0,
        kind: games::tile::entry_of(entry).kind(),
        score: entry.score,
        entry: serde_json::to_string(entry).unwrap(),
        client_move_id: None,
        request_hash: None,
        response: None,
        played_at: chrono::Utc::now(),
    }
}

/// The journal entries of two passes, seat 0 then seat 1, in a new English game.
fn two_passes() -> [engine::JournalEntry; 2] {
    let mut game = Game::new(engine::TileVariant::ScrabbleEn, 2, 1).unwrap();
    let graph = engine::builtin_graph(engine::TileVariant::ScrabbleEn);
    let first = game.play(graph, Seat(0), &TileMove::Pass, Timestamp(0)).unwrap().clone();
    let second = game.play(graph, Seat(1), &TileMove::Pass, Timestamp(0)).unwrap().clone();
    [first, second]
}

#[tokio::test]
async fn a_game_round_trips_with_its_seats_and_journal() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Ann").await.unwrap();
    let id = new_game(&store, me.account_id).await;
    let record = store.game(id).await.unwrap();
    assert_eq!(record.seed, u64::MAX - 3, "seeds use all 64 bits");
    assert_eq!(record.players[1].account.as_ref().unwrap().robot_level, Some(Level::Hard));
    assert_eq!(record.draws.len(), 2);
    assert_eq!((record.draws[1].letter.as_deref(), record.draws[1].is_blank, record.draws[1].rank), (Some("?"), true, -1));
    assert_eq!(record.draws[0].account_id, Some(me.account_id));

    let mut game = Game::new(engine::TileVariant::ScrabbleEn, 2, record.seed).unwrap();
    let entry = game.play(engine::builtin_graph(engine::TileVariant::ScrabbleEn), Seat(0), &TileMove::Pass, Timestamp(0)).unwrap().clone();
    let tx = store.lock_game(id, None).await.unwrap();
    let cmid = Uuid::new_v4();
    let keyed = NewMove { client_move_id: Some(cmid), request_hash: Some([7; 32]), response: Some("{\"a\":1}".into()), ..row(&entry) };
    tx.finish(&[keyed], &update(1)).await.unwrap();

    let record = store.game(id).await.unwrap();
    assert_eq!(serde_json::from_str::<Vec<engine::JournalEntry>>(&record.journal).unwrap(), vec![entry]);
    assert_eq!(record.move_count, 1);
    let found = store.lock_game(id, Some(cmid)).await.unwrap().client_move.unwrap();
    assert_eq!((found.move_no, found.seat, found.request_hash, found.response), (0, 0, Some(vec![7; 32]), Some("{\"a\":1}".into())));
    assert_eq!(store.lock_game(id, Some(Uuid::new_v4())).await.unwrap().client_move, None);
}

#[tokio::test]
async fn a_move_number_cannot_be_written_twice_and_a_failed_or_dropped_transaction_writes_nothing() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Bob").await.unwrap();
    let id = new_game(&store, me.account_id).await;
    let mut game = Game::new(engine::TileVariant::ScrabbleEn, 2, 1).unwrap();
    let entry = game.play(engine::builtin_graph(engine::TileVariant::ScrabbleEn), Seat(0), &TileMove::Pass, Timestamp(0)).unwrap().clone();
    {
        let _tx = store.lock_game(id, None).await.unwrap();
    }
    assert_eq!(store.game(id).await.unwrap().journal, "[]");
    let tx = store.lock_game(id, None).await.unwrap();
    let twice = [row(&entry), row(&entry)];
    assert!(matches!(tx.finish(&twice, &update(2)).await, Err(StoreError::Conflict(_))));
    let record = store.game(id).await.unwrap();
    assert!(record.journal == "[]" && record.move_count == 0, "a failed write leaves nothing");
    store.lock_game(id, None).await.unwrap().finish(&[row(&entry)], &update(1)).await.unwrap();
    let again = store.lock_game(id, None).await.unwrap().finish(&[row(&entry)], &update(1)).await;
    assert!(matches!(again, Err(StoreError::Conflict(_))));
}

#[tokio::test]
async fn sql_checks_refuse_impossible_rows() {
    let store = Store::new(database().await);
    let pool = store.pool();
    let bad = [
        "INSERT INTO accounts (account_id, display_name, kind) VALUES (gen_random_uuid(), 'x', 'robot')",
        "INSERT INTO accounts (account_id, display_name, kind) VALUES (gen_random_uuid(), '', 'human')",
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status) VALUES (gen_random_uuid(), 'chess', 1, 2, false, 'active')",
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status) VALUES (gen_random_uuid(), 'erudit', 1, 5, true, 'active')",
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status) VALUES (gen_random_uuid(), 'erudit', 1, 2, true, 'finished')",
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status) VALUES (gen_random_uuid(), 'erudit', 1, 2, NULL, 'active')",
        "INSERT INTO games (game_id, variant, seed, seats, status) VALUES (gen_random_uuid(), 'noi-tu', 1, 2, 'active')",
        "INSERT INTO games (game_id, variant, seed, seats, status, setup) VALUES (gen_random_uuid(), 'noi-tu', 1, 9, 'active', '{}')",
        "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, setup) VALUES (gen_random_uuid(), 'noi-tu', 1, 2, false, 'active', '{}')",
    ];
    let chain =
        "INSERT INTO games (game_id, variant, seed, seats, status, setup) VALUES (gen_random_uuid(), 'noi-tu', 1, 2, 'active', '{}')";
    sqlx::query(chain).execute(pool).await.expect("a chain game: two seats, its setup, no tile columns");
    let group = chain.replace("1, 2, 'active'", "1, 8, 'active'");
    sqlx::query(&group).execute(pool).await.expect("a group chain: up to eight seats");
    for sql in bad {
        assert!(sqlx::query(sql).execute(pool).await.is_err(), "{sql}");
    }
    let me = store.ensure_human(Uuid::new_v4(), "Cy").await.unwrap();
    let id = new_game(&store, me.account_id).await;
    let play_with_no_score =
        format!("INSERT INTO game_moves (game_id, move_no, seat, kind, score, entry) VALUES ('{id}', 0, 0, 'pass', 5, '{{}}'::jsonb)");
    assert!(sqlx::query(&play_with_no_score).execute(pool).await.is_err());
    let word =
        format!("INSERT INTO game_moves (game_id, move_no, seat, kind, score, entry) VALUES ('{id}', 0, 0, 'word', 12, '{{}}'::json)");
    sqlx::query(&word).execute(pool).await.expect("a word scores");
    assert!(matches!(
        store.ensure_human(store::robot_account(Level::Easy), "impostor").await,
        Err(StoreError::Conflict(Conflict::RobotIdentity))
    ));
    assert!(matches!(store.game(Uuid::new_v4()).await, Err(StoreError::NotFound)));
    let every: Vec<i64> = store::MIGRATOR.iter().map(|m| m.version).collect();
    assert_eq!(every[..9], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(store.applied_migrations().await.unwrap(), every);
    store.migrate().await.unwrap();
    assert_eq!(store.applied_migrations().await.unwrap(), every, "migrating again changes nothing");
}

/// The variants table names exactly the shipped variants, each with its family and seats, and
/// a game of a variant it does not name is refused until its row is added.
#[tokio::test]
async fn the_variants_table_is_the_vocabulary_s_and_a_game_needs_its_variant_s_row() {
    let store = Store::new(database().await);
    let pool = store.pool();
    let rows: Vec<(String, String, i16, i16)> =
        sqlx::query_as("SELECT variant, family, min_seats, max_seats FROM variants ORDER BY variant").fetch_all(pool).await.unwrap();
    let mut shipped: Vec<(String, String, i16, i16)> = Variant::SHIPPED
        .iter()
        .map(|v| (v.id().to_string(), v.family().id().to_string(), *v.seats().start() as i16, *v.seats().end() as i16))
        .collect();
    shipped.sort();
    assert_eq!(rows, shipped);
    let toy = "INSERT INTO games (game_id, variant, seed, seats, status, setup) VALUES (gen_random_uuid(), 'toy', 1, 2, 'active', '{}')";
    assert!(sqlx::query(toy).execute(pool).await.is_err(), "no row, no game");
    let family = games::Family::new("toy", "toy", games::Clocks::TurnTimer, false);
    store::testing::add_variant(pool, Variant::new("toy", family, 2, 2)).await;
    sqlx::query(toy).execute(pool).await.expect("a game of a variant with a row, without the tile columns");
}

/// A pooled connection the server closed while it sat idle: past the ping threshold it is
/// pinged, found dead and replaced, and the query succeeds; below it, it is handed out unpinged
/// and the query fails (the round trip saved on every busy request).
#[tokio::test]
async fn an_idle_connection_closed_by_the_server_is_replaced_once_past_the_ping_threshold() {
    use std::time::Duration;
    let base = database().await;
    let opts = (*base.connect_options()).clone();
    let backend = "SELECT pg_backend_pid()";
    for (ping_after, survives) in [(Duration::ZERO, true), (Duration::from_secs(3600), false)] {
        let pool = store::pool_options(1, ping_after).connect_with(opts.clone()).await.unwrap();
        let pid: i32 = sqlx::query_scalar(backend).fetch_one(&pool).await.unwrap();
        // sqlx returns a connection to the pool in the background (after a ping of its own).
        for _ in 0..500 {
            if pool.num_idle() == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(pool.num_idle(), 1);
        let killed: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1, 5000)").bind(pid).fetch_one(&base).await.unwrap();
        assert!(killed);
        let after = sqlx::query_scalar::<_, i32>(backend).fetch_one(&pool).await;
        match survives {
            true => assert_ne!(after.expect("replaced, not failed"), pid),
            false => assert!(after.is_err(), "an unpinged dead connection fails its query"),
        }
    }
}

fn open_game(human: Uuid, limit: u32) -> NewGame {
    NewGame {
        game_id: Uuid::new_v4(),
        variant: Variant::ERUDIT,
        seed: 1,
        no_repeat_words: Some(true),
        setup: r#"{"variant":"erudit","seats":2,"seed":1,"no_repeat_words":true}"#.into(),
        status: GameStatus::Open,
        time_control: Default::default(),
        turn_deadline: None,
        started_at: None,
        seats: vec![Some(human), None],
        draws: vec![],
        limits: Some(Limits { account: human, unfinished: 100, open: Some(limit), invitations: None }),
        created_at: chrono::Utc::now(),
        rematch_of: None,
        invited: vec![],
        invited_by: None,
        rated: false,
        rating_range: None,
        tournament_id: None,
        draw_deadline: None,
        hints_allowed: None,
    }
}

fn open_update() -> GameUpdate {
    GameUpdate {
        move_count: 0,
        status: GameStatus::Open,
        turn_deadline: None,
        started_at: None,
        finished_at: None,
        end_reason: None,
        winners: None,
        to_move: Some(0),
        scores: vec![],
    }
}

/// A new game's transaction stays open until it is finished: dropped, it leaves no row.
#[tokio::test]
async fn a_new_game_not_finished_writes_nothing() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Di").await.unwrap();
    let new = open_game(me.account_id, 3);
    let tx = store.create_game(&new).await.unwrap();
    assert_eq!(tx.game.players.len(), 2);
    drop(tx);
    assert!(matches!(store.game(new.game_id).await, Err(StoreError::NotFound)));
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(store.pool()).await.unwrap();
    assert_eq!(games, 0);
}

/// An account may hold `limit` open games of a variant, even when it opens them all at once;
/// a withdrawn one no longer counts, and a withdrawn game cannot be withdrawn again.
#[tokio::test]
async fn open_games_are_capped_per_account_even_under_a_race_and_withdrawal_frees_a_place() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Ed").await.unwrap();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let store = store.clone();
        let new = open_game(me.account_id, 3);
        tasks.spawn(async move {
            match store.create_game(&new).await {
                Ok(tx) => tx.finish(&[], &open_update()).await.map(|_| new.game_id),
                Err(e) => Err(e),
            }
        });
    }
    let results = tasks.join_all().await;
    let opened: Vec<Uuid> = results.iter().filter_map(|r| r.as_ref().ok().copied()).collect();
    assert_eq!(opened.len(), 3, "{results:?}");
    assert!(results.iter().filter_map(|r| r.as_ref().err()).all(|e| matches!(e, StoreError::TooManyOpenGames { limit: 3 })));

    store.lock_game(opened[0], None).await.unwrap().withdraw().await.unwrap();
    assert_eq!(store.game(opened[0]).await.unwrap().status, GameStatus::Withdrawn);
    assert!(matches!(store.lock_game(opened[0], None).await.unwrap().withdraw().await, Err(StoreError::Conflict(_))));
    let again = open_game(me.account_id, 3);
    store.create_game(&again).await.unwrap().finish(&[], &open_update()).await.unwrap();
}

/// The durable private server (what `wordgame serve` runs) flushes every commit before it
/// acknowledges it; the tests' throwaway servers do not.
#[tokio::test]
async fn a_durable_private_server_flushes_each_commit_and_a_throwaway_one_does_not() {
    use store::local::{LocalPostgres, StartOptions};
    for (options, expect) in [(StartOptions { throwaway: true, ..StartOptions::DURABLE }, "on"), (StartOptions::THROWAWAY, "off")] {
        let dir = std::env::temp_dir().join(format!("wordgame-pg-durable-{}-{expect}", std::process::id()));
        let pg = LocalPostgres::start_with(&dir, options).unwrap();
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&pg.url("postgres")).await.unwrap();
        for setting in ["fsync", "synchronous_commit"] {
            let value: String = sqlx::query_scalar(&format!("SHOW {setting}")).fetch_one(&mut conn).await.unwrap();
            assert_eq!(value, expect, "{setting} with {options:?}");
        }
        drop(conn);
        pg.stop();
    }
}

#[tokio::test]
async fn a_connection_names_its_account_until_it_expires_or_closes() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Ann").await.unwrap();
    let now = chrono::Utc::now();
    store.open_connection("c1", me.account_id, now + chrono::Duration::hours(2), now, 10).await.unwrap();
    assert_eq!(store.connection_account("c1", now).await.unwrap(), Some(me.account_id));
    assert_eq!(store.connection_account("c1", now + chrono::Duration::hours(2)).await.unwrap(), None, "expired");
    assert_eq!(store.connection_account("other", now).await.unwrap(), None);
    store.close_connection("c1").await.unwrap();
    assert_eq!(store.connection_account("c1", now).await.unwrap(), None, "closed");
}

#[tokio::test]
async fn a_move_read_without_a_lock_is_written_only_while_the_game_is_as_read() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Cy").await.unwrap();
    let id = new_game(&store, me.account_id).await;
    let [first, second] = two_passes();

    // Two requests read the same game; the first to write wins, the other writes nothing.
    let a = store.read_game_for_move(id, None, None).await.unwrap();
    let b = store.read_game_for_move(id, None, None).await.unwrap();
    a.finish(&[row(&first)], &update(1)).await.unwrap();
    let lost = b.finish(&[NewMove { client_move_id: Some(Uuid::new_v4()), ..row(&first) }], &update(1)).await;
    assert!(matches!(&lost, Err(StoreError::Conflict(Conflict::Changed))), "{lost:?}");
    let record = store.game(id).await.unwrap();
    assert_eq!(serde_json::from_str::<Vec<engine::JournalEntry>>(&record.journal).unwrap(), vec![first.clone()]);

    // A locked writer that commits while an unlocked read waits: the read's write fails, even
    // though the move number it writes is free.
    let stale = store.read_game_for_move(id, None, None).await.unwrap();
    let locked = store.lock_game(id, None).await.unwrap();
    let write = row(&second);
    let racing = tokio::spawn(async move { stale.finish(&[write], &update(2)).await });
    // Waits until the server shows the write blocked on the lock (no fixed sleep).
    let mut waiting = 0i64;
    for _ in 0..3000 {
        waiting =
            sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")
                .fetch_one(store.pool())
                .await
                .unwrap();
        if waiting > 0 || racing.is_finished() {
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(waiting, 1, "the unlocked write waits on the lock");
    assert!(!racing.is_finished(), "the unlocked write waits for the lock");
    locked.finish(&[], &GameUpdate { status: GameStatus::Active, ..update(1) }).await.unwrap();
    assert!(matches!(racing.await.unwrap(), Err(StoreError::Conflict(Conflict::Changed))));
    assert_eq!(store.game(id).await.unwrap().move_count, 1);

    // Read again, it writes.
    let fresh = store.read_game_for_move(id, None, None).await.unwrap();
    fresh.finish(&[row(&second)], &update(2)).await.unwrap();
    assert_eq!(store.game(id).await.unwrap().move_count, 2);

    // A change that needs the lock takes it, and is refused if the game changed since it was
    // read (here: a seat taken), else made.
    let open = open_game(me.account_id, 3);
    store.create_game(&open).await.unwrap().finish(&[], &open_update()).await.unwrap();
    let old = store.read_game_for_move(open.game_id, None, None).await.unwrap();
    let mut joined = store.lock_game(open.game_id, None).await.unwrap();
    joined.fill_open_seat(&store.account(store::robot_account(Level::Easy)).await.unwrap()).await.unwrap();
    joined.finish(&[], &GameUpdate { status: GameStatus::Active, ..open_update() }).await.unwrap();
    assert!(matches!(old.withdraw().await, Err(StoreError::Conflict(Conflict::Changed))));
    assert_eq!(store.game(open.game_id).await.unwrap().status, GameStatus::Active);
    let other = open_game(me.account_id, 3);
    store.create_game(&other).await.unwrap().finish(&[], &open_update()).await.unwrap();
    store.read_game_for_move(other.game_id, None, None).await.unwrap().withdraw().await.unwrap();
    assert_eq!(store.game(other.game_id).await.unwrap().status, GameStatus::Withdrawn);
}

#[tokio::test]
async fn a_read_at_a_known_version_takes_the_journal_and_draw_from_it_and_a_change_reads_them_anew() {
    let store = Store::new(database().await);
    let me = store.ensure_human(Uuid::new_v4(), "Di").await.unwrap();
    let id = new_game(&store, me.account_id).await;
    let [first, second] = two_passes();

    // What a write returns is what a read of the game then gives.
    let written = store.read_game_for_move(id, None, None).await.unwrap().finish(&[row(&first)], &update(1)).await.unwrap();
    let read = store.game(id).await.unwrap();
    assert_eq!(written, KnownGame::of(&read));
    assert_eq!(serde_json::from_str::<Vec<engine::JournalEntry>>(&written.journal).unwrap(), vec![first.clone()]);

    // Unchanged: the journal and draw come from what the caller knows (here marked, so that
    // it shows), the rest from the database.
    let marked = KnownGame { journal: "[\"kept\"]".into(), draws: vec![], ..written.clone() };
    let kept = store.game_since(id, Some(&marked)).await.unwrap();
    assert_eq!((kept.journal.as_str(), kept.draws.len(), kept.move_count), ("[\"kept\"]", 0, 1));
    assert_eq!(kept.players, read.players);
    let tx = store.read_game_for_move(id, None, Some(&marked)).await.unwrap();
    assert_eq!(tx.game.journal, "[\"kept\"]");
    drop(tx);
    assert_eq!(store.lock_game_since(id, None, Some(&marked)).await.unwrap().game.journal, "[\"kept\"]");

    // Changed since: read in full, whatever the caller knew.
    let again = store.lock_game(id, None).await.unwrap().finish(&[row(&second)], &update(2)).await.unwrap();
    assert_ne!(again.version, written.version);
    let fresh = store.game_since(id, Some(&marked)).await.unwrap();
    assert_eq!(KnownGame::of(&fresh), again);
    assert_eq!(serde_json::from_str::<Vec<engine::JournalEntry>>(&fresh.journal).unwrap(), vec![first, second]);
    assert_eq!(fresh.draws, read.draws);
}

#[tokio::test]
async fn spent_admin_tokens_are_kept_until_they_expire_then_cleaned() {
    let store = Store::new(database().await);
    let t0 = chrono::Utc::now();
    let second = chrono::Duration::seconds(1);
    assert!(store.spend_admin_token(SpentToken::SigninCode, "a", t0 + second, t0).await.unwrap());
    assert!(!store.spend_admin_token(SpentToken::SigninCode, "a", t0 + second, t0).await.unwrap(), "spent once");
    assert!(store.spend_admin_token(SpentToken::Session, "a", t0 + second * 10, t0).await.unwrap(), "kinds apart");
    assert!(store.admin_token_spent(SpentToken::SigninCode, "a", t0).await.unwrap());
    assert!(!store.admin_token_spent(SpentToken::SigninCode, "a", t0 + second).await.unwrap(), "expired");
    assert!(!store.admin_token_spent(SpentToken::Session, "b", t0).await.unwrap(), "never spent");
    // The next row deletes the expired ones.
    assert!(store.spend_admin_token(SpentToken::Session, "b", t0 + second * 10, t0 + second * 2).await.unwrap());
    let kept: Vec<(String, String)> =
        sqlx::query_as("SELECT kind, token_id FROM spent_admin_tokens ORDER BY kind, token_id").fetch_all(store.pool()).await.unwrap();
    assert_eq!(kept, [("session".to_string(), "a".to_string()), ("session".to_string(), "b".to_string())]);
}
