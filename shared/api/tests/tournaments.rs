//! Tournaments through the API: a director runs a 12-player, 5-round Swiss to its end with games
//! played by the robots' best moves (hints) and drawn by hand; standings equal a recomputation
//! from the games, no pairing repeats, the `.t` export reads back; the manual draw's ties,
//! retries, races and the deadline's default draw; director-only routes refused to players,
//! typed, with nothing written.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::common::{App, Player};
use serde_json::{Value, json};
use service::ManualClock;
use uuid::Uuid;

/// Calls as `who` in the director group.
pub(crate) async fn directing(app: &App, who: Player, method: &str, path: &str, body: &str) -> (u16, Value) {
    let sub = who.0.to_string();
    app.call_claims(&[("sub", &sub), ("name", "Director"), ("cognito:groups", "[director]")], method, path, body).await
}

/// A director's call expected to answer `status`.
pub(crate) async fn direct(app: &App, who: Player, method: &str, path: &str, body: &str, status: u16) -> Value {
    let (got, answer) = directing(app, who, method, path, body).await;
    assert_eq!(got, status, "{method} {path}: {answer}");
    answer
}

/// `n` players whose accounts exist (each has played a robot).
pub(crate) async fn players(app: &App, n: usize) -> Vec<Player> {
    let mut all = Vec::new();
    for _ in 0..n {
        let p = Player::new();
        app.create(p, "noi-tu", r#"[{"robot":"easy"}]"#).await;
        all.push(p);
    }
    all
}

pub(crate) async fn count(app: &App, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {table}")).fetch_one(app.pool()).await.unwrap()
}

/// A tournament of `players` directed by `director`, each invited and accepting: its id.
pub(crate) async fn tournament(app: &App, director: Player, players: &[Player], settings: Value) -> String {
    let mut body = json!({"name": "Club night", "variant": "scrabble-en", "pairing": "swiss", "rounds": 5});
    for (k, v) in settings.as_object().unwrap() {
        body[k] = v.clone();
    }
    let t = direct(app, director, "POST", "/tournaments", &body.to_string(), 201).await;
    let id = t["tournament_id"].as_str().unwrap().to_string();
    for p in players {
        direct(app, director, "POST", &format!("/tournaments/{id}/players"), &json!({"account_id": p.0}).to_string(), 200).await;
        let (status, answer) = app.call(Some(*p), "POST", &format!("/tournaments/{id}/enter"), "").await;
        assert_eq!((status, answer["your_entry"].as_str()), (200, Some("entered")), "{answer}");
    }
    id
}

/// Has the players of `game` draw by hand until it starts, each call with a fresh key.
pub(crate) async fn draw_until_started(app: &App, game: &str, by_account: &HashMap<Uuid, Player>, any: Player) -> Value {
    for _ in 0..40 {
        let (_, view) = app.call(Some(any), "GET", &format!("/games/{game}"), "").await;
        if view["status"] != "drawing" {
            return view;
        }
        for seat in view["drawing"]["to_draw"].as_array().unwrap() {
            let account: Uuid = view["seats"][seat.as_u64().unwrap() as usize]["account_id"].as_str().unwrap().parse().unwrap();
            let who = by_account.get(&account).copied().unwrap_or(Player(account));
            let body = json!({"client_draw_id": Uuid::new_v4()}).to_string();
            let (status, answer) = app.call(Some(who), "POST", &format!("/games/{game}/draw"), &body).await;
            assert_eq!(status, 200, "{answer}");
        }
    }
    panic!("game {game}: the draw did not end in 40 rounds");
}

/// Plays `game` to its end with each seat's best move; the final view.
async fn play_out(app: &App, game: &str, by_account: &HashMap<Uuid, Player>, any: Player) -> Value {
    for _ in 0..200 {
        let (_, view) = app.call(Some(any), "GET", &format!("/games/{game}"), "").await;
        if view["status"] == "finished" {
            return view;
        }
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let account: Uuid = view["seats"][seat]["account_id"].as_str().unwrap().parse().unwrap();
        let who = by_account[&account];
        let body = app.best_move(who, game).await;
        let (status, answer) = app.call(Some(who), "POST", &format!("/games/{game}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
    }
    panic!("game {game} did not end in 200 moves");
}

#[tokio::test]
async fn a_director_runs_a_twelve_player_five_round_swiss_to_its_end() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 12).await;
    let by_account: HashMap<Uuid, Player> = field.iter().map(|p| (p.0, *p)).collect();
    let id = tournament(&app, director, &field, json!({})).await;
    let mut met: BTreeSet<(u64, u64)> = BTreeSet::new();
    // Each player's wins and spread, recomputed from the games' own final views.
    let mut wins: HashMap<u64, f64> = HashMap::new();
    let mut spread: HashMap<u64, i64> = HashMap::new();
    for round in 1..=5u64 {
        let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
        assert_eq!((t["round"].as_u64(), t["round_started"].as_bool()), (Some(round), Some(false)), "{t}");
        // A second pairing before the round is played is refused, typed, nothing written.
        let (status, refused) = directing(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "").await;
        assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("tournament_state")), "{refused}");
        let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds/{round}/start"), "", 200).await;
        let tables = t["pairings"][round as usize - 1]["tables"].as_array().unwrap().clone();
        assert_eq!(tables.len(), 6, "12 players, 6 tables, no bye");
        let number: HashMap<u64, Uuid> = t["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["player_no"].as_u64().unwrap(), p["account_id"].as_str().unwrap().parse().unwrap()))
            .collect();
        for table in &tables {
            let (a, b) = (table["first"].as_u64().unwrap(), table["second"].as_u64().unwrap());
            assert!(met.insert((a.min(b), a.max(b))), "round {round}: {a} and {b} met before");
            let game = table["game_id"].as_str().unwrap();
            assert_eq!(table["game_status"], "drawing");
            let seated = by_account[&number[&a]];
            let started = draw_until_started(&app, game, &by_account, seated).await;
            assert_eq!(started["status"], "active");
            assert_eq!(started["tournament_id"], json!(id));
            // The leader of the recorded draw sits at seat 0.
            let draw = started["draw"].as_array().unwrap();
            let last_round = draw.iter().map(|d| d["round"].as_i64().unwrap()).max().unwrap();
            let best = draw.iter().filter(|d| d["round"].as_i64() == Some(last_round)).min_by_key(|d| d["rank"].as_i64()).unwrap();
            assert_eq!(best["account_id"], started["seats"][0]["account_id"], "{draw:?}");
            let end = play_out(&app, game, &by_account, seated).await;
            let score_of = |no: u64| {
                let seat = end["seats"].as_array().unwrap().iter().find(|s| s["account_id"] == json!(number[&no])).unwrap();
                (seat["score"].as_i64().unwrap(), seat["seat"].as_u64().unwrap())
            };
            let ((sa, seat_a), (sb, _)) = (score_of(a), score_of(b));
            let winners = end["result"]["winners"].as_array().unwrap();
            let (wa, wb) = match winners.len() {
                2 => (0.5, 0.5),
                _ if winners[0].as_u64() == Some(seat_a) => (1.0, 0.0),
                _ => (0.0, 1.0),
            };
            *wins.entry(a).or_default() += wa;
            *wins.entry(b).or_default() += wb;
            *spread.entry(a).or_default() += sa - sb;
            *spread.entry(b).or_default() += sb - sa;
        }
    }
    let (status, t) = app.call(Some(field[0]), "GET", &format!("/tournaments/{id}"), "").await;
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["you_direct"], false);
    assert!(t["your_pairing"]["game_id"].is_string(), "{}", t["your_pairing"]);
    for s in t["standings"].as_array().unwrap() {
        let no = s["player_no"].as_u64().unwrap();
        let recomputed = (wins[&no], spread[&no]);
        let shown = (s["wins"].as_f64().unwrap() + s["draws"].as_f64().unwrap() / 2.0, s["spread"].as_i64().unwrap());
        assert_eq!(shown, recomputed, "player {no}: {s}");
        assert_eq!(s["played"], 5);
    }
    let ranks: Vec<(f64, i64)> =
        t["standings"].as_array().unwrap().iter().map(|s| (s["wins"].as_f64().unwrap(), s["spread"].as_i64().unwrap())).collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "wins then spread: {ranks:?}");
    // Every round paired: a sixth is refused; the tournament closes and lists as closed.
    let (status, refused) = directing(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("tournament_state")), "{refused}");
    let closed = direct(&app, director, "POST", &format!("/tournaments/{id}/close"), "", 200).await;
    assert_eq!(closed["status"], "closed");
    let (_, mine) = app.call(Some(field[3]), "GET", "/tournaments?mine=true", "").await;
    assert_eq!(mine["tournaments"][0]["status"], "closed", "{mine}");
    // The `.t` export reads back: each player's opponents and scores, spreads as the standings.
    let (status, kind, text) = app.raw(Some(field[0]), false, "GET", &format!("/tournaments/{id}/export"), "").await;
    assert_eq!((status, kind.as_str()), (200, "text/plain; charset=utf-8"));
    let lines = tournament::tsh_parse(&text).unwrap();
    assert_eq!(lines.len(), 12);
    for (i, line) in lines.iter().enumerate() {
        let no = i as u64 + 1;
        assert_eq!(line.opponents.len(), 5, "{line:?}");
        let own: i64 = line.scores.iter().map(|s| i64::from(*s)).sum();
        let against: i64 = line.opponents.iter().enumerate().map(|(r, o)| i64::from(lines[*o as usize - 1].scores[r])).sum();
        assert_eq!(own - against, spread[&no], "player {no}: {line:?}");
    }
    // The admin pages: the tournament in the list; its standings and every game's replay link.
    let (status, _, list) = app.raw(Some(director), true, "GET", "/_gm", "").await;
    assert!(status == 200 && list.contains(&format!("/_gm/tournaments/{id}")), "{list}");
    let (status, _, page) = app.raw(Some(director), true, "GET", &format!("/_gm/tournaments/{id}"), "").await;
    assert_eq!(status, 200, "{page}");
    for table in t["pairings"].as_array().unwrap().iter().flat_map(|r| r["tables"].as_array().unwrap()) {
        assert!(page.contains(&format!("/_gm/games/{}", table["game_id"].as_str().unwrap())), "{page}");
    }
    assert_eq!(page.matches("<tr>").count(), 1 + 12 + 5 * 7, "standings and five rounds of six tables, each with its header");
    let (status, _, file) = app.raw(Some(director), true, "GET", &format!("/_gm/tournaments/{id}.t"), "").await;
    assert_eq!((status, file), (200, text.clone()));
    // My games links each tournament game to its tournament.
    let (_, page) = app.call(Some(field[5]), "GET", "/games?status=finished", "").await;
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    assert!(games.iter().all(|g| g["tournament_id"] == json!(id)), "{page}");
}

/// Draws the indexes scripted (into the set), then counts up.
#[derive(Default)]
struct Script(std::sync::Mutex<(Vec<usize>, usize)>);

impl Script {
    fn set(&self, picks: Vec<usize>) {
        self.0.lock().unwrap().0 = picks;
    }
}

impl service::DrawEntropy for Script {
    fn pick(&self, n: usize) -> usize {
        let mut s = self.0.lock().unwrap();
        if s.0.is_empty() {
            s.1 += 1;
            s.1 % n
        } else {
            s.0.remove(0).min(n - 1)
        }
    }
}

/// An app on `clock` whose draws follow the script it returns.
async fn scripted(clock: Arc<ManualClock>) -> (App, Arc<Script>) {
    let store = store::Store::new(store::testing::database().await);
    let mut runtime = service::Runtime::seeded(clock, crate::common::test_seed());
    let script = Arc::new(Script::default());
    runtime.draws = script.clone();
    (App { state: api::AppState::with_runtime(store, Arc::new(engine::Lexicons::builtin()), runtime) }, script)
}

/// A started round of one game between `a` and `b`: the tournament and the game's ids.
pub(crate) async fn one_game(app: &App, director: Player, a: Player, b: Player, settings: Value) -> (String, String) {
    let mut body = json!({"pairing": "round_robin", "rounds": 1});
    for (k, v) in settings.as_object().unwrap() {
        body[k] = v.clone();
    }
    let id = tournament(app, director, &[a, b], body).await;
    direct(app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
    let t = direct(app, director, "POST", &format!("/tournaments/{id}/rounds/1/start"), "", 200).await;
    let game = t["pairings"][0]["tables"][0]["game_id"].as_str().unwrap().to_string();
    (id, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manual_draw_takes_one_tile_a_call_redraws_ties_and_is_retry_and_race_safe() {
    // Round 1: the set's first two tiles, the same letter (a tie); round 2: its first and
    // its last, different.
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let (app, script) = scripted(clock.clone()).await;
    let director = Player::new();
    let field = players(&app, 2).await;
    script.set(vec![0, 0, 0, 99]);
    let (a, b) = (field[0], field[1]);
    let (_, game) = one_game(&app, director, a, b, json!({})).await;
    let draw = |who: Player, key: Uuid| {
        let app = app.clone();
        let game = game.clone();
        async move { app.call(Some(who), "POST", &format!("/games/{game}/draw"), &json!({"client_draw_id": key}).to_string()).await }
    };
    // Nothing is played while the players draw.
    let (status, refused) = app.call(Some(a), "GET", &format!("/games/{game}/hint"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("draw_in_progress")), "{refused}");
    let (status, refused) = app.call(Some(a), "POST", &format!("/games/{game}/resign"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("draw_in_progress")), "{refused}");
    let key = Uuid::new_v4();
    let (status, first) = draw(a, key).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!((first["status"].as_str(), first["draw"].as_array().unwrap().len()), (Some("drawing"), 1), "{first}");
    let seat_b = first["seats"].as_array().unwrap().iter().position(|s| s["account_id"] == json!(b.0)).unwrap();
    assert_eq!(first["drawing"]["to_draw"], json!([seat_b]));
    assert_eq!(first["to_move"], Value::Null);
    assert_eq!(first["your_rack"], Value::Null, "no rack before the draw decides the seats");
    // A retry answers again without drawing; the key under another caller is refused.
    let (status, again) = draw(a, key).await;
    assert_eq!((status, again["draw"].as_array().unwrap().len()), (200, 1), "{again}");
    let (status, refused) = draw(b, key).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("idempotency_key_reused")), "{refused}");
    // One tile a round.
    let (status, refused) = draw(a, Uuid::new_v4()).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("nothing_to_draw")), "{refused}");
    // A conditional read by a holds the view of its own pick; b's pick changes it.
    let (_, headers, _) = app.call_with_headers(a, "GET", &format!("/games/{game}"), &[]).await;
    let (status, _, _) = app.call_with_headers(a, "GET", &format!("/games/{game}"), &[("if-none-match", &headers["etag"])]).await;
    assert_eq!(status, 304);
    let (status, tied) = draw(b, Uuid::new_v4()).await;
    let (status_after, _, _) = app.call_with_headers(a, "GET", &format!("/games/{game}"), &[("if-none-match", &headers["etag"])]).await;
    assert_eq!(status_after, 200, "another tile drawn changes the tag");
    assert_eq!(status, 200, "{tied}");
    let picks = tied["draw"].as_array().unwrap();
    assert_eq!(picks[0]["rank"], picks[1]["rank"], "a tie: {picks:?}");
    assert_eq!((tied["status"].as_str(), tied["drawing"]["round"].as_u64()), (Some("drawing"), Some(2)), "{tied}");
    assert_eq!(tied["drawing"]["to_draw"].as_array().unwrap().len(), 2);
    // A race: the same player's two calls with different keys; exactly one draws.
    let (x, y) = tokio::join!(draw(a, Uuid::new_v4()), draw(a, Uuid::new_v4()));
    let mut statuses = [x.0, y.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{x:?} {y:?}");
    let (status, started) = draw(b, Uuid::new_v4()).await;
    assert_eq!((status, started["status"].as_str()), (200, Some("active")), "{started}");
    let rows: Vec<(i16, i16, Option<String>)> =
        sqlx::query_as("SELECT round, pick_no, drawn_by FROM game_setup_draws WHERE game_id = $1::uuid ORDER BY round, pick_no")
            .bind(&game)
            .fetch_all(app.pool())
            .await
            .unwrap();
    assert_eq!(rows.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(), [(1, 1), (1, 2), (2, 1), (2, 2)]);
    assert!(rows.iter().all(|r| r.2.as_deref() == Some("player")));
    let leader = started["draw"].as_array().unwrap()[2..].iter().min_by_key(|d| d["rank"].as_i64()).unwrap()["account_id"].clone();
    assert_eq!(started["seats"][0]["account_id"], leader, "the leader moves first");
    assert_eq!(started["to_move"], 0);
    let (status, refused) = draw(a, Uuid::new_v4()).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("nothing_to_draw")), "the draw is over: {refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_draws_for_a_player_and_the_deadline_draws_for_the_rest() {
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let (app, script) = scripted(clock.clone()).await;
    let director = Player::new();
    let field = players(&app, 4).await;
    script.set(vec![5, 40]);
    let (_, game) = one_game(&app, director, field[0], field[1], json!({"draw_seconds": 60})).await;
    // Someone else may not draw for a player; the director may.
    let body = json!({"player": field[1].0}).to_string();
    let (status, refused) = app.call(Some(field[0]), "POST", &format!("/games/{game}/draw"), &body).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_director")), "{refused}");
    let (status, refused) = app.call(Some(field[2]), "POST", &format!("/games/{game}/draw"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_your_game")), "{refused}");
    let view = direct(&app, director, "POST", &format!("/games/{game}/draw"), &body, 200).await;
    assert_eq!((view["draw"].as_array().unwrap().len(), view["your_seat"].clone()), (1, Value::Null), "{view}");
    // Past the deadline, the sweep draws for the player who has not.
    clock.advance(chrono::Duration::seconds(61));
    let report = app.state.service.sweep(service::SweepConfig::default()).await.unwrap();
    assert_eq!(report.drawn, 1);
    let (_, view) = app.call(Some(field[0]), "GET", &format!("/games/{game}"), "").await;
    assert_eq!(view["status"], "active", "{view}");
    let drawn_by: Vec<String> =
        sqlx::query_scalar("SELECT drawn_by FROM game_setup_draws WHERE game_id = $1::uuid ORDER BY round, pick_no")
            .bind(&game)
            .fetch_all(app.pool())
            .await
            .unwrap();
    assert_eq!(drawn_by, ["director", "server"]);
    // A late call on another game applies the default at once.
    let (_, other) = one_game(&app, director, field[2], field[3], json!({"draw_seconds": 60})).await;
    clock.advance(chrono::Duration::seconds(61));
    let (status, view) = app.call(Some(field[2]), "POST", &format!("/games/{other}/draw"), "").await;
    assert_eq!((status, view["status"].as_str()), (200, Some("active")), "{view}");
}

#[tokio::test]
async fn director_routes_are_refused_to_players_typed_and_write_nothing() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 3).await;
    let (status, refused) = app
        .call(
            Some(field[0]),
            "POST",
            "/tournaments",
            &json!({"name": "Mine", "variant": "erudit", "pairing": "swiss", "rounds": 3}).to_string(),
        )
        .await;
    assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_director")), "{refused}");
    assert_eq!(count(&app, "tournaments").await, 0);
    let id = tournament(&app, director, &field[..2], json!({})).await;
    // Another director directs their own tournaments, not this one.
    let other = Player::new();
    for (method, path, body) in [
        ("POST", format!("/tournaments/{id}/players"), json!({"account_id": field[2].0}).to_string()),
        ("POST", format!("/tournaments/{id}/rounds"), String::new()),
        ("POST", format!("/tournaments/{id}/rounds/1/start"), String::new()),
        ("POST", format!("/tournaments/{id}/forfeits"), json!({"round": 1, "table": 1, "side": "first"}).to_string()),
        ("POST", format!("/tournaments/{id}/close"), String::new()),
        ("POST", format!("/tournaments/{id}/withdraw"), json!({"account_id": field[1].0}).to_string()),
    ] {
        let (status, refused) = app.call(Some(field[0]), method, &path, &body).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_director")), "{path}: {refused}");
        let (status, refused) = directing(&app, other, method, &path, &body).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_director")), "{path}: {refused}");
    }
    let t = direct(&app, director, "GET", &format!("/tournaments/{id}"), "", 200).await;
    assert_eq!((t["status"].as_str(), t["players"].as_array().unwrap().len(), t["round"].as_u64()), (Some("registering"), 2, Some(0)));
    assert_eq!((count(&app, "tournament_pairings").await, count(&app, "games WHERE tournament_id IS NOT NULL").await), (0, 0));
    // A player may withdraw themselves.
    let t =
        app.call(Some(field[1]), "POST", &format!("/tournaments/{id}/withdraw"), &json!({"account_id": field[1].0}).to_string()).await.1;
    assert_eq!(t["players"][1]["withdrawn"], true, "{t}");
    // Bad settings and bad players are typed.
    for (body, code) in [
        (json!({"name": "", "variant": "erudit", "pairing": "swiss", "rounds": 3}), "bad_tournament"),
        (json!({"name": "x", "variant": "noi-tu", "pairing": "swiss", "rounds": 3}), "bad_tournament"),
        (json!({"name": "x", "variant": "erudit", "pairing": "knockout", "rounds": 3}), "bad_tournament"),
        (json!({"name": "x", "variant": "erudit", "pairing": "swiss", "rounds": 0}), "bad_tournament"),
        (json!({"name": "x", "variant": "erudit", "pairing": "swiss", "rounds": 3, "draw_seconds": 5}), "bad_tournament"),
        (json!({"name": "x", "variant": "klingon", "pairing": "swiss", "rounds": 3}), "unknown_variant"),
        (json!({"name": "x", "variant": "erudit", "pairing": "swiss", "rounds": 3, "challenge_rule": "maybe"}), "bad_challenge_rule"),
    ] {
        let (status, refused) = directing(&app, director, "POST", "/tournaments", &body.to_string()).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (400, Some(code)), "{body}: {refused}");
    }
    let robot = store::robot_account(store::Level::Easy);
    for (account, status, code) in
        [(robot, 400, "bad_tournament"), (Uuid::new_v4(), 404, "account_not_found"), (field[0].0, 409, "already_registered")]
    {
        let (got, refused) =
            directing(&app, director, "POST", &format!("/tournaments/{id}/players"), &json!({"account_id": account}).to_string()).await;
        assert_eq!((got, refused["error"]["code"].as_str()), (status, Some(code)), "{refused}");
    }
    let (status, refused) = app.call(Some(field[0]), "GET", &format!("/tournaments/{}", Uuid::new_v4()), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (404, Some("tournament_not_found")), "{refused}");
    assert_eq!(count(&app, "tournaments").await, 1);
}

#[tokio::test]
async fn a_forfeit_ends_the_game_without_a_result_and_scores_the_table() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 3).await;
    let id = tournament(&app, director, &field, json!({"pairing": "swiss", "rounds": 2})).await;
    direct(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
    let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds/1/start"), "", 200).await;
    let tables = t["pairings"][0]["tables"].as_array().unwrap();
    assert_eq!((tables.len(), tables[1]["second"].clone(), tables[1]["outcome"]["kind"].as_str()), (2, Value::Null, Some("bye")), "{t}");
    let game = tables[0]["game_id"].as_str().unwrap().to_string();
    let (status, refused) = directing(&app, director, "POST", &format!("/tournaments/{id}/close"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("tournament_state")), "a game has no result: {refused}");
    let t = direct(
        &app,
        director,
        "POST",
        &format!("/tournaments/{id}/forfeits"),
        &json!({"round": 1, "table": 1, "side": "second"}).to_string(),
        200,
    )
    .await;
    let table = &t["pairings"][0]["tables"][0];
    assert_eq!((table["game_status"].as_str(), table["outcome"]["kind"].as_str()), (Some("withdrawn"), Some("forfeit")), "{table}");
    let first = table["first"].as_u64().unwrap();
    let top = &t["standings"][0];
    assert_eq!((top["wins"].as_u64(), top["spread"].as_i64()), (Some(1), Some(50)), "{t}");
    assert!(t["standings"].as_array().unwrap().iter().any(|s| s["player_no"] == first && s["wins"] == 1));
    let (_, view) = app.call(Some(field[0]), "GET", &format!("/games/{game}"), "").await;
    assert_eq!(view["status"], "withdrawn");
    // The bye rotates: round 2's bye goes to a player who had none.
    let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
    let bye_1 = tables[1]["first"].as_u64();
    let bye_2 = t["pairings"][1]["tables"].as_array().unwrap().iter().find(|p| p["second"].is_null()).unwrap()["first"].as_u64();
    assert_ne!(bye_1, bye_2);
}

/// The standings' and the export's line for player `no`: (wins, losses, spread) and the
/// export's (opponent, score) of round 1.
fn lines_of(t: &Value, export: &[tournament::TshPlayer], no: u64) -> ((u64, u64, i64), (u32, i32)) {
    let s = t["standings"].as_array().unwrap().iter().find(|s| s["player_no"] == no).unwrap();
    let e = &export[no as usize - 1];
    ((s["wins"].as_u64().unwrap(), s["losses"].as_u64().unwrap(), s["spread"].as_i64().unwrap()), (e.opponents[0], e.scores[0]))
}

#[tokio::test]
async fn a_real_time_game_lost_on_time_is_lost_in_the_standings_the_export_and_the_ratings_whatever_the_scores() {
    // The reproduction: a player who runs out of time while ahead (here after the first play
    // and a pass), and a flag at 0–0 before anyone moved. The game, the standings, the `.t`
    // export and the ratings all say the flagger lost; games whose winners were never recorded
    // (finished before they were kept) are rescored on the next read by the same rule.
    let clock = Arc::new(ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), crate::common::test_seed()).await;
    let control = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 1});
    for moves_before_the_flag in [2usize, 0] {
        let director = Player::new();
        let field = players(&app, 2).await;
        let by_account: HashMap<Uuid, Player> = field.iter().map(|p| (p.0, *p)).collect();
        let settings = json!({"time_control": control, "rated": true, "draw_seconds": 60});
        let (id, game) = one_game(&app, director, field[0], field[1], settings).await;
        let started = draw_until_started(&app, &game, &by_account, field[0]).await;
        let seat_player = |v: &Value, seat: usize| by_account[&v["seats"][seat]["account_id"].as_str().unwrap().parse::<Uuid>().unwrap()];
        let flagger = seat_player(&started, started["to_move"].as_u64().unwrap() as usize);
        let other = if flagger.0 == field[0].0 { field[1] } else { field[0] };
        for n in 0..moves_before_the_flag {
            let (who, body) = if n == 0 {
                (flagger, app.best_move(flagger, &game).await)
            } else {
                (other, json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string())
            };
            let (status, answer) = app.call(Some(who), "POST", &format!("/games/{game}/moves"), &body).await;
            assert_eq!(status, 200, "{answer}");
        }
        // The flag falls: 60 s and the minute of overtime.
        clock.advance(chrono::Duration::seconds(125));
        let (status, claimed) = app.call(Some(other), "POST", &format!("/games/{game}/timeout"), "").await;
        assert_eq!(status, 200, "{claimed}");
        let v = &claimed["game"];
        let (flag_seat, other_seat) = if seat_player(v, 0).0 == flagger.0 { (0, 1) } else { (1, 0) };
        let (flag_score, other_score) =
            (v["seats"][flag_seat]["score"].as_i64().unwrap(), v["seats"][other_seat]["score"].as_i64().unwrap());
        assert!(flag_score >= other_score, "the flagger is level or ahead on the board: {v}");
        assert_eq!((v["result"]["reason"].as_str(), v["result"]["winners"].clone()), (Some("timeout"), json!([other_seat])), "{v}");
        // Ratings: the flagger lost, unless nobody moved (aborted: no change).
        let ratings = &v["ratings"];
        if moves_before_the_flag > 0 {
            assert!(
                ratings["seats"][flag_seat]["change"].as_i64().unwrap() < 0 && ratings["seats"][other_seat]["change"].as_i64().unwrap() > 0,
                "{ratings}"
            );
        } else {
            assert_eq!(
                (ratings["aborted"].as_bool(), ratings["seats"][flag_seat]["change"].clone()),
                (Some(true), Value::Null),
                "{ratings}"
            );
        }
        let t = direct(&app, director, "GET", &format!("/tournaments/{id}"), "", 200).await;
        let number = |who: Player| {
            t["players"].as_array().unwrap().iter().find(|p| p["account_id"] == who.0.to_string()).unwrap()["player_no"].as_u64().unwrap()
        };
        let (f, o) = (number(flagger), number(other));
        let table = &t["pairings"][0]["tables"][0];
        assert_eq!((table["outcome"]["kind"].as_str(), table["outcome"]["loser"].as_u64()), (Some("forfeit"), Some(f)), "{table}");
        let (_, _, text) = app.raw(Some(field[0]), false, "GET", &format!("/tournaments/{id}/export"), "").await;
        let export = tournament::tsh_parse(&text).unwrap();
        assert_eq!((lines_of(&t, &export, f), lines_of(&t, &export, o)), (((0, 1, -50), (0, -50)), ((1, 0, 50), (0, 50))), "{t}\n{text}");
        // As a game finished before winners were recorded: rescored on the next read, the same.
        sqlx::query("UPDATE games SET winners = NULL WHERE game_id = $1::uuid").bind(&game).execute(app.pool()).await.unwrap();
        let again = direct(&app, director, "GET", &format!("/tournaments/{id}"), "", 200).await;
        assert_eq!((again["standings"].clone(), again["pairings"].clone()), (t["standings"].clone(), t["pairings"].clone()));
        let winners: Option<Vec<i16>> =
            sqlx::query_scalar("SELECT winners FROM games WHERE game_id = $1::uuid").bind(&game).fetch_one(app.pool()).await.unwrap();
        assert_eq!(winners, Some(vec![other_seat as i16]));
        let (_, _, text_again) = app.raw(Some(field[0]), false, "GET", &format!("/tournaments/{id}/export"), "").await;
        assert_eq!(text_again, text);
    }
}
