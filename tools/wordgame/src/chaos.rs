//! `wordgame chaos`: a bounded crash test. It starts a private, durable PostgreSQL and the local
//! gateway as a child process (`wordgame serve` on it), and runs robot and two-human games from
//! concurrent clients. Every request is retried on connection errors and 5xx answers with a short
//! backoff (a submit with the same body and client move id) until it gets a definitive answer or
//! its deadline passes; the clients note what each definitive answer acknowledged. Meanwhile, at
//! seeded random moments spread over the run, the gateway and, separately, the postmaster are
//! SIGKILLed and restarted, one at a time. When the load stops, the database is checked against
//! the acknowledgements: every acknowledged game and move is stored, no game is partial, each
//! game's `move_count` equals its journal, no active game waits on a robot, every game loads
//! and replays, and every rated game (every other two-human game is rated) changed its players'
//! ratings exactly once if it ended rated, never otherwise, each change starting from the one
//! before. One line gives the counts; any defect makes the exit code 2. Loopback only;
//! bounded in time and count.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use games::Position;
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use store::local::{LocalPostgres, StartOptions};
use store::{AccountKind, GameStatus, Store};
use uuid::Uuid;

use crate::CliError;
use crate::loadtest::{Hints, Http, View, call};

/// Arguments of `wordgame chaos`.
#[derive(clap::Args)]
pub struct Args {
    /// How long the load runs, in seconds.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(5..=3600))]
    seconds: u64,
    /// Concurrent clients, each playing its own games.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=64))]
    clients: u64,
    /// How many times the gateway is SIGKILLed (and restarted at once).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(0..=100))]
    gateway_kills: u64,
    /// How many times the PostgreSQL postmaster is SIGKILLed (and restarted at once).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(0..=100))]
    db_kills: u64,
    /// The seed of the kill schedule and of the clients' choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// How long one request is retried before its client gives up on it, in seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=600))]
    request_seconds: u64,
    /// A short run for CI: 1 gateway kill, 1 database kill, 20 s of load, 4 clients.
    #[arg(long, conflicts_with_all = ["seconds", "clients", "gateway_kills", "db_kills"])]
    smoke: bool,
}

/// What one run does, from the arguments.
struct Plan {
    seconds: u64,
    clients: usize,
    gateway_kills: usize,
    db_kills: usize,
    seed: u64,
    request: Duration,
}

impl Plan {
    fn new(args: &Args) -> Plan {
        let seed = args
            .seed
            .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64));
        let (seconds, clients, gateway_kills, db_kills) = if args.smoke {
            (20, 4, 1, 1)
        } else {
            (args.seconds, args.clients as usize, args.gateway_kills as usize, args.db_kills as usize)
        };
        Plan { seconds, clients, gateway_kills, db_kills, seed, request: Duration::from_secs(args.request_seconds) }
    }
}

/// Runs the crash test and prints its counts.
///
/// # Errors
/// [`CliError::Input`] when PostgreSQL or the gateway cannot be started, or with the summary
/// line when the check found a defect.
pub fn run(args: &Args) -> Result<(), CliError> {
    let plan = Plan::new(args);
    eprintln!(
        "chaos: seed {}, {} clients, {} s of load, {} gateway kills, {} database kills",
        plan.seed, plan.clients, plan.seconds, plan.gateway_kills, plan.db_kills
    );
    let fail = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| fail(&e))?;
    let dir = std::env::temp_dir().join(format!("wordgame-chaos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail(&e))?;
    // Durable, as `serve` runs: an acknowledged commit must survive the postmaster's SIGKILL. The
    // watchdog stops the server and deletes its data when this process exits, however it exits.
    let options = StartOptions { throwaway: true, durable: true, port: None, watchdog: true };
    let pg = Arc::new(LocalPostgres::start_with(&dir.join("pg"), options).map_err(|e| fail(&e))?);
    let result = runtime.block_on(crash_test(&plan, pg.clone(), &dir));
    pg.stop();
    let report = result?;
    let line = report.line();
    println!("{line}");
    if report.defects() == 0 {
        if report.unanswered == 0 {
            let _ = std::fs::remove_dir_all(&dir);
        } else {
            eprintln!("chaos: the gateway's log is kept at {}", dir.join("gateway.log").display());
        }
        return Ok(());
    }
    for d in report.findings.details.iter().take(20) {
        eprintln!("chaos: defect: {d}");
    }
    if report.findings.details.len() > 20 {
        eprintln!("chaos: … and {} more", report.findings.details.len() - 20);
    }
    eprintln!("chaos: the gateway's log is kept at {}", dir.join("gateway.log").display());
    Err(CliError::Input(line))
}

/// The whole run: the gateway, the load and the chaos side by side, then the check.
async fn crash_test(plan: &Plan, pg: Arc<LocalPostgres>, dir: &Path) -> Result<Report, CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    crate::serve::ensure_database(&pg).await?;
    let url = pg.url("wordgame");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| fail(&e))?.port();
    let exe = std::env::current_exe().map_err(|e| fail(&e))?;
    let mut gateway = Gateway { exe, port, url: url.clone(), log: dir.join("gateway.log"), child: None, seed: plan.seed, spawns: 0 };
    let up = gateway.start().await?;
    eprintln!("chaos: gateway serving on 127.0.0.1:{port} after {:.1} s", up.as_secs_f64());

    let mut rng = Rng(plan.seed);
    let events = schedule(plan, &mut rng);
    let started = Instant::now();
    let end = started + Duration::from_secs(plan.seconds);
    let chaos = tokio::spawn(chaos(events, gateway, pg.clone(), started, end));

    let http: Http = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(plan.clients * 2).build_http();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let names = ["alice", "bob"];
    let tokens = names.map(|n| api::jwt::demo_token(n, false, 1, now));
    let ids = names.map(api::jwt::demo_account_id);
    let mut tasks = Vec::new();
    for c in 0..plan.clients {
        let player = Player {
            http: http.clone(),
            base: format!("http://127.0.0.1:{port}"),
            tokens: tokens.clone(),
            ids,
            request: plan.request,
            started,
            end,
            rng: Rng(plan.seed ^ (0x5851_f42d_4c95_7f2d_u64.wrapping_mul(c as u64 + 1))),
            log: Log::default(),
        };
        tasks.push(tokio::spawn(player.play_games()));
    }
    let mut logs = Vec::new();
    for t in tasks {
        logs.push(t.await.map_err(|e| fail(&e))?);
    }
    let load_seconds = started.elapsed().as_secs_f64();
    for g in logs.iter().flat_map(|l| &l.gave_up).take(10) {
        eprintln!("chaos: gave up on {g}");
    }
    let (mut gateway, kills) = chaos.await.map_err(|e| fail(&e))??;
    // Nothing may change while the database is checked.
    gateway.stop().await;
    if pg.running_pid().is_none() {
        let pg = pg.clone();
        tokio::task::spawn_blocking(move || pg.restart()).await.map_err(|e| fail(&e))?.map_err(|e| fail(&e))?;
    }
    eprintln!("chaos: load stopped after {load_seconds:.1} s; checking the database");
    let findings = check(&url, &logs).await?;
    Ok(Report { kills, findings, retries: logs.iter().map(|l| l.retries).sum(), unanswered: logs.iter().map(|l| l.unanswered).sum() })
}

/// A splitmix64 generator: the kill schedule and the clients' choices, from `--seed`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a kill hits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Gateway,
    Postgres,
}

/// The kills in order, each at its offset from the start of the load: the kinds shuffled, the
/// window from 10% to 80% of the run cut into one slot per kill and each kill at a random point
/// in the middle of its slot, so they spread over the run and the last restart is done before
/// the load stops.
fn schedule(plan: &Plan, rng: &mut Rng) -> Vec<(Duration, Target)> {
    let mut kinds: Vec<Target> =
        std::iter::repeat_n(Target::Gateway, plan.gateway_kills).chain(std::iter::repeat_n(Target::Postgres, plan.db_kills)).collect();
    for i in (1..kinds.len()).rev() {
        kinds.swap(i, rng.below(i + 1));
    }
    let seconds = plan.seconds as f64;
    let (from, to) = (0.1 * seconds, 0.8 * seconds);
    let slot = (to - from) / kinds.len().max(1) as f64;
    kinds.into_iter().enumerate().map(|(i, k)| (Duration::from_secs_f64(from + slot * (i as f64 + 0.15 + 0.7 * rng.unit())), k)).collect()
}

/// Kills carried out.
#[derive(Default, Clone, Copy)]
struct Kills {
    gateway: usize,
    postgres: usize,
}

/// How long the service runs undisturbed after a restart before the next kill, so that kills
/// falling behind their schedule (a PostgreSQL restart takes seconds) do not follow each other
/// back to back and leave the database down for most of the run.
const SETTLE: Duration = Duration::from_secs(2);

/// Carries out the kills one after another (a restart is complete, and [`SETTLE`] has passed,
/// before the next kill), and restarts a gateway that exits by itself, until the load stops;
/// kills still due then are not carried out.
async fn chaos(
    events: Vec<(Duration, Target)>,
    mut gateway: Gateway,
    pg: Arc<LocalPostgres>,
    started: Instant,
    end: Instant,
) -> Result<(Gateway, Kills), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let mut kills = Kills::default();
    let mut events = events.into_iter();
    let mut next = events.next();
    let mut settled = Instant::now();
    while Instant::now() < end {
        if gateway.exited() {
            eprintln!("chaos: {:.1} s: the gateway exited by itself; restarting it", started.elapsed().as_secs_f64());
            gateway.start().await?;
        }
        let Some((at, target)) = next else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if started.elapsed() < at || Instant::now() < settled {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        next = events.next();
        let when = started.elapsed().as_secs_f64();
        match target {
            Target::Gateway => {
                let pid = gateway.kill().await;
                kills.gateway += 1;
                let up = gateway.start().await?;
                eprintln!("chaos: {when:.1} s: SIGKILL gateway (pid {pid}); serving again after {:.1} s", up.as_secs_f64());
            }
            Target::Postgres => {
                let t0 = Instant::now();
                let pid = pg.running_pid().unwrap_or(0);
                let p = pg.clone();
                tokio::task::spawn_blocking(move || p.kill()).await.map_err(|e| fail(&e))?.map_err(|e| fail(&e))?;
                kills.postgres += 1;
                let p = pg.clone();
                tokio::task::spawn_blocking(move || p.restart()).await.map_err(|e| fail(&e))?.map_err(|e| fail(&e))?;
                eprintln!(
                    "chaos: {when:.1} s: SIGKILL postmaster (pid {pid}); accepting connections again after {:.1} s",
                    t0.elapsed().as_secs_f64()
                );
            }
        }
        settled = Instant::now() + SETTLE;
    }
    Ok((gateway, kills))
}

/// The gateway child process: `wordgame serve` on the private database.
struct Gateway {
    exe: PathBuf,
    port: u16,
    url: String,
    log: PathBuf,
    child: Option<tokio::process::Child>,
    /// The run's seed: each start serves with `serve --seed` from it and the start's number (so
    /// robots think a count of rounds, not the loaded machine's milliseconds, and a restart
    /// makes no game id an earlier start made).
    seed: u64,
    spawns: u64,
}

impl Gateway {
    /// How long a start may take before the run fails.
    const START_LIMIT: Duration = Duration::from_secs(60);

    /// Starts the gateway unless it runs, and waits until its port answers; how long that took.
    async fn start(&mut self) -> Result<Duration, CliError> {
        let t0 = Instant::now();
        loop {
            if self.child.is_none() || self.exited() {
                self.child = Some(self.spawn()?);
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await.is_ok() {
                return Ok(t0.elapsed());
            }
            if t0.elapsed() > Gateway::START_LIMIT {
                return Err(CliError::Input(format!("the gateway did not start; see {}", self.log.display())));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn spawn(&mut self) -> Result<tokio::process::Child, CliError> {
        self.spawns += 1;
        let seed = self.seed ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(self.spawns);
        let fail = |e: &dyn std::fmt::Display| CliError::Input(format!("cannot start the gateway: {e}"));
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).map_err(|e| fail(&e))?;
        let err = log.try_clone().map_err(|e| fail(&e))?;
        tokio::process::Command::new(&self.exe)
            .args(["serve", "--port", &self.port.to_string(), "--seed", &seed.to_string()])
            .env("DATABASE_URL", &self.url)
            .stdin(std::process::Stdio::null())
            .stdout(log)
            .stderr(err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| fail(&e))
    }

    /// Whether the child has exited (a child never started counts as running nothing).
    fn exited(&mut self) -> bool {
        self.child.as_mut().is_some_and(|c| !matches!(c.try_wait(), Ok(None)))
    }

    /// SIGKILLs the child and reaps it; its pid.
    async fn kill(&mut self) -> u32 {
        let Some(mut child) = self.child.take() else { return 0 };
        let pid = child.id().unwrap_or(0);
        let _ = child.start_kill();
        let _ = child.wait().await;
        pid
    }

    /// Stops the child at the end of the run.
    async fn stop(&mut self) {
        self.kill().await;
    }
}

/// What one client was told, definitively.
#[derive(Default)]
struct Log {
    /// Games whose creation was acknowledged (201).
    games: Vec<Uuid>,
    /// Moves acknowledged in a submit's answer (200).
    moves: Vec<Acked>,
    /// Move counts seen in acknowledged game views.
    views: Vec<(Uuid, u32)>,
    /// Requests sent again after a connection error, a timeout or a 5xx answer.
    retries: u64,
    /// Requests given up on at their deadline.
    unanswered: u64,
    /// Each of those: the request, when it was first sent, and its last failure.
    gave_up: Vec<String>,
}

/// One acknowledged journal entry.
struct Acked {
    game: Uuid,
    move_no: u32,
    seat: i16,
    kind: String,
    score: i32,
    /// The submit's client move id, for the caller's own move.
    client_move_id: Option<Uuid>,
}

/// A submit's answer: the moves written and the game afterwards.
#[derive(serde::Deserialize)]
struct Submitted {
    moves: Vec<MoveLite>,
    game: View,
}

/// The facts of a written move the check compares.
#[derive(serde::Deserialize)]
struct MoveLite {
    move_no: u32,
    seat: i16,
    kind: String,
    score: i32,
}

/// One load client: plays games as alice and bob in turn until the load stops.
struct Player {
    http: Http,
    base: String,
    tokens: [String; 2],
    ids: [Uuid; 2],
    request: Duration,
    started: Instant,
    end: Instant,
    rng: Rng,
    log: Log,
}

impl Player {
    /// How many answers that move nothing forward a game may get before the client leaves it.
    const STALLS: u32 = 5;

    /// Robot and two-human games alternately, each played to its end or until the load stops.
    async fn play_games(mut self) -> Log {
        let mut n = 0u64;
        while Instant::now() < self.end {
            let robot_game = n.is_multiple_of(2);
            // Robot games are created by alice and bob in turn, two-human games by alice.
            let creator = if robot_game { ((n / 2) % 2) as usize } else { 0 };
            n += 1;
            let opponent = if robot_game { json!({"robot": self.robot_level()}) } else { json!({"account": self.ids[1]}) };
            // Every other two-human game is rated.
            let rated = !robot_game && (n / 2).is_multiple_of(2);
            let body = json!({"variant": "scrabble-en", "opponents": [opponent], "rated": rated});
            match self.send(creator, "POST", "/games", Some(&body)).await {
                Some((201, answer)) => {
                    if let Ok(mut view) = serde_json::from_slice::<View>(&answer) {
                        if !robot_game {
                            // A game seating another human starts once they accept.
                            let join = format!("/games/{}/join", view.game_id);
                            match self.send(1, "POST", &join, None).await {
                                Some((200, answer)) => match serde_json::from_slice::<View>(&answer) {
                                    Ok(accepted) => view = accepted,
                                    Err(_) => continue,
                                },
                                _ => continue,
                            }
                        }
                        self.log.games.push(view.game_id);
                        self.log.views.push((view.game_id, view.move_count));
                        self.play(view).await;
                    }
                }
                Some(_) | None => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        self.log
    }

    /// Mostly the cheap robot, sometimes the others.
    fn robot_level(&mut self) -> &'static str {
        match self.rng.below(16) {
            0 => "hard",
            1..=3 => "medium",
            _ => "easy",
        }
    }

    /// Plays one game: the side to move submits its top hint (or passes).
    async fn play(&mut self, mut view: View) {
        let id = view.game_id;
        let mut stalls = 0;
        while Instant::now() < self.end && view.status == "active" && stalls < Player::STALLS {
            // A robot to move would be a defect; the check finds such games.
            let Some(who) = self.side_to_move(&view) else { break };
            let mv = match self.send(who, "GET", &format!("/games/{id}/hint?limit=1"), None).await {
                Some((200, body)) => match serde_json::from_slice::<Hints>(&body).ok().and_then(|h| h.hints.into_iter().next()) {
                    Some(h) => json!({"kind": "play", "placements": h.placements}),
                    None => json!({"kind": "pass"}),
                },
                Some(_) => {
                    stalls += 1;
                    match self.reload(who, id).await {
                        Some(v) => view = v,
                        None => break,
                    }
                    continue;
                }
                None => break,
            };
            let client_move_id = Uuid::new_v4();
            let body = json!({"expected_move_no": view.move_count, "client_move_id": client_move_id, "move": mv});
            let answer = self.send(who, "POST", &format!("/games/{id}/moves"), Some(&body)).await;
            match answer.as_ref().map(|(s, b)| (*s, serde_json::from_slice::<Submitted>(b))) {
                Some((200, Ok(submitted))) => {
                    for (i, m) in submitted.moves.into_iter().enumerate() {
                        self.log.moves.push(Acked {
                            game: id,
                            move_no: m.move_no,
                            seat: m.seat,
                            kind: m.kind,
                            score: m.score,
                            client_move_id: (i == 0).then_some(client_move_id),
                        });
                    }
                    view = submitted.game;
                    self.log.views.push((id, view.move_count));
                    stalls = 0;
                }
                // A stale move (say, a retry of a move made meanwhile), a conflict or a
                // rejection: read the game again and go on from there.
                Some(_) => {
                    stalls += 1;
                    match self.reload(who, id).await {
                        Some(v) => view = v,
                        None => break,
                    }
                }
                None => break,
            }
        }
    }

    /// Which of the client's two accounts holds the seat to move; `None` for a robot.
    fn side_to_move(&self, view: &View) -> Option<usize> {
        let account = view.seats.get(view.to_move?)?.account_id?;
        self.ids.iter().position(|&i| i == account)
    }

    /// The game as `who` sees it now.
    async fn reload(&mut self, who: usize, id: Uuid) -> Option<View> {
        let (status, body) = self.send(who, "GET", &format!("/games/{id}"), None).await?;
        let view: View = (status == 200).then(|| serde_json::from_slice(&body).ok()).flatten()?;
        self.log.views.push((id, view.move_count));
        Some(view)
    }

    /// One request, sent again (the same body) after a connection error, a timeout or a 5xx
    /// answer with a short backoff, until a definitive answer or the request's deadline.
    async fn send(&mut self, who: usize, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Bytes)> {
        let sent = Instant::now();
        let give_up = sent + self.request;
        let mut backoff = Duration::from_millis(50);
        let mut failures: Vec<String> = Vec::new();
        loop {
            let left = give_up.saturating_duration_since(Instant::now());
            let attempt = tokio::time::timeout(left, call(&self.http, &self.base, &self.tokens[who], method, path, body.cloned())).await;
            let failure = match attempt {
                Ok(Ok((status, answer))) if status < 500 => return Some((status, answer)),
                Ok(Ok((status, answer))) => format!("{status} {}", String::from_utf8_lossy(&answer[..answer.len().min(200)])),
                Ok(Err(e)) => e.to_string(),
                Err(_) => "no answer".to_string(),
            };
            let at = sent.saturating_duration_since(self.started).as_secs_f64();
            failures.push(format!("{:.1} s: {failure}", Instant::now().saturating_duration_since(self.started).as_secs_f64()));
            if Instant::now() + backoff >= give_up {
                self.log.unanswered += 1;
                self.log.gave_up.push(format!("{method} {path} sent at {at:.1} s: {}", failures.join("; ")));
                return None;
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_millis(800));
            self.log.retries += 1;
        }
    }
}

/// What the check found.
#[derive(Default)]
struct Findings {
    games: usize,
    acknowledged_games: usize,
    lost_games: usize,
    acknowledged_moves: usize,
    missing_moves: usize,
    partial_games: usize,
    count_mismatches: usize,
    waiting_on_robot: usize,
    replay_failures: usize,
    /// Rated games finished, and finished with a result for the ratings.
    rated_games: (usize, usize),
    /// Rating changes missing, doubled, or not starting from the change before.
    rating_defects: usize,
    /// One line per defect.
    details: Vec<String>,
}

/// The run's outcome.
struct Report {
    kills: Kills,
    findings: Findings,
    retries: u64,
    unanswered: u64,
}

impl Report {
    fn defects(&self) -> usize {
        let f = &self.findings;
        f.lost_games + f.missing_moves + f.partial_games + f.count_mismatches + f.waiting_on_robot + f.replay_failures + f.rating_defects
    }

    fn line(&self) -> String {
        let f = &self.findings;
        format!(
            "kills: gateway {}, postgres {}; games {} (acknowledged {}, lost {}); acknowledged moves {}, missing {}; partial games {}; \
             move_count mismatches {}; games waiting on a robot {}; replay failures {}; rated games finished {} (rated {}), \
             rating defects {}; retries {}, unanswered {}",
            self.kills.gateway,
            self.kills.postgres,
            f.games,
            f.acknowledged_games,
            f.lost_games,
            f.acknowledged_moves,
            f.missing_moves,
            f.partial_games,
            f.count_mismatches,
            f.waiting_on_robot,
            f.replay_failures,
            f.rated_games.0,
            f.rated_games.1,
            f.rating_defects,
            self.retries,
            self.unanswered
        )
    }
}

/// A stored journal row's facts.
struct Row {
    seat: i16,
    kind: String,
    score: i32,
    client_move_id: Option<Uuid>,
}

/// Checks the database directly against what the clients were told.
async fn check(url: &str, logs: &[Log]) -> Result<Findings, CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(format!("check: {e}"));
    // The server was just restarted: give it a moment to accept connections.
    let t0 = Instant::now();
    let pool = loop {
        match store::pool_options(4, store::PING_AFTER_IDLE).connect(url).await {
            Ok(p) => break p,
            Err(e) if t0.elapsed() > Duration::from_secs(30) => return Err(fail(&e)),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    let games: Vec<(Uuid, i16, i32, String)> =
        sqlx::query_as("SELECT game_id, seats, move_count, status FROM games ORDER BY created_at, game_id")
            .fetch_all(&pool)
            .await
            .map_err(|e| fail(&e))?;
    let rows: Vec<(Uuid, i32, i16, String, i32, Option<Uuid>)> =
        sqlx::query_as("SELECT game_id, move_no, seat, kind, score, client_move_id FROM game_moves")
            .fetch_all(&pool)
            .await
            .map_err(|e| fail(&e))?;
    let count_by_game = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            let counts: Vec<(Uuid, i64)> = sqlx::query_as(sql).fetch_all(&pool).await.map_err(|e| fail(&e))?;
            Ok::<HashMap<Uuid, i64>, CliError>(counts.into_iter().collect())
        }
    };
    let players = count_by_game("SELECT game_id, count(*) FROM game_players GROUP BY game_id").await?;
    let draws = count_by_game("SELECT game_id, count(*) FROM game_setup_draws GROUP BY game_id").await?;

    let mut stored: HashMap<(Uuid, u32), Row> = HashMap::new();
    let mut numbers: HashMap<Uuid, Vec<u32>> = HashMap::new();
    for (game, move_no, seat, kind, score, client_move_id) in rows {
        numbers.entry(game).or_default().push(move_no as u32);
        stored.insert((game, move_no as u32), Row { seat, kind, score, client_move_id });
    }
    let mut f = Findings { games: games.len(), ..Findings::default() };

    // Every acknowledged game and move is stored, as acknowledged.
    let known: HashSet<Uuid> = games.iter().map(|g| g.0).collect();
    let acknowledged: HashSet<Uuid> = logs.iter().flat_map(|l| l.games.iter().copied()).collect();
    f.acknowledged_games = acknowledged.len();
    for g in acknowledged.iter().filter(|g| !known.contains(g)) {
        f.lost_games += 1;
        f.details.push(format!("game {g}: its creation was acknowledged but it is not stored"));
    }
    let mut acked: HashMap<(Uuid, u32), Vec<&Acked>> = HashMap::new();
    for l in logs {
        for m in &l.moves {
            acked.entry((m.game, m.move_no)).or_default().push(m);
        }
        for &(game, count) in &l.views {
            for move_no in 0..count {
                acked.entry((game, move_no)).or_default();
            }
        }
    }
    f.acknowledged_moves = acked.len();
    let mut keys: Vec<_> = acked.keys().copied().collect();
    keys.sort();
    for key in keys {
        let (game, move_no) = key;
        let problem = match stored.get(&key) {
            None => Some("acknowledged but not in the journal".to_string()),
            Some(row) => acked[&key].iter().find_map(|a| {
                if (a.seat, a.kind.as_str(), a.score) != (row.seat, row.kind.as_str(), row.score) {
                    Some(format!(
                        "acknowledged as seat {} {} for {}, stored as seat {} {} for {}",
                        a.seat, a.kind, a.score, row.seat, row.kind, row.score
                    ))
                } else if a.client_move_id.is_some() && a.client_move_id != row.client_move_id {
                    Some(format!("acknowledged under client move id {:?}, stored under {:?}", a.client_move_id, row.client_move_id))
                } else {
                    None
                }
            }),
        };
        if let Some(p) = problem {
            f.missing_moves += 1;
            f.details.push(format!("game {game} move {move_no}: {p}"));
        }
    }

    // Every game is whole, consistent, loads, replays, and waits on no robot.
    let store = Store::new(pool.clone());
    let families = games::Families::new(Arc::new(engine::Lexicons::builtin()));
    for (game_id, seats, move_count, status) in &games {
        let mut nos = numbers.remove(game_id).unwrap_or_default();
        nos.sort_unstable();
        let mut partial = Vec::new();
        if let Some(gap) = nos.iter().enumerate().position(|(i, &n)| n != i as u32) {
            partial.push(format!("no move {gap} among its {} journal rows", nos.len()));
        }
        let seated = players.get(game_id).copied().unwrap_or(0);
        if seated != i64::from(*seats) {
            partial.push(format!("{seated} seat rows for {seats} seats"));
        }
        let drawn = draws.get(game_id).copied().unwrap_or(0);
        if drawn < i64::from(*seats) {
            partial.push(format!("{drawn} first-move draw rows for {seats} seats"));
        }
        if !partial.is_empty() {
            f.partial_games += 1;
            f.details.push(format!("game {game_id} ({status}): partial: {}", partial.join(", ")));
        }
        if *move_count as usize != nos.len() {
            f.count_mismatches += 1;
            f.details.push(format!("game {game_id} ({status}): move_count {move_count}, journal {}", nos.len()));
        }
        let record = match store.game(*game_id).await {
            Ok(r) => r,
            Err(e) => {
                f.replay_failures += 1;
                f.details.push(format!("game {game_id} ({status}): does not load: {e}"));
                continue;
            }
        };
        let game = match families.replay(&service::stored(&record)) {
            Ok(g) => g,
            Err(e) => {
                f.replay_failures += 1;
                f.details.push(format!("game {game_id} ({status}): does not replay: {e}"));
                continue;
            }
        };
        if game.move_count() != record.move_count || game.is_over() != (record.status == GameStatus::Finished) {
            f.replay_failures += 1;
            f.details.push(format!(
                "game {game_id} ({status}): replays to {} moves{}, stored {} moves",
                game.move_count(),
                if game.is_over() { ", over" } else { "" },
                record.move_count
            ));
        }
        let seat = game.to_move().index();
        let robot = record.players.get(seat).and_then(|p| p.account.as_ref()).filter(|a| a.kind == AccountKind::Robot);
        if record.status == GameStatus::Active && !game.is_over() && robot.is_some() {
            f.waiting_on_robot += 1;
            let name = robot.map_or("", |a| a.display_name.as_str());
            f.details.push(format!("game {game_id}: active at move {} and waiting on {name} in seat {seat}", record.move_count));
        }
    }
    check_ratings(&pool, &families, &store, &mut f).await.map_err(|e| fail(&e))?;
    pool.close().await;
    Ok(f)
}

/// Every finished rated game that both players moved in changed both ratings exactly once; no
/// other game changed any; each account's changes chain (each starts from the rating the one
/// before ended at); each rating counts its changes.
async fn check_ratings(pool: &sqlx::PgPool, families: &games::Families, store: &Store, f: &mut Findings) -> Result<(), sqlx::Error> {
    let rated: Vec<(Uuid, String)> = sqlx::query_as("SELECT game_id, status FROM games WHERE rated").fetch_all(pool).await?;
    let changes: Vec<(Uuid, Uuid, f64, f64)> = sqlx::query_as(
        "SELECT game_id, account_id, rating_before, rating_after FROM rating_changes ORDER BY account_id, rated_at, game_id",
    )
    .fetch_all(pool)
    .await?;
    let mut per_game: HashMap<Uuid, usize> = HashMap::new();
    for c in &changes {
        *per_game.entry(c.0).or_default() += 1;
    }
    for (game_id, status) in &rated {
        let Ok(record) = store.game(*game_id).await else { continue };
        let Ok(game) = families.replay(&service::stored(&record)) else { continue };
        let finished = status == "finished";
        let counts = finished && !service::aborted(&game, record.seats);
        f.rated_games.0 += usize::from(finished);
        f.rated_games.1 += usize::from(counts);
        let want = if counts { 2 } else { 0 };
        let have = per_game.get(game_id).copied().unwrap_or(0);
        if have != want {
            f.rating_defects += 1;
            f.details.push(format!("rated game {game_id} ({status}): {have} rating changes, {want} due"));
        }
    }
    for pair in changes.windows(2).filter(|w| w[0].1 == w[1].1) {
        if (pair[1].2 - pair[0].3).abs() > 1e-9 {
            f.rating_defects += 1;
            f.details.push(format!(
                "account {}: game {} started from {}, the game before ended at {}",
                pair[1].1, pair[1].0, pair[1].2, pair[0].3
            ));
        }
    }
    let counted: Vec<(Uuid, i64, i64)> = sqlx::query_as(
        "SELECT r.account_id, r.games::bigint, (SELECT count(*) FROM rating_changes c WHERE c.account_id = r.account_id
                AND c.variant = r.variant AND c.speed = r.speed) FROM ratings r",
    )
    .fetch_all(pool)
    .await?;
    for (account, games, changes) in counted.into_iter().filter(|c| c.1 != c.2) {
        f.rating_defects += 1;
        f.details.push(format!("account {account}: {games} rated games counted, {changes} changes kept"));
    }
    Ok(())
}
