//! A client that calls the handlers the way API Gateway would, against a fresh database. Every
//! answer any test gets is checked against docs/openapi.yaml ([`schema`]), so the document
//! cannot drift from the code.
#![allow(dead_code)]

pub mod schema;

use std::collections::HashMap;

use api::gateway::{Incoming, to_lambda};
use api::{AppState, handle};
use serde_json::Value;
use store::Store;
use uuid::Uuid;

/// Runs test `name` of this binary alone, in a process of its own (for a test that installs the
/// process's subscriber), with `env` set to 1 and `RUST_LOG=info`: its standard output and the
/// JSON lines in it. Panics if it fails.
pub fn json_lines_of(name: &str, env: &str) -> (String, Vec<Value>) {
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(env, "1")
        .env("RUST_LOG", "info")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&child.stdout).into_owned();
    assert!(child.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&child.stderr));
    // libtest's "test NAME ... " may precede the first line.
    let lines = stdout.lines().filter_map(|l| serde_json::from_str::<Value>(&l[l.find('{')?..]).ok()).collect();
    (stdout, lines)
}

/// A player identity.
#[derive(Debug, Clone, Copy)]
pub struct Player(pub Uuid);

impl Player {
    /// A new player whose id comes from this test's seed (the n-th player of a test is the same
    /// on every run).
    pub fn new() -> Player {
        use service::Ids;
        thread_local! {
            static IDS: service::Seeded = service::Seeded::new(name_seed() ^ 0x9a7e_5eed);
        }
        Player(IDS.with(|ids| ids.id()))
    }
}

/// The app over a fresh database.
#[derive(Clone)]
pub struct App {
    pub state: AppState,
}

/// The seed of this test's randomness: `WORDGAME_TEST_SEED` if set, else one derived from the
/// test's name (the thread the harness runs it on), so a test plays the same games on every run.
/// Printed, so a failing test's output says how to repeat it.
pub fn test_seed() -> u64 {
    let seed = name_seed();
    let name = std::thread::current().name().unwrap_or("main").to_string();
    eprintln!("test {name}: seed {seed} (repeat with WORDGAME_TEST_SEED={seed})");
    seed
}

fn name_seed() -> u64 {
    match std::env::var("WORDGAME_TEST_SEED") {
        Ok(s) => s.parse().unwrap_or_else(|_| panic!("WORDGAME_TEST_SEED={s} is not a number")),
        // FNV-1a of the name: stable across Rust versions, unlike the std hasher.
        Err(_) => std::thread::current()
            .name()
            .unwrap_or("main")
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)),
    }
}

/// A runtime on the system clock with every draw, seed and id from `seed`, and counted thinking.
pub fn seeded_runtime(seed: u64) -> service::Runtime {
    service::Runtime::seeded(std::sync::Arc::new(service::SystemClock), seed)
}

impl App {
    /// The app over a fresh database, seeded by [`test_seed`].
    pub async fn new() -> App {
        App::on_store(Store::new(store::testing::database().await), test_seed())
    }

    /// An app over `store` (another process on the same database, say) seeded with `seed`.
    pub fn on_store(store: Store, seed: u64) -> App {
        App::warm(AppState::with_runtime(store, std::sync::Arc::new(engine::Lexicons::builtin()), seeded_runtime(seed)))
    }

    /// The app with `clock` and every draw, seed and id from a source seeded with `seed`.
    pub async fn with_clock(clock: std::sync::Arc<service::ManualClock>, seed: u64) -> App {
        let store = Store::new(store::testing::database().await);
        let runtime = service::Runtime::seeded(clock, seed);
        App::warm(AppState::with_runtime(store, std::sync::Arc::new(engine::Lexicons::builtin()), runtime))
    }

    /// The app on `state`, the built-in Nối từ dictionary parsed first (once a test binary): its
    /// parse in a debug build on a loaded machine can outlast a request's budget, and a test of
    /// a chain game would then meet a `503` it is not about.
    fn warm(state: AppState) -> App {
        noitu::Dictionary::builtin();
        App { state }
    }

    pub fn pool(&self) -> &sqlx::PgPool {
        self.state.service.store().pool()
    }

    /// Calls `method path` (with an optional query) as `who` with `body`; status and JSON.
    pub async fn call(&self, who: Option<Player>, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, _, text) = self.raw(who, false, method, path, body).await;
        (status, serde_json::from_str(&text).expect("every API answer is JSON"))
    }

    /// Calls as `who`, in the admin group if `admin`; status, content type and body text.
    pub async fn raw(&self, who: Option<Player>, admin: bool, method: &str, path: &str, body: &str) -> (u16, String, String) {
        let claims: Option<HashMap<String, String>> = who.map(|p| {
            let mut c =
                HashMap::from([("sub".to_string(), p.0.to_string()), ("name".to_string(), format!("player-{}", &p.0.to_string()[..4]))]);
            if admin {
                c.insert("cognito:groups".to_string(), "[admin]".to_string());
            }
            c
        });
        self.raw_claims(claims.as_ref(), method, path, body).await
    }

    /// Calls with exactly these verified claims; status and JSON.
    pub async fn call_claims(&self, claims: &[(&str, &str)], method: &str, path: &str, body: &str) -> (u16, Value) {
        let claims: HashMap<String, String> = claims.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let (status, _, text) = self.raw_claims(Some(&claims), method, path, body).await;
        (status, serde_json::from_str(&text).expect("every API answer is JSON"))
    }

    /// Calls as `who` with request `headers`; status, the response's headers and body text.
    pub async fn call_with_headers(
        &self,
        who: Player,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (u16, HashMap<String, String>, String) {
        let claims = HashMap::from([("sub".to_string(), who.0.to_string()), ("name".to_string(), "player".to_string())]);
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let headers = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let incoming = Incoming { method, path, query, headers, claims: Some(&claims), request_id: "test", ..Incoming::default() };
        let (route, request) = to_lambda(&incoming).expect("a route");
        let response = handle(&self.state, route, request).await;
        let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        let body = String::from_utf8_lossy(response.body().as_ref());
        let status = response.status().as_u16();
        schema::check_response(route.method(), route.path(), status, &content_type, &body).unwrap_or_else(|e| panic!("{e}"));
        let headers =
            response.headers().iter().map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or_default().to_string())).collect();
        (response.status().as_u16(), headers, String::from_utf8_lossy(response.body().as_ref()).into_owned())
    }

    /// Calls with `claims` (none: no authoriser context); status, content type and body text.
    pub async fn raw_claims(
        &self,
        claims: Option<&HashMap<String, String>>,
        method: &str,
        path: &str,
        body: &str,
    ) -> (u16, String, String) {
        self.raw_request(claims, method, path, &[], body).await
    }

    /// Calls with `claims` and request `headers`; status, content type and body text.
    pub async fn raw_request(
        &self,
        claims: Option<&HashMap<String, String>>,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String, String) {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let headers = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let incoming = Incoming { method, path, query, headers, body: body.as_bytes(), claims, request_id: "test" };
        let (route, response) = match to_lambda(&incoming) {
            Ok((route, request)) => (Some(route), handle(&self.state, route, request).await),
            Err(e) => (None, e.response("test")),
        };
        let status = response.status().as_u16();
        let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        if let Some(route) = route {
            let body = String::from_utf8_lossy(response.body().as_ref());
            schema::check_response(route.method(), route.path(), status, &content_type, &body).unwrap_or_else(|e| panic!("{e}"));
        }
        (status, content_type, String::from_utf8_lossy(response.body().as_ref()).into_owned())
    }

    /// Creates a game against `opponents` (JSON array), expecting 201, and has every invited
    /// human accept it: the game as `who` sees it once started.
    pub async fn create(&self, who: Player, variant: &str, opponents: &str) -> Value {
        self.create_with(who, &format!(r#"{{"variant":"{variant}","opponents":{opponents}}}"#)).await
    }

    /// Creates the game `body` asks for, expecting 201, and has every invited human accept it:
    /// the game as `who` sees it once started.
    pub async fn create_with(&self, who: Player, body: &str) -> Value {
        let (status, view) = self.call(Some(who), "POST", "/games", body).await;
        assert_eq!(status, 201, "{view}");
        self.accept_all(who, view).await
    }

    /// Has every invitee of the game `view` (as `who` saw it) accept: the game as `who` sees it
    /// then (the view unchanged when nobody was invited).
    pub async fn accept_all(&self, who: Player, view: Value) -> Value {
        let game = view["game_id"].as_str().unwrap().to_string();
        let invitees: Vec<Uuid> = view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["invited"] == true)
            .map(|s| s["account_id"].as_str().unwrap().parse().unwrap())
            .collect();
        if invitees.is_empty() {
            return view;
        }
        for invitee in invitees {
            let (status, body) = self.call(Some(Player(invitee)), "POST", &format!("/games/{game}/join"), "").await;
            assert_eq!(status, 200, "{body}");
        }
        let (status, body) = self.call(Some(who), "GET", &format!("/games/{game}"), "").await;
        assert_eq!((status, body["status"].as_str()), (200, Some("active")), "{body}");
        body
    }

    /// A digest of everything a request could write (every row of every table, games with
    /// their status, move count, deadline and update time), to compare before and after a
    /// refusal.
    pub async fn everything(&self) -> String {
        sqlx::query_scalar(
            "SELECT concat_ws('|',
                (SELECT string_agg(concat_ws(':', account_id, display_name), ',' ORDER BY account_id) FROM accounts),
                (SELECT string_agg(concat_ws(':', game_id, status, move_count, turn_deadline, updated_at, invited_by), ',' ORDER BY game_id) FROM games),
                (SELECT string_agg(concat_ws(':', game_id, seat, account_id, invited), ',' ORDER BY game_id, seat) FROM game_players),
                (SELECT string_agg(concat_ws(':', game_id, move_no, entry), ',' ORDER BY game_id, move_no) FROM game_moves),
                (SELECT string_agg(concat_ws(':', game_id, round, pick_no, account_id), ',' ORDER BY game_id, round, pick_no) FROM game_setup_draws))",
        )
        .fetch_one(self.pool())
        .await
        .unwrap()
    }

    /// Rows in the journal of `game`.
    pub async fn journal_rows(&self, game: &str) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM game_moves WHERE game_id = $1::uuid").bind(game).fetch_one(self.pool()).await.unwrap()
    }

    /// The best hinted play for `who`, as a submit body at the game's move count, or a pass /
    /// exchange when there is no play, or no hint (a rated game).
    pub async fn best_move(&self, who: Player, game: &str) -> String {
        let (status, view) = self.call(Some(who), "GET", &format!("/games/{game}"), "").await;
        assert_eq!(status, 200, "{view}");
        let move_no = view["move_count"].as_u64().unwrap();
        let (status, hints) = self.call(Some(who), "GET", &format!("/games/{game}/hint?limit=1"), "").await;
        // A rated game allows no hint (nor does one whose hints ran out): no play is known then.
        let no_hint = status == 409 && hints["error"]["code"] == "no_hints_left";
        assert!(status == 200 || no_hint, "{hints}");
        let mv = match hints["hints"].as_array().and_then(|h| h.first()) {
            Some(h) => serde_json::json!({"kind": "play", "placements": h["placements"]}),
            None if view["bag_size"].as_u64().unwrap() >= 7 => {
                let tiles: Vec<Value> = view["your_rack"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| if t == "?" { Value::from("blank") } else { serde_json::json!({"letter": t}) })
                    .collect();
                serde_json::json!({"kind": "exchange", "tiles": tiles})
            }
            None => serde_json::json!({"kind": "pass"}),
        };
        serde_json::json!({"expected_move_no": move_no, "client_move_id": Uuid::new_v4(), "move": mv}).to_string()
    }
}

/// A word `view`'s player may play in its chain game, from the built-in dictionary (the way a
/// player finds one without a hint): the first unused word beginning with the syllable handed
/// on, a familiar one if there is one; `None` when there is no word (the game is then over).
pub fn chain_word(view: &Value) -> Option<String> {
    let dict = noitu::Dictionary::builtin();
    let syllable = noitu::normalize(view["syllable"].as_str()?).ok()?;
    let played = view["chain"].as_array()?.iter().map(|link| &link["word"]);
    let used: Vec<String> = std::iter::once(&view["opening"]).chain(played).filter_map(|w| noitu::normalize(w.as_str()?).ok()).collect();
    let unused: Vec<noitu::WordId> =
        dict.words_from(dict.syllable_id(&syllable)?).filter(|&w| !used.iter().any(|u| u == dict.text(w))).collect();
    let word = unused.iter().find(|&&w| dict.is_familiar(w)).or(unused.first())?;
    Some(dict.display(*word).to_string())
}
