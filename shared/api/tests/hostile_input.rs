//! Hostile input never reaches the database as an error: every query parameter of every `GET`
//! route, given forged cursors (far past and future, base64, huge numbers, garbage), control bytes
//! (NUL, `\u{1}`, a lone surrogate percent-encoded) and long values (up to API Gateway's 10 KB request line), is answered below 500,
//! and nothing is written. The requests are drawn from a seeded ChaCha stream; the seed is printed
//! (`WORDGAME_TEST_SEED=N` repeats it) and every failure names the request.

use base64::Engine;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::json;

use crate::common::{App, Player, test_seed};

/// How many drawn requests one run makes (beside the fixed ones).
const DRAWN: usize = 400;

/// A `GET` route as a path and the query parameters it reads, and whether the admin calls it.
struct Target {
    path: String,
    params: &'static [&'static str],
    admin: bool,
}

/// Cursor times: before 4713 BC, year 1, just before 1970, just after 9999, within PostgreSQL's
/// range but past 9999, past its range, and the ends of i64.
const FORGED_MICROS: [&str; 9] = [
    "-210900000000000000",
    "-62135596800000000",
    "-1",
    "253402300800000000",
    "9000000000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999999",
    "1e300",
];

/// Values that are not cursors or numbers at all, percent-encoded as a client would send them
/// (or would not: some are broken on purpose).
const RAW_VALUES: [&str; 24] = [
    "",
    "%00",
    "a%00b",
    "%01",
    "%1F%7F",
    "%0A%0D",
    "%ED%A0%80",
    "%ED%B0%80x",
    "%uD800",
    "%5Cud800",
    "%C0%80",
    "%FF%FE",
    "%",
    "%2",
    "+",
    "-0",
    "0",
    "1",
    "+5",
    "%20%205",
    "-1",
    "%27%3B%20DROP%20TABLE%20games%3B--",
    "%F0%9F%99%82",
    "mine",
];

fn percent_encode(s: &str) -> String {
    s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// One value: a forged cursor, a fixed hostile value, random bytes, or a very long value.
fn value(rng: &mut ChaCha8Rng, ids: &[String]) -> String {
    let pick = |rng: &mut ChaCha8Rng, n: usize| (rng.next_u32() as usize) % n;
    let id = &ids[pick(rng, ids.len())];
    let simple = id.replace('-', "");
    match pick(rng, 7) {
        0 => format!("{}.{simple}", FORGED_MICROS[pick(rng, FORGED_MICROS.len())]),
        1 => {
            let cursor = format!("{}.{simple}", FORGED_MICROS[pick(rng, FORGED_MICROS.len())]);
            percent_encode(&base64::engine::general_purpose::STANDARD.encode(cursor))
        }
        2 => RAW_VALUES[pick(rng, RAW_VALUES.len())].to_string(),
        3 => (0..pick(rng, 24)).map(|_| format!("%{:02X}", rng.next_u32() as u8)).collect(),
        4 => {
            let unit = RAW_VALUES[pick(rng, RAW_VALUES.len())];
            let unit = if unit.is_empty() { "x" } else { unit };
            // API Gateway refuses a request line over 10,240 bytes; stay under it.
            let len = 1_000 + pick(rng, 2_000);
            unit.repeat(len / unit.len() + 1)
        }
        5 => format!("{}.{simple}{}", rng.next_u64(), RAW_VALUES[pick(rng, RAW_VALUES.len())]),
        _ => percent_encode(id),
    }
}

#[tokio::test]
async fn hostile_query_values_on_every_get_route_answer_below_500_and_write_nothing() {
    let app = App::new().await;
    let seed = test_seed();
    let (me, other, admin) = (Player::new(), Player::new(), Player::new());
    let tiles = app.create(me, "scrabble-en", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    let chain = app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    let (status, open) = app.call(Some(other), "POST", "/games/open", r#"{"variant":"erudit"}"#).await;
    assert_eq!(status, 201, "{open}");
    let (status, _, _) = app.raw(Some(admin), true, "GET", "/_gm", "").await;
    assert_eq!(status, 200);

    let targets = [
        Target { path: "/games".into(), params: &["status", "turn", "cursor", "limit"], admin: false },
        Target { path: "/games/open".into(), params: &["variant", "cursor", "limit"], admin: false },
        Target { path: format!("/games/{tiles}"), params: &[], admin: false },
        Target { path: format!("/games/{tiles}/moves"), params: &["after"], admin: false },
        Target { path: format!("/games/{chain}/moves"), params: &["after"], admin: false },
        Target { path: format!("/games/{tiles}/hint"), params: &["limit"], admin: false },
        Target { path: format!("/games/{chain}/hint"), params: &["limit"], admin: false },
        Target { path: "/_gm".into(), params: &["variant", "status", "player", "cursor"], admin: true },
        Target { path: format!("/_gm/games/{tiles}"), params: &[], admin: true },
        Target { path: format!("/_gm/games/{chain}/timeline.json"), params: &[], admin: true },
        Target { path: format!("/_gm/accounts/{}", me.0), params: &[], admin: true },
        Target { path: "/_gm/signin".into(), params: &["code", "state", "error"], admin: false },
    ];
    let ids = [tiles.clone(), chain.clone(), me.0.to_string(), uuid::Uuid::nil().to_string()];
    let before = app.everything().await;

    // Every parameter of every route with every fixed value, then drawn combinations.
    let mut requests: Vec<(usize, String)> = Vec::new();
    for (t, target) in targets.iter().enumerate() {
        for param in target.params {
            for micros in FORGED_MICROS {
                requests.push((t, format!("{param}={micros}.{}", tiles.replace('-', ""))));
            }
            for raw in RAW_VALUES {
                requests.push((t, format!("{param}={raw}")));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..DRAWN {
        let t = (rng.next_u32() as usize) % targets.len();
        let params = targets[t].params;
        let n = 1 + (rng.next_u32() as usize) % 2;
        let query: Vec<String> = (0..n)
            .map(|_| {
                // Now and then a name the route does not read, or a broken pair.
                let name = match rng.next_u32() % 8 {
                    0 => "%00",
                    1 => "x",
                    _ if params.is_empty() => "limit",
                    _ => params[(rng.next_u32() as usize) % params.len()],
                };
                format!("{name}={}", value(&mut rng, &ids))
            })
            .collect();
        requests.push((t, query.join("&")));
    }

    for (i, (t, query)) in requests.iter().enumerate() {
        let target = &targets[*t];
        let who = if target.admin { admin } else { me };
        let path = format!("{}?{query}", target.path);
        let (status, _, body) = app.raw(Some(who), target.admin, "GET", &path, "").await;
        let shown: String = path.chars().take(300).collect();
        assert!(status < 500, "seed {seed}, request {i}: GET {shown} answered {status}: {body}");
    }
    assert_eq!(app.everything().await, before, "seed {seed}: a GET wrote something");
}

#[tokio::test]
async fn text_postgresql_refuses_in_a_body_is_a_400_or_422_and_writes_nothing() {
    let app = App::new().await;
    let me = Player::new();
    let chain = app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    let (_, view) = app.call(Some(me), "GET", &format!("/games/{chain}"), "").await;
    let n = view["move_count"].as_u64().unwrap();
    let before = app.everything().await;
    let word = |w: &str| json!({"expected_move_no": n, "move": {"kind": "word", "word": w}}).to_string();
    let cases = [
        ("/games".to_string(), json!({"variant": "erudit\u{0}", "opponents": [{"robot": "easy"}]}).to_string()),
        ("/games".to_string(), json!({"variant": "erudit", "opponents": [{"robot": "easy\u{0}"}]}).to_string()),
        ("/games".to_string(), json!({"variant": "erudit", "opponents": [{"account": "\u{0}"}]}).to_string()),
        ("/games/open".to_string(), json!({"variant": "\u{0}"}).to_string()),
        (format!("/games/{chain}/robot"), json!({"level": "\u{1}"}).to_string()),
        (format!("/games/{chain}/moves"), word("a\u{0}b")),
        (format!("/games/{chain}/moves"), word("\u{0}")),
        (format!("/games/{chain}/moves"), word("xin\u{1} chào")),
        (format!("/games/{chain}/moves"), r#"{"expected_move_no":0,"move":{"kind":"word","word":"\ud800"}}"#.to_string()),
        (format!("/games/{chain}/preview"), json!({"move": {"kind": "word", "word": "a\u{0}"}}).to_string()),
        (format!("/games/{chain}/moves"), json!({"expected_move_no": n, "client_move_id": "\u{0}", "move": {"kind": "pass"}}).to_string()),
    ];
    for (path, body) in cases {
        let (status, answer) = app.call(Some(me), "POST", &path, &body).await;
        assert!(matches!(status, 400 | 409 | 422), "POST {path} {body:?} answered {status}: {answer}");
    }
    assert_eq!(app.everything().await, before);
}

#[tokio::test]
async fn every_body_that_is_not_a_json_object_is_400_invalid_body_and_writes_nothing() {
    // serde reads a struct from an array by position: `[]` drew a tile, `["erudit"]` opened a
    // game, `[0,null,{"kind":"pass"}]` submitted a pass. Every route that reads a body is sent
    // an array (empty and positional), a string, a number, a boolean and null.
    let app = App::new().await;
    let me = Player::new();
    let director = Player::new();
    let game = app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string();
    let sub = director.0.to_string();
    let claims = [("sub", sub.as_str()), ("name", "Director"), ("cognito:groups", "[director]")];
    let (status, t) =
        app.call_claims(&claims, "POST", "/tournaments", r#"{"name":"Club","variant":"scrabble-en","pairing":"swiss","rounds":3}"#).await;
    assert_eq!(status, 201, "{t}");
    let tournament = t["tournament_id"].as_str().unwrap().to_string();
    let with_body: Vec<(&str, String)> = vec![
        ("POST", "/games".to_string()),
        ("POST", "/games/open".to_string()),
        ("POST", format!("/games/{game}/moves")),
        ("POST", format!("/games/{game}/preview")),
        ("POST", format!("/games/{game}/challenge")),
        ("POST", format!("/games/{game}/draw")),
        ("POST", format!("/games/{game}/robot")),
        ("POST", "/tournaments".to_string()),
        ("POST", format!("/tournaments/{tournament}/players")),
        ("POST", format!("/tournaments/{tournament}/withdraw")),
        ("POST", format!("/tournaments/{tournament}/enter")),
        ("POST", format!("/tournaments/{tournament}/leave")),
        ("POST", format!("/tournaments/{tournament}/forfeits")),
    ];
    let tournaments = || async {
        let q = "SELECT (SELECT count(*) FROM tournaments) * 1000 + (SELECT count(*) FROM tournament_players)";
        sqlx::query_scalar::<_, i64>(q).fetch_one(app.pool()).await.unwrap()
    };
    let before = (app.everything().await, tournaments().await);
    for (method, path) in &with_body {
        for body in ["[]", r#"["erudit"]"#, r#"[0,null,{"kind":"pass"}]"#, r#""erudit""#, "7", "true", "null"] {
            let (status, answer) = if path.starts_with("/tournaments") {
                app.call_claims(&claims, method, path, body).await
            } else {
                app.call(Some(me), method, path, body).await
            };
            assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("invalid_body")), "{method} {path} {body}: {answer}");
        }
    }
    assert_eq!((app.everything().await, tournaments().await), before, "a body that is not an object wrote something");
}
