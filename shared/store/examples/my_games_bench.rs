//! Measures "my games" (`Store::my_games`) over a generated data set: 1,000,000 games (two
//! seats and one journal row each) among 2,001 accounts, 10,000 of them the measured account's
//! (a mix of open, active and finished, half of the active ones its turn), generated in SQL
//! with `generate_series` on a throwaway server. Prints the plans (`EXPLAIN (ANALYZE,
//! BUFFERS)`) and the latency percentiles of each filter, first pages and deep pages.
//!
//! `cargo run -p store --example my_games_bench` (about a minute; not part of `cargo test`).

use std::time::{Duration, Instant};

use store::{GameStatus, MyGamesFilter, Store};
use uuid::Uuid;

const GAMES: i64 = 1_000_000;
const MINE: i64 = 10_000;
const RUNS: usize = 1_000;

/// The generated accounts' ids: `n` in the last group.
const ACCOUNT_SQL: &str = "('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid";

#[tokio::main]
async fn main() {
    let store = Store::new(store::testing::database().await);
    let pool = store.pool();
    let started = Instant::now();
    let account = |n: &str| ACCOUNT_SQL.replace("n)", &format!("{n})"));
    for sql in [
        format!("INSERT INTO accounts (account_id, display_name, kind) SELECT {}, 'player ' || n, 'human' FROM generate_series(0, 2000) n", account("n")),
        // Game i: finished (60 %), active (30 %), open (10 %); the measured account (account 0)
        // sits in games 1..=10000, the others between accounts 1..=2000.
        format!(
            "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, move_count, created_at, updated_at, finished_at, end_reason)
             SELECT md5(i::text)::uuid, 'scrabble-en', i, 2, false, s, 1, t, t,
                    CASE WHEN s = 'finished' THEN t END, CASE WHEN s = 'finished' THEN 'resigned' END
             FROM (SELECT i, now() - ((i::bigint * 7919) % {GAMES}) * interval '1 second' AS t,
                          CASE WHEN i % 10 < 6 THEN 'finished' WHEN i % 10 < 9 THEN 'active' ELSE 'open' END AS s
                   FROM generate_series(1, {GAMES}) i) x"
        ),
        format!(
            "INSERT INTO game_players (game_id, seat, account_id, game_status, last_activity, my_turn, score)
             SELECT g.game_id, k, CASE WHEN k = 0 THEN {} ELSE {} END,
                    g.status, g.updated_at, g.status <> 'finished' AND k = x.i % 2, (x.i * (k + 3)) % 500
             FROM (SELECT i, md5(i::text)::uuid AS id FROM generate_series(1, {GAMES}) i) x
             JOIN games g ON g.game_id = x.id CROSS JOIN generate_series(0, 1) k",
            account(&format!("CASE WHEN x.i <= {MINE} THEN 0 ELSE 1 + x.i % 2000 END")),
            account("1 + (x.i + 1000) % 2000"),
        ),
        "INSERT INTO game_moves (game_id, move_no, seat, kind, score, entry, created_at)
         SELECT game_id, 0, 0, 'pass', 0, '{\"kind\":\"pass\"}', updated_at FROM games"
            .to_string(),
        "VACUUM ANALYZE".to_string(),
    ] {
        sqlx::raw_sql(&sql).execute(pool).await.unwrap_or_else(|e| panic!("{e}: {sql}"));
    }
    let counts: (i64, i64) = sqlx::query_as(&format!(
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM game_players WHERE account_id = {})",
        account("0")
    ))
    .fetch_one(pool)
    .await
    .unwrap();
    println!("generated {} games, {} of them the measured account's, in {:.1?}", counts.0, counts.1, started.elapsed());
    let me: Uuid = sqlx::query_scalar(&format!("SELECT {}", account("0"))).fetch_one(pool).await.unwrap();

    let filters = [
        ("all", MyGamesFilter::default()),
        ("status=active", MyGamesFilter { status: Some(GameStatus::Active), my_turn: false }),
        ("status=finished", MyGamesFilter { status: Some(GameStatus::Finished), my_turn: false }),
        ("turn=mine", MyGamesFilter { status: None, my_turn: true }),
        ("status=active&turn=mine", MyGamesFilter { status: Some(GameStatus::Active), my_turn: true }),
    ];
    let mut all = Vec::new();
    for (name, filter) in filters {
        // A cursor deep in the list: the page after the first 1,000 games the filter lists.
        let deep = store.my_games(me, filter, None, 1_000).await.unwrap().last().map(|g| (g.last_activity, g.game_id));
        for (page, after) in [("first page", None), ("deep page", deep)] {
            println!("\n== {name}, {page}, limit 20\n{}", store.explain_my_games(me, filter, after, 21).await.unwrap());
            let mut times = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                let t = Instant::now();
                let games = store.my_games(me, filter, after, 21).await.unwrap();
                times.push(t.elapsed());
                assert!(!games.is_empty());
            }
            report(&format!("{name}, {page}"), &mut times);
            all.extend(times);
        }
    }
    report("every filter and page", &mut all);
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!("{what}: {} runs, p50 {:.2?}, p99 {:.2?}, max {:.2?}", times.len(), at(0.5), at(0.99), times[times.len() - 1]);
}
