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
//! before and going the way the game's result says. Beside the load, a director runs a rated
//! real-time tournament whose two games end on time (one flagger ahead on the board, one at 0–0):
//! its games are watched until their flags fall, and its standings and `.t` export must give
//! every player the wins and losses the games' replays give. One line gives the counts; any
//! defect makes the exit code 2. Loopback only; bounded in time and count.

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
    let accounts = |names: &[String], director: bool| -> (Vec<String>, Vec<Uuid>) {
        let groups: &[&str] = if director { &["director"] } else { &[] };
        (
            names.iter().map(|n| api::jwt::demo_token_in(n, groups, 1, now)).collect(),
            names.iter().map(|n| api::jwt::demo_account_id(n)).collect(),
        )
    };
    let player = |c: u64, (tokens, ids): (Vec<String>, Vec<Uuid>)| Player {
        http: http.clone(),
        base: format!("http://127.0.0.1:{port}"),
        tokens,
        ids,
        request: plan.request,
        started,
        end,
        rng: Rng(plan.seed ^ (0x5851_f42d_4c95_7f2d_u64.wrapping_mul(c + 1))),
        log: Log::default(),
    };
    let mut tasks = Vec::new();
    for c in 0..plan.clients {
        // Robot games as alice and bob; two-human games between the client's own accounts, pair
        // after pair, so the rated ones stay within the pair limit.
        let mut names: Vec<String> = vec!["alice".into(), "bob".into()];
        names.extend((0..RATED_POOL).map(|k| format!("chaos-{c}-{k}")));
        tasks.push(tokio::spawn(player(c as u64, accounts(&names, false)).play_games()));
    }
    // One tournament: a director and four players, real-time games whose flags fall.
    let mut names: Vec<String> = vec!["chaos-director".into()];
    names.extend((0..4).map(|k| format!("chaos-entrant-{k}")));
    let (mut tokens, ids) = accounts(&names, false);
    tokens[0] = accounts(&names[..1], true).0.remove(0);
    tasks.push(tokio::spawn(player(u64::MAX - 1, (tokens, ids)).run_tournament()));
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
    /// Tournaments created.
    tournaments: Vec<Uuid>,
}

/// Accounts each client plays its two-human games between (every pair in turn: 3 rated games a
/// day per pair, `service::RATED_GAMES_PER_PAIR_PER_DAY`, times 6 pairs).
const RATED_POOL: usize = 4;

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
    /// Each account's token (robot games as the first two, two-human games between the rest).
    tokens: Vec<String>,
    ids: Vec<Uuid>,
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
        // Every account exists before anyone invites it.
        for who in 2..self.ids.len() {
            self.send(who, "GET", "/me", None).await;
        }
        let pairs: Vec<(usize, usize)> = (2..self.ids.len()).flat_map(|a| (a + 1..self.ids.len()).map(move |b| (a, b))).collect();
        let mut n = 0u64;
        while Instant::now() < self.end {
            let robot_game = n.is_multiple_of(2);
            // Robot games are created by alice and bob in turn, two-human games by the pair's first.
            let (pair_first, pair_second) = pairs[(n / 2) as usize % pairs.len()];
            let creator = if robot_game { ((n / 2) % 2) as usize } else { pair_first };
            n += 1;
            let opponent = if robot_game { json!({"robot": self.robot_level()}) } else { json!({"account": self.ids[pair_second]}) };
            // Every other two-human game is rated.
            let rated = !robot_game && (n / 2).is_multiple_of(2);
            let body = json!({"variant": "scrabble-en", "opponents": [opponent], "rated": rated});
            match self.send(creator, "POST", "/games", Some(&body)).await {
                Some((201, answer)) => {
                    if let Ok(mut view) = serde_json::from_slice::<View>(&answer) {
                        if !robot_game {
                            // A game seating another human starts once they accept.
                            let join = format!("/games/{}/join", view.game_id);
                            match self.send(pair_second, "POST", &join, None).await {
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

    /// The tournament: the director (account 0) makes a rated, real-time round robin of the four
    /// others (60 s each, no overtime), pairs and starts round 1, and the players draw by hand.
    /// At the first table the first mover plays, the second passes, and the first then lets its
    /// flag fall while ahead; at the second the first mover lets it fall at 0–0. The games are
    /// watched (a view records a fall) until they end, however long after the load that is.
    async fn run_tournament(mut self) -> Log {
        for who in 0..self.ids.len() {
            self.send(who, "GET", "/me", None).await;
        }
        let clock = json!({"kind": "realtime", "initial_seconds": 60, "increment_seconds": 0, "max_overtime_minutes": 0});
        let body = json!({"name": "Chaos cup", "variant": "scrabble-en", "pairing": "round_robin", "rounds": 3, "rated": true, "time_control": clock});
        let created = self.send(0, "POST", "/tournaments", Some(&body)).await;
        let Some(id) = created.and_then(|(_, b)| serde_json::from_slice::<Value>(&b).ok()?["tournament_id"].as_str()?.parse::<Uuid>().ok())
        else {
            return self.log;
        };
        self.log.tournaments.push(id);
        // The director invites each player, who accepts: no one is paired without entering.
        for k in 1..self.ids.len() {
            self.send(0, "POST", &format!("/tournaments/{id}/players"), Some(&json!({"account_id": self.ids[k]}))).await;
            self.send(k, "POST", &format!("/tournaments/{id}/enter"), None).await;
        }
        self.send(0, "POST", &format!("/tournaments/{id}/rounds"), None).await;
        self.send(0, "POST", &format!("/tournaments/{id}/rounds/1/start"), None).await;
        let Some((200, body)) = self.send(0, "GET", &format!("/tournaments/{id}"), None).await else { return self.log };
        let t: Value = serde_json::from_slice(&body).unwrap_or_default();
        let tables: Vec<Uuid> =
            t["pairings"][0]["tables"].as_array().into_iter().flatten().filter_map(|x| x["game_id"].as_str()?.parse().ok()).collect();
        for (table, &game) in tables.iter().enumerate() {
            self.log.games.push(game);
            let Some(view) = self.drawn(game).await else { continue };
            // Table 1: a play and a pass, then the first mover stalls, ahead; table 2: at once.
            let moves = if table == 0 { 2 } else { 0 };
            let mut view = view;
            for n in 0..moves {
                let Some(who) = self.side_to_move_of(&view) else { break };
                // A rated game has no hints: its top play is found here.
                let mv = if n == 0 {
                    match self.reload(who, game).await {
                        Some(mine) => json!(wordgame::top_play::top_play(&mine.table, mine.rack.as_deref().unwrap_or_default())),
                        None => json!({"kind": "pass"}),
                    }
                } else {
                    json!({"kind": "pass"})
                };
                match self.submit(who, game, view["move_count"].as_u64().unwrap_or(0) as u32, mv).await {
                    Some(next) => view = next,
                    None => break,
                }
            }
        }
        // Watch the games until their flags fall: 60 s after the last move, and the outages
        // (the kills) the clocks skip.
        let watch_until = Instant::now() + Duration::from_secs(180);
        let mut open: Vec<(Uuid, usize)> = Vec::new();
        for &game in &tables {
            if let Some(viewer) = self.seated(game).await {
                open.push((game, viewer));
            }
        }
        while !open.is_empty() && Instant::now() < watch_until {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let mut still = Vec::new();
            for (game, viewer) in open {
                match self.send(viewer, "GET", &format!("/games/{game}"), None).await {
                    Some((200, b)) if serde_json::from_slice::<Value>(&b).is_ok_and(|v| v["status"] == "finished") => {}
                    _ => still.push((game, viewer)),
                }
            }
            open = still;
        }
        self.log
    }

    /// The game drawn for by its players (each seat the draw waits on draws a tile, as the
    /// player at that seat), then its view; none if the draw does not end.
    async fn drawn(&mut self, game: Uuid) -> Option<Value> {
        let viewer = self.seated(game).await?;
        for _ in 0..40 {
            let (status, body) = self.send(viewer, "GET", &format!("/games/{game}"), None).await?;
            let view: Value = (status == 200).then(|| serde_json::from_slice(&body).ok()).flatten()?;
            if view["status"] != "drawing" {
                return Some(view);
            }
            for seat in view["drawing"]["to_draw"].as_array().cloned().unwrap_or_default() {
                let account = view["seats"][seat.as_u64()? as usize]["account_id"].as_str().and_then(|a| a.parse::<Uuid>().ok());
                let who = self.ids.iter().position(|&i| Some(i) == account)?;
                self.send(who, "POST", &format!("/games/{game}/draw"), Some(&json!({"client_draw_id": Uuid::new_v4()}))).await;
            }
        }
        None
    }

    /// An account (an entrant) seated in `game`: the first whose view of it is not refused.
    async fn seated(&mut self, game: Uuid) -> Option<usize> {
        for who in 1..self.ids.len() {
            if let Some((200, _)) = self.send(who, "GET", &format!("/games/{game}"), None).await {
                return Some(who);
            }
        }
        None
    }

    /// Which account holds the seat to move in a view read as JSON.
    fn side_to_move_of(&self, view: &Value) -> Option<usize> {
        let account: Uuid = view["seats"][view["to_move"].as_u64()? as usize]["account_id"].as_str()?.parse().ok()?;
        self.ids.iter().position(|&i| i == account)
    }

    /// Submits `mv` as `who` at move `move_no`, noting what the answer acknowledged: the game
    /// afterwards.
    async fn submit(&mut self, who: usize, game: Uuid, move_no: u32, mv: Value) -> Option<Value> {
        let client_move_id = Uuid::new_v4();
        let body = json!({"expected_move_no": move_no, "client_move_id": client_move_id, "move": mv});
        let (status, answer) = self.send(who, "POST", &format!("/games/{game}/moves"), Some(&body)).await?;
        let submitted: Value = (status == 200).then(|| serde_json::from_slice(&answer).ok()).flatten()?;
        for (i, m) in submitted["moves"].as_array().into_iter().flatten().enumerate() {
            self.log.moves.push(Acked {
                game,
                move_no: m["move_no"].as_u64()? as u32,
                seat: m["seat"].as_i64()? as i16,
                kind: m["kind"].as_str()?.to_string(),
                score: m["score"].as_i64()? as i32,
                client_move_id: (i == 0).then_some(client_move_id),
            });
        }
        Some(submitted["game"].clone())
    }

    /// Mostly the cheap robot, sometimes the others.
    fn robot_level(&mut self) -> &'static str {
        match self.rng.below(16) {
            0 => "hard",
            1..=3 => "medium",
            _ => "easy",
        }
    }

    /// Plays one game: the side to move submits its top hint (or passes); in a game without
    /// hints (a rated one), its top play found here ([`wordgame::top_play::top_play`]).
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
                Some((409, body)) if serde_json::from_slice::<Value>(&body).is_ok_and(|e| e["error"]["code"] == "no_hints_left") => {
                    let Some(mine) = self.reload(who, id).await else { break };
                    let mv = wordgame::top_play::top_play(&mine.table, mine.rack.as_deref().unwrap_or_default());
                    view = mine;
                    json!(mv)
                }
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
    /// Rating changes missing, doubled, not starting from the change before, or against the
    /// game's result.
    rating_defects: usize,
    /// Tournaments checked, their finished games, and those ended by a flag.
    tournaments: usize,
    tournament_games: usize,
    flags: usize,
    /// Standings or export lines that disagree with the games.
    tournament_defects: usize,
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
        f.lost_games
            + f.missing_moves
            + f.partial_games
            + f.count_mismatches
            + f.waiting_on_robot
            + f.replay_failures
            + f.rating_defects
            + f.tournament_defects
    }

    fn line(&self) -> String {
        let f = &self.findings;
        format!(
            "kills: gateway {}, postgres {}; games {} (acknowledged {}, lost {}); acknowledged moves {}, missing {}; partial games {}; \
             move_count mismatches {}; games waiting on a robot {}; replay failures {}; rated games finished {} (rated {}), \
             rating defects {}; tournaments {} ({} games finished, {} on time), tournament defects {}; retries {}, unanswered {}",
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
            f.tournaments,
            f.tournament_games,
            f.flags,
            f.tournament_defects,
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
        // A tournament game still drawing by hand has only the picks made so far.
        if drawn < i64::from(*seats) && status != "drawing" {
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
    check_tournaments(&store, logs, &mut f).await?;
    pool.close().await;
    Ok(f)
}

/// Who won a finished game, by its replay: whether each of the accounts in `players` is among
/// the winners, and whether the game ended on time.
fn replayed_result(families: &games::Families, record: &store::GameRecord) -> Option<(Vec<(Uuid, bool)>, bool)> {
    let game = families.replay(&service::stored(record)).ok()?;
    let outcome = game.outcome()?;
    let won = record
        .players
        .iter()
        .filter_map(|p| Some((p.account.as_ref()?.account_id, outcome.winners.iter().any(|w| w.index() == p.seat))))
        .collect();
    Some((won, outcome.reason == games::EndReason::Timeout))
}

/// Each player's (wins, losses, draws), by number.
type Record = HashMap<u32, (u32, u32, u32)>;

/// Every tournament's standings and `.t` export (read as a director would, through the service)
/// give each player the wins, losses and draws that the replays of their finished games give (a
/// flag fall, whatever the scores, a loss for the flagger).
async fn check_tournaments(store: &Store, logs: &[Log], f: &mut Findings) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(format!("check: {e}"));
    let families = games::Families::new(Arc::new(engine::Lexicons::builtin()));
    let service = service::Service::new(store.clone(), families.clone(), service::Runtime::system());
    for &id in logs.iter().flat_map(|l| &l.tournaments) {
        f.tournaments += 1;
        let view = service.admin_tournament(id).await.map_err(|e| fail(&e))?;
        let export = tournament::tsh_parse(&service.tournament_export(id).await.map_err(|e| fail(&e))?).map_err(|e| fail(&e))?;
        let number: HashMap<Uuid, u32> = view.players.iter().map(|p| (p.account_id, p.player_no)).collect();
        // Each player's (wins, losses, draws) by the games' replays: over every finished game
        // (the standings), and over the rounds whose games all finished (the export).
        let (mut want, mut want_export): (Record, Record) = Default::default();
        for round in &view.pairings {
            let mut lines: Vec<(u32, usize)> = Vec::new();
            let mut complete = true;
            for game_id in round.tables.iter().filter_map(|t| t.game_id) {
                let record = store.game(game_id).await.ok().filter(|r| r.status == GameStatus::Finished);
                let Some((won, on_time)) = record.as_ref().and_then(|r| replayed_result(&families, r)) else {
                    complete = false;
                    continue;
                };
                f.tournament_games += 1;
                f.flags += usize::from(on_time);
                let all_won = won.iter().all(|w| w.1);
                lines.extend(won.iter().map(|&(account, w)| {
                    (
                        number[&account],
                        if !w {
                            1
                        } else if all_won {
                            2
                        } else {
                            0
                        },
                    )
                }));
            }
            for (no, result) in lines {
                for table in [&mut want].into_iter().chain(complete.then_some(&mut want_export)) {
                    let line = table.entry(no).or_default();
                    match result {
                        0 => line.0 += 1,
                        1 => line.1 += 1,
                        _ => line.2 += 1,
                    }
                }
            }
        }
        for s in &view.standings {
            let expected = want.get(&s.player_no).copied().unwrap_or_default();
            if (s.wins, s.losses, s.draws) != expected {
                f.tournament_defects += 1;
                f.details.push(format!(
                    "tournament {id}: player {} stands {}-{}-{}, the games say {expected:?}",
                    s.player_no, s.wins, s.losses, s.draws
                ));
            }
        }
        for (i, line) in export.iter().enumerate() {
            let no = i as u32 + 1;
            let mut got = (0, 0, 0);
            for (r, (&opponent, &score)) in line.opponents.iter().zip(&line.scores).enumerate() {
                let margin = if opponent == 0 { score } else { score - export[opponent as usize - 1].scores[r] };
                match margin.signum() {
                    1 => got.0 += 1,
                    -1 => got.1 += 1,
                    _ => got.2 += 1,
                }
            }
            let expected = want_export.get(&no).copied().unwrap_or_default();
            if got != expected {
                f.tournament_defects += 1;
                f.details.push(format!("tournament {id}: the export gives player {no} {got:?}, the games {expected:?}"));
            }
        }
    }
    Ok(())
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
        // The changes follow the game's own result: up for its winner, down for its loser.
        let Some((won, _)) = counts.then(|| replayed_result(families, &record)).flatten() else { continue };
        if won.iter().all(|w| w.1) {
            continue;
        }
        for c in changes.iter().filter(|c| c.0 == *game_id) {
            let winner = won.iter().any(|&(a, w)| a == c.1 && w);
            if (c.3 > c.2) != winner {
                f.rating_defects += 1;
                f.details.push(format!(
                    "rated game {game_id}: account {} {} yet its rating went {} to {}",
                    c.1,
                    if winner { "won" } else { "lost" },
                    c.2,
                    c.3
                ));
            }
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
