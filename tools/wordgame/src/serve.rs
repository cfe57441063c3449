//! `wordgame serve`: the local gateway. Every route at the same path as in AWS, through the very
//! handler functions the Lambda functions run: each request's development token is verified and
//! its claims injected the way API Gateway's authorisers do (a player route's from the
//! `Authorization` header; an admin page's, `/_gm/*`, from the admin session cookie only), and
//! the request becomes an HTTP API event parsed by `lambda_http`. `GET /_gm/signin?code=…` (the
//! URL `wordgame token --admin --browser` prints) redeems a one-time code for the session cookie.
//! The player web app is at `/` (a public route, as in AWS), and `/_dev/*` gives it the demo
//! accounts' tokens (local only: [`crate::dev_accounts`]).
//! It takes its port first, so a taken port fails before anything starts. Without
//! `DATABASE_URL` it then starts a private PostgreSQL with its data under `target/` (durable:
//! fsync and synchronous commit on), applies the migrations and creates the demo accounts; Ctrl-C
//! stops both. Started right after a crash, it waits for the crashed run's server to stop first.
//! A private server that dies is started again ([`heal_database`]); one that cannot be makes
//! `serve` exit non-zero with the reason.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use api::gateway::{Incoming, to_lambda};
use api::push::LocalHub;
use api::{ApiError, AppState, HttpCode, MAX_BODY, auth, handle, jwt, local_auth, telemetry};
use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming as HyperBody};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use store::Store;
use store::local::{LocalPostgres, StartOptions};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::CliError;

use crate::dev_accounts::DEMO_ACCOUNTS;

/// Arguments of `wordgame serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The port on 127.0.0.1.
    #[arg(long, default_value_t = 3000)]
    port: u16,
    /// Where the private PostgreSQL keeps its data (when DATABASE_URL is unset).
    #[arg(long, default_value = "target/wordgame-pg")]
    data_dir: String,
    /// Database connections in the pool (default: four per core, at least 4). More connections
    /// than the cores can run make PostgreSQL switch between backends rather than work.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    connections: Option<u32>,
    /// Requests handled at once (default: the pool's connections less one, at least 1: the
    /// sweep, the heartbeat and a request's rare second connection keep one); more wait their
    /// turn at the gateway, holding no database connection, rather than time out waiting for
    /// one: under load, latency grows and nothing is refused.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    in_flight: Option<u32>,
    /// Seconds between sweeps (timeouts past the deadline, expired open games), as the
    /// scheduled function runs it every minute in AWS.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    sweep_seconds: u64,
    /// An open game nobody joined for this many seconds is withdrawn by the sweep.
    #[arg(long, default_value_t = 7 * 86_400, value_parser = clap::value_parser!(i64).range(60..=7_776_000))]
    open_expiry_seconds: i64,
    /// Seconds a client has to send a request's headers, and again its body: one that stalls or
    /// trickles past it is answered 408 `request_timeout` (in its headers: disconnected), so it
    /// holds no connection for long.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    read_timeout_seconds: u64,
    /// Repeatable play, for tests: every first-move draw, bag, robot seed and game id comes from
    /// this seed, and robots and hints think a fixed count of rounds or nodes, not 40 ms. The
    /// draws are predictable: never for real games.
    #[arg(long)]
    seed: Option<u64>,
}

/// The pool size when `--connections` is not given: four per core, at least 4.
fn default_connections() -> u32 {
    std::thread::available_parallelism().map_or(4, |n| (4 * n.get() as u32).clamp(4, 32))
}

/// Runs the gateway until Ctrl-C.
///
/// # Errors
/// [`CliError::Input`] when the database cannot be had or the port is taken.
pub fn run(args: &Args) -> Result<(), CliError> {
    telemetry::init_text();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| CliError::Input(e.to_string()))?;
    let socket = reserve(SocketAddr::from(([127, 0, 0, 1], args.port)))?;
    let (url, local) = match std::env::var("DATABASE_URL") {
        Ok(url) => (url, None),
        Err(_) => {
            // Durable: a commit is on disk before the client hears of it, so a crash of the
            // machine or of PostgreSQL loses no acknowledged move.
            let pg = LocalPostgres::start_with(std::path::Path::new(&args.data_dir), StartOptions::DURABLE)
                .map_err(|e| CliError::Input(e.to_string()))?;
            tracing::info!(port = pg.port(), data = %pg.data_dir().display(), "started a private PostgreSQL");
            (pg.url("wordgame"), Some(Arc::new(pg)))
        }
    };
    let connections = args.connections.unwrap_or_else(default_connections);
    let sweep = service::SweepConfig::expiring_after(args.open_expiry_seconds);
    let every = std::time::Duration::from_secs(args.sweep_seconds);
    let play = match args.seed {
        Some(seed) => service::Runtime::seeded(Arc::new(service::SystemClock), seed),
        None => service::Runtime::system(),
    };
    let read_timeout = std::time::Duration::from_secs(args.read_timeout_seconds);
    let in_flight = args.in_flight.unwrap_or(connections.saturating_sub(1).max(1));
    let result = runtime.block_on(serve(socket, (connections, in_flight), &url, local.clone(), (every, sweep), play, read_timeout));
    // No task outlives the gateway: the database's watcher must not start the server again.
    drop(runtime);
    if let Some(pg) = &local {
        pg.stop();
    }
    result
}

/// The gateway's socket, bound to `addr` but not listening yet: the port is held while the
/// database starts, and a client that connects before the gateway is ready is refused, not
/// left waiting (readiness checks such as `chaos`'s still mean "serving").
///
/// # Errors
/// [`CliError::Input`] when the port is taken (or cannot be bound).
fn reserve(addr: SocketAddr) -> Result<tokio::net::TcpSocket, CliError> {
    let cannot = |e: std::io::Error| CliError::Input(format!("cannot listen on {addr}: {e}"));
    let socket = tokio::net::TcpSocket::new_v4().map_err(cannot)?;
    // As a listener's own bind does: a restart rebinds over its old connections' TIME_WAIT, while
    // a port another process listens on is still refused.
    socket.set_reuseaddr(true).map_err(cannot)?;
    socket.bind(addr).map_err(cannot)?;
    Ok(socket)
}

async fn serve(
    socket: tokio::net::TcpSocket,
    (connections, in_flight): (u32, u32),
    url: &str,
    local: Option<Arc<LocalPostgres>>,
    (every, sweep): (std::time::Duration, service::SweepConfig),
    runtime: service::Runtime,
    read_timeout: std::time::Duration,
) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    if let Some(pg) = &local {
        ensure_database(pg).await?;
    }
    let options = store::connect_options(url).map_err(|e| fail(&e))?;
    let pool = store::pool_options(connections, store::PING_AFTER_IDLE).connect_with(options).await.map_err(|e| fail(&e))?;
    let store = Store::new(pool);
    store.migrate().await.map_err(|e| fail(&e))?;
    for name in DEMO_ACCOUNTS {
        store.ensure_human(jwt::demo_account_id(name), name).await.map_err(|e| fail(&e))?;
    }
    // Every committed move is pushed, after its commit, to the `/ws` sockets subscribed to it.
    let hub = Arc::new(LocalHub::new(store.clone()));
    // Each request within the budget the functions have (`REQUEST_BUDGET_MS`, default 4 s).
    let budget = api::config::request_budget(|name| std::env::var(name).ok()).map_err(|e| fail(&e))?;
    let mut state = AppState::with_runtime(store, Arc::new(engine::Lexicons::builtin()), runtime).with_request_budget(budget);
    state.service = state.service.with_notifier(hub.clone());
    let state = Arc::new(state);
    // The Nối từ dictionary parsed before the first request is taken, outside every request's
    // budget: its first parse takes seconds in a debug build on a busy machine, and a game's
    // first request would answer 503.
    tokio::task::spawn_blocking(|| {
        noitu::Dictionary::builtin();
    })
    .await
    .map_err(|e| fail(&e))?;
    let addr = socket.local_addr().map_err(|e| fail(&e))?;
    let port = addr.port();
    let listener = socket.listen(1024).map_err(|e| CliError::Input(format!("cannot listen on {addr}: {e}")))?;
    tracing::info!(
        %addr,
        "serving; play in a browser at http://{addr}/ ; get a token with `wordgame token --account alice`, sign a browser in to /_gm with `{}`",
        local_auth::signin_command(port)
    );
    let secret = Arc::new(jwt::dev_secret());
    // At most `in_flight` requests are handled at once; the others wait here, holding nothing.
    let admission = Arc::new(tokio::sync::Semaphore::new(in_flight as usize));
    tracing::info!(connections, in_flight, "database pool and requests in flight");
    // The time this gateway was down (since its last heartbeat) is nobody's on the clocks.
    state.service.record_downtime(GATEWAY, 2 * HEARTBEAT_EVERY).await.map_err(|e| fail(&e))?;
    let _stop_beating = AbortOnDrop(tokio::spawn(beat_forever(state.clone())));
    let sweeper = tokio::spawn(sweep_forever(state.clone(), every, sweep));
    let _stop_sweeper = AbortOnDrop(sweeper);
    // The private PostgreSQL, started again whenever it dies; serve stops, with the reason, only
    // when it cannot be.
    let mut healer = local.map(|pg| AbortOnDrop(tokio::spawn(heal_database(pg, HEAL_CHECK_EVERY))));
    // One Ctrl-C listener for the whole loop: a listener made anew each turn would miss a
    // signal that arrived between two turns (while a connection was being handed off).
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            _ = &mut ctrl_c => {
                tracing::info!("stopping");
                return Ok(());
            }
            gone = async { match healer.as_mut() { Some(h) => (&mut h.0).await, None => std::future::pending().await } } => {
                let reason = gone.unwrap_or_else(|e| format!("the database's watcher failed: {e}"));
                tracing::error!(%reason, "stopping");
                return Err(CliError::Input(reason));
            }
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let (state, secret, hub, admission) = (state.clone(), secret.clone(), hub.clone(), admission.clone());
                tokio::spawn(async move {
                    let svc = service_fn(move |req: hyper::Request<HyperBody>| {
                        let (state, secret, hub, admission) = (state.clone(), secret.clone(), hub.clone(), admission.clone());
                        async move {
                            Ok::<_, Infallible>(if req.uri().path() == "/ws" {
                                websocket(state, hub, &secret, port, req).await
                            } else {
                                answer(&state, &secret, port, (read_timeout, &admission), req).await
                            })
                        }
                    });
                    let _ = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(read_timeout)
                        .serve_connection(TokioIo::new(stream), svc)
                        .with_upgrades()
                        .await;
                });
            }
        }
    }
}

/// Runs the sweep every `every`, as the scheduled function does in AWS.
async fn sweep_forever(state: Arc<AppState>, every: std::time::Duration, config: service::SweepConfig) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(e) = state.sweep(config).await {
            tracing::error!(error = %e, "sweep failed");
        }
    }
}

/// The local gateway's name in the heartbeats.
const GATEWAY: &str = "wordgame-serve";

/// How often the local gateway writes its heartbeat: the time it was down, from its last one to
/// its next start, is an outage no clock charges (at most this much of it may be time it was
/// still up).
const HEARTBEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Writes the gateway's heartbeat every [`HEARTBEAT_EVERY`] (a failure, the database down, is
/// an outage the requests record themselves).
async fn beat_forever(state: Arc<AppState>) {
    let mut ticks = tokio::time::interval(HEARTBEAT_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(e) = state.service.beat(GATEWAY).await {
            tracing::debug!(error = %e, "no heartbeat");
        }
    }
}

/// How often `serve` checks that its private PostgreSQL is still running.
const HEAL_CHECK_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// Watches the private PostgreSQL every `every`: when its postmaster is gone (killed, crashed,
/// stopped by hand), starts it again on the same data and port (crash recovery replays its log:
/// nothing it acknowledged is lost) and marks the pool's connections suspect, so each is pinged
/// before its next use and the dead ones are replaced instead of failing a request. A request
/// meanwhile gets a typed `503` with `Retry-After`. Returns only when a restart fails: the reason,
/// on which `serve` exits non-zero.
async fn heal_database(pg: Arc<LocalPostgres>, every: std::time::Duration) -> String {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if pg.running_pid().is_some() {
            continue;
        }
        tracing::warn!(data = %pg.data_dir().display(), "the private PostgreSQL stopped; starting it again");
        let began = std::time::Instant::now();
        let again = pg.clone();
        match tokio::task::spawn_blocking(move || again.restart()).await {
            Ok(Ok(())) => {
                store::note_connection_lost();
                tracing::info!(ms = began.elapsed().as_millis() as u64, "the private PostgreSQL is back");
            }
            Ok(Err(e)) => return format!("the private PostgreSQL stopped and could not be started again: {e}"),
            Err(e) => return format!("the private PostgreSQL stopped and its restart failed: {e}"),
        }
    }
}

/// Stops a task when dropped.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Creates database `wordgame` on the private server unless it exists.
///
/// # Errors
/// [`CliError::Input`] when the server cannot be reached.
pub(crate) async fn ensure_database(pg: &LocalPostgres) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&pg.url("postgres")).await.map_err(|e| fail(&e))?;
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'wordgame')")
        .fetch_one(&mut admin)
        .await
        .map_err(|e| fail(&e))?;
    if !exists {
        sqlx::query("CREATE DATABASE wordgame").execute(&mut admin).await.map_err(|e| fail(&e))?;
    }
    Ok(())
}

/// `GET /ws`: the push socket, authorised by the same token as every route. The client sends
/// `{"action": "subscribe" | "unsubscribe", "game_id"}`; the server answers each and pushes
/// `{"type": "move", "game_id", "move_no", "to_move", "status"}` for every committed move of a
/// subscribed game (the protocol of the WebSocket API in AWS; docs/API.md, "Push").
async fn websocket(
    state: Arc<AppState>,
    hub: Arc<LocalHub>,
    secret: &[u8],
    port: u16,
    mut req: hyper::Request<HyperBody>,
) -> hyper::Response<Full<Bytes>> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let request_id = uuid::Uuid::new_v4().to_string();
    let claims = local_auth::claims(req.uri().path(), req.headers(), req.uri().query(), secret, now, port);
    let caller = match claims.and_then(|c| auth::caller_of(&c)) {
        Ok(caller) => caller,
        Err(e) => return convert(e.response(&request_id)),
    };
    let key = req.headers().get("sec-websocket-key").map(|k| k.as_bytes().to_vec());
    let Some(key) = key.filter(|_| asks_for_websocket(req.headers())) else {
        return convert(ApiError::new(HttpCode::BadRequest, "GET /ws is a WebSocket upgrade").response(&request_id));
    };
    let connection_id = uuid::Uuid::new_v4().to_string();
    if let Err(e) = state.service.connect(&caller, &connection_id).await {
        return convert(ApiError::from(e).response(&request_id));
    }
    let frames = hub.register(&connection_id);
    let upgrade = hyper::upgrade::on(&mut req);
    tokio::spawn(async move {
        match upgrade.await {
            Ok(io) => {
                let limits = WebSocketConfig::default()
                    .max_message_size(Some(service::MAX_PUSH_MESSAGE))
                    .max_frame_size(Some(service::MAX_PUSH_MESSAGE));
                let socket = WebSocketStream::from_raw_socket(TokioIo::new(io), Role::Server, Some(limits)).await;
                pump(&state, &caller, &connection_id, socket, frames).await;
            }
            Err(e) => tracing::warn!(error = %e, "websocket upgrade failed"),
        }
        hub.unregister(&connection_id);
        if let Err(e) = state.service.disconnect(&connection_id).await {
            tracing::warn!(error = %e, "cannot forget a closed connection");
        }
    });
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(&key);
    let mut response = hyper::Response::builder()
        .status(101)
        .header("upgrade", "websocket")
        .header("connection", "Upgrade")
        .header("sec-websocket-accept", accept)
        .body(Full::new(Bytes::new()))
        .expect("static headers and an accept key in base64");
    telemetry::answer_headers(response.headers_mut(), &request_id);
    response
}

/// Whether a request asks for a WebSocket as RFC 6455 §4.2.1 says: `Upgrade: websocket` and a
/// `Connection` header listing `upgrade` (both case-insensitive; the key is checked apart).
fn asks_for_websocket(headers: &hyper::HeaderMap) -> bool {
    let lists = |name: hyper::header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    };
    lists(hyper::header::UPGRADE, "websocket") && lists(hyper::header::CONNECTION, "upgrade")
}

/// Carries one socket until it closes: the client's messages to the service and its replies
/// back, the pushed moves out. A message over [`service::MAX_PUSH_MESSAGE`] bytes closes it
/// with 1009 (message too big).
async fn pump<S>(
    state: &AppState,
    caller: &service::Caller,
    connection_id: &str,
    socket: WebSocketStream<S>,
    mut frames: tokio::sync::mpsc::UnboundedReceiver<String>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut out, mut incoming) = socket.split();
    loop {
        let text = tokio::select! {
            pushed = frames.recv() => match pushed {
                Some(frame) => frame,
                None => return,
            },
            message = incoming.next() => match message {
                Some(Ok(Message::Text(text))) => reply(state, caller, connection_id, text.as_str()).await,
                Some(Ok(Message::Binary(bytes))) => reply(state, caller, connection_id, &String::from_utf8_lossy(&bytes)).await,
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                Some(Err(WsError::Capacity(e))) => {
                let reason = format!("a message is at most {} bytes: {e}", service::MAX_PUSH_MESSAGE);
                let _ = out.send(Message::Close(Some(CloseFrame { code: CloseCode::Size, reason: reason.into() }))).await;
                return;
            }
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
            },
        };
        if out.send(Message::text(text)).await.is_err() {
            return;
        }
    }
}

async fn reply(state: &AppState, caller: &service::Caller, connection_id: &str, text: &str) -> String {
    let reply = state.service.push_message(caller, connection_id, text).await;
    serde_json::to_string(&reply).expect("a reply serializes")
}

/// One request through the authoriser and the handler, its body read within `read_timeout`,
/// under a fresh request id (what API Gateway's and Lambda's would be in AWS): every answer
/// names it in `x-request-id`, every error body in `request_id`, and the handler's log lines
/// carry it.
async fn answer(
    state: &AppState,
    secret: &[u8],
    port: u16,
    (read_timeout, admission): (std::time::Duration, &tokio::sync::Semaphore),
    req: hyper::Request<HyperBody>,
) -> hyper::Response<Full<Bytes>> {
    let request_id = uuid::Uuid::new_v4().to_string();
    let (parts, body) = req.into_parts();
    let admin_page = auth::is_admin_path(parts.uri.path());
    let finish = |mut response: lambda_http::Response<lambda_http::Body>| {
        if admin_page {
            api::admin_security_headers(&mut response);
        }
        convert(response)
    };
    let body = match tokio::time::timeout(read_timeout, Limited::new(body, 4 * MAX_BODY).collect()).await {
        Ok(Ok(b)) => b.to_bytes(),
        Ok(Err(_)) => {
            return finish(ApiError::new(HttpCode::BodyTooLarge, format!("the body exceeds {MAX_BODY} bytes")).response(&request_id));
        }
        Err(_) => {
            let late = ApiError::new(HttpCode::RequestTimeout, format!("the body did not arrive within {} s", read_timeout.as_secs()));
            // The rest of the body may never come: the connection is not kept for another request.
            let mut response = finish(late.response(&request_id));
            response.headers_mut().insert(hyper::header::CONNECTION, hyper::header::HeaderValue::from_static("close"));
            return response;
        }
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    if parts.method == hyper::Method::GET && parts.uri.path().trim_end_matches('/') == "/_gm/signin" {
        return finish(local_auth::sign_in(state, parts.uri.query().unwrap_or_default(), secret, now, &request_id).await);
    }
    // The web app's development sign-in: local only.
    if let Some(response) = crate::dev_accounts::answer(&parts.method, parts.uri.path(), &body, now, &request_id) {
        return convert(response);
    }
    // A public route (the web app, the variants) has no authoriser in AWS: a request without a
    // token reaches it.
    let public = api::Route::find(parts.method.as_str(), parts.uri.path()).is_some_and(|(r, _)| r.public());
    let claims = match local_auth::claims(parts.uri.path(), &parts.headers, None, secret, now, port) {
        Ok(claims) => Some(claims),
        Err(_) if public => None,
        Err(e) => return finish(e.response(&request_id)),
    };
    let headers = parts.headers.iter().filter_map(|(k, v)| v.to_str().ok().map(|v| (k.as_str().to_string(), v.to_string()))).collect();
    let incoming = Incoming {
        method: parts.method.as_str(),
        path: parts.uri.path(),
        query: parts.uri.query().unwrap_or_default(),
        headers,
        body: &body,
        claims: claims.as_ref(),
        request_id: &request_id,
    };
    match to_lambda(&incoming) {
        Ok((route, request)) => {
            // Its turn: the request budget starts once admitted, as a Lambda's starts once invoked.
            let _admitted = admission.acquire().await;
            convert(handle(state, route, request).await)
        }
        Err(e) => finish(e.response(&request_id)),
    }
}

fn convert(response: lambda_http::Response<lambda_http::Body>) -> hyper::Response<Full<Bytes>> {
    let (parts, body) = response.into_parts();
    let bytes = Bytes::copy_from_slice(body.as_ref());
    hyper::Response::from_parts(parts, Full::new(bytes))
}
