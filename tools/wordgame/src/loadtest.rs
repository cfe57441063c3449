//! `wordgame loadtest`: submit-move throughput and latency through a running gateway. Each client
//! plays two-human games between its own two demo accounts: the side to move submits its top play
//! by equity (or passes), until the game ends, then starts another. The play comes from a hint
//! request (`--moves hint`) or from the same move generator run in the load client on the board
//! and rack of the side's own view, holding any blank back while a play without it exists
//! (`--moves local`, no hint request). Only submits are timed.
//! Bounded in time and count; loopback only.

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

use crate::CliError;

/// Arguments of `wordgame loadtest`.
#[derive(clap::Args)]
pub struct Args {
    /// The gateway's base URL (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    url: String,
    /// Concurrent clients, each playing its own games.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// How long to run.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The variant to play.
    #[arg(long, default_value = "scrabble-en")]
    variant: String,
    /// Where each side's top play comes from.
    #[arg(long, value_enum, default_value_t = Moves::Hint)]
    moves: Moves,
}

/// Where the load client gets the play it submits.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Moves {
    /// A `GET /games/{id}/hint?limit=1` before every submit.
    Hint,
    /// The engine's move generator in the load client, on the side's own view, holding any
    /// blank back while a play without it exists.
    Local,
}

/// The load clients' HTTP/1 client (pooled keep-alive connections).
pub(crate) type Http = Client<HttpConnector, Full<Bytes>>;

/// Runs the load and prints throughput and latency percentiles.
///
/// # Errors
/// [`CliError::Input`] for a non-loopback URL or a gateway that does not answer as expected.
pub fn run(args: &Args) -> Result<(), CliError> {
    if !(args.url.starts_with("http://127.") || args.url.starts_with("http://localhost") || args.url.starts_with("http://[::1]")) {
        return Err(CliError::Input("loadtest only targets a gateway on this machine (127.0.0.0/8, localhost, [::1])".into()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| CliError::Input(e.to_string()))?;
    runtime.block_on(async {
        let http: Http = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(args.clients * 2).build_http();
        let deadline = Instant::now() + Duration::from_secs(args.seconds);
        let started = Instant::now();
        let mut tasks = Vec::new();
        for c in 0..args.clients {
            let (http, url, variant, moves) = (http.clone(), args.url.clone(), args.variant.clone(), args.moves);
            tasks.push(tokio::spawn(async move { client(http, url, variant, moves, c, deadline).await }));
        }
        let mut latencies = Vec::new();
        let (mut games, mut errors, mut refused) = (0usize, 0usize, 0usize);
        for t in tasks {
            let r = t.await.map_err(|e| CliError::Input(e.to_string()))??;
            latencies.extend(r.0);
            games += r.1;
            errors += r.2;
            refused += r.3;
        }
        let elapsed = started.elapsed().as_secs_f64();
        latencies.sort();
        let pct = |p: f64| {
            latencies
                .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        println!(
            "submit-move via the gateway ({} moves): {} clients, {:.1} s, {} submits ({:.1}/s), {} games finished, {} non-200 answers, {} refused setups",
            if args.moves == Moves::Hint { "hint" } else { "local" },
            args.clients,
            elapsed,
            latencies.len(),
            latencies.len() as f64 / elapsed,
            games,
            errors,
            refused
        );
        println!("latency: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms", pct(0.5), pct(0.9), pct(0.99), pct(1.0));
        Ok(())
    })
}

/// The parts of a game view the load client needs (the rest of the JSON is skipped unparsed).
#[derive(serde::Deserialize)]
pub(crate) struct View {
    pub(crate) game_id: uuid::Uuid,
    /// The reader's rack (none for a viewer without a seat).
    #[serde(rename = "your_rack")]
    pub(crate) rack: Option<Vec<String>>,
    pub(crate) status: String,
    pub(crate) to_move: Option<usize>,
    pub(crate) move_count: u32,
    pub(crate) seats: Vec<SeatLite>,
    /// The board and what the no-repeat rule reads.
    #[serde(flatten)]
    pub(crate) table: wordgame::top_play::Table,
}

/// A seat of a game view: who holds it.
#[derive(serde::Deserialize)]
pub(crate) struct SeatLite {
    pub(crate) account_id: Option<uuid::Uuid>,
}

/// A hint answer.
#[derive(serde::Deserialize)]
pub(crate) struct Hints {
    pub(crate) hints: Vec<HintLite>,
}

/// One hint: its placements, passed back to submit as they are.
#[derive(serde::Deserialize)]
pub(crate) struct HintLite {
    pub(crate) placements: Value,
}

#[derive(serde::Deserialize)]
struct Outcome {
    game: View,
}

/// One client's games until `deadline`: submit latencies, games finished, non-200 answers.
async fn client(
    http: Http,
    url: String,
    variant: String,
    moves: Moves,
    c: usize,
    deadline: Instant,
) -> Result<(Vec<Duration>, usize, usize, usize), CliError> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let names = [format!("load-{c}-a"), format!("load-{c}-b")];
    let ids = [api::jwt::demo_account_id(&names[0]), api::jwt::demo_account_id(&names[1])];
    let tokens = [api::jwt::demo_token(&names[0], false, 1, now), api::jwt::demo_token(&names[1], false, 1, now)];
    let fail = |what: &str, body: &[u8]| CliError::Input(format!("{what}: {}", String::from_utf8_lossy(body)));
    let (mut latencies, mut games, mut errors, mut refused) = (Vec::new(), 0, 0, 0);
    // The second player's account comes into being with a first game of its own (as every
    // build of the service makes it, so old and new builds face the same client).
    let first = Some(json!({"variant": variant, "opponents": [{"robot": "easy"}]}));
    while call(&http, &url, &tokens[1], "POST", "/games", first.clone()).await?.0 != 201 && Instant::now() < deadline {
        refused += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    while Instant::now() < deadline {
        // A refused step of the setup (a 503 under load, say) is counted and the setup begun
        // again, never the run aborted.
        let Ok(Setup { mut view, mut racks }) = setup(&http, &url, &tokens, ids[1], (&variant, moves)).await else {
            refused += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let id = view.game_id;
        while Instant::now() < deadline && view.status != "finished" {
            // The draw decides the seats: find whose token the seat to move needs.
            let seat = view.to_move.unwrap_or(0);
            let who = usize::from(view.seats.get(seat).and_then(|s| s.account_id) != Some(ids[0]));
            let token = &tokens[who];
            let mv = match moves {
                Moves::Hint => {
                    let (_, body) = call(&http, &url, token, "GET", &format!("/games/{id}/hint?limit=1"), None).await?;
                    let Ok(hints) = serde_json::from_slice::<Hints>(&body) else {
                        errors += 1;
                        break;
                    };
                    match hints.hints.into_iter().next() {
                        Some(h) => json!({"kind": "play", "placements": h.placements}),
                        None => json!({"kind": "pass"}),
                    }
                }
                Moves::Local => json!(wordgame::top_play::top_play(&view.table, &racks[who])),
            };
            let body = json!({"expected_move_no": view.move_count, "client_move_id": uuid::Uuid::new_v4(), "move": mv});
            let t0 = Instant::now();
            let (status, answer) = call(&http, &url, token, "POST", &format!("/games/{id}/moves"), Some(body)).await?;
            latencies.push(t0.elapsed());
            if status != 200 {
                errors += 1;
                break;
            }
            view = serde_json::from_slice::<Outcome>(&answer).map_err(|_| fail("submit failed", &answer))?.game;
            racks[who] = view.rack.clone().unwrap_or_default();
        }
        if view.status == "finished" {
            games += 1;
        }
    }
    Ok((latencies, games, errors, refused))
}

/// A game ready to play: its first view (as the first account) and each side's rack.
struct Setup {
    view: View,
    racks: [Vec<String>; 2],
}

/// Creates a game of the client's two accounts (the second invited) and accepts it; for local
/// moves, reads the second side's rack too.
///
/// # Errors
/// [`CliError::Input`] naming the refused step.
async fn setup(
    http: &Http,
    url: &str,
    tokens: &[String; 2],
    second: uuid::Uuid,
    (variant, moves): (&str, Moves),
) -> Result<Setup, CliError> {
    let fail = |what: &str, body: &[u8]| CliError::Input(format!("{what}: {}", String::from_utf8_lossy(body)));
    let (_, body) =
        call(http, url, &tokens[0], "POST", "/games", Some(json!({"variant": variant, "opponents": [{"account": second}]}))).await?;
    let invitation: View = serde_json::from_slice(&body).map_err(|_| fail("create failed", &body))?;
    let id = invitation.game_id;
    // A game seating another human starts once they accept.
    let (_, body) = call(http, url, &tokens[1], "POST", &format!("/games/{id}/join"), None).await?;
    serde_json::from_slice::<View>(&body).map_err(|_| fail("accept failed", &body))?;
    let (_, body) = call(http, url, &tokens[0], "GET", &format!("/games/{id}"), None).await?;
    let view: View = serde_json::from_slice(&body).map_err(|_| fail("get failed", &body))?;
    // Each side's rack, from its own latest view; the second side's first view is read once.
    let mut racks: [Vec<String>; 2] = [view.rack.clone().unwrap_or_default(), Vec::new()];
    if moves == Moves::Local {
        let (_, body) = call(http, url, &tokens[1], "GET", &format!("/games/{id}"), None).await?;
        let second: View = serde_json::from_slice(&body).map_err(|_| fail("get failed", &body))?;
        racks[1] = second.rack.unwrap_or_default();
    }
    Ok(Setup { view, racks })
}

/// One request with a bearer token: the status and the body.
///
/// # Errors
/// [`CliError::Input`] when the connection fails or breaks before the whole answer arrived.
pub(crate) async fn call(
    http: &Http,
    url: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, Bytes), CliError> {
    let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
    let req = hyper::Request::builder()
        .method(method)
        .uri(format!("{url}{path}"))
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Full::new(bytes))
        .map_err(|e| CliError::Input(e.to_string()))?;
    let resp = http.request(req).await.map_err(|e| CliError::Input(format!("{method} {path}: {e}")))?;
    let status = resp.status().as_u16();
    let body = resp.into_body().collect().await.map_err(|e| CliError::Input(e.to_string()))?.to_bytes();
    Ok((status, body))
}
