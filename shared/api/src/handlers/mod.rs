//! Request handling: size limit, identity, then the route's handler (one a route, by area:
//! `games`, `lobby`, `tournaments`, `accounts`, `admin_pages`; each parses, calls its use case
//! and answers), and one log line per request with its id, game id, status and latency. Every request runs within the
//! state's time budget (`REQUEST_BUDGET_MS`): past it, the work is dropped (a transaction not
//! committed is rolled back) and the answer is `503 unavailable` with `Retry-After`, in Lambda
//! and in the local gateway alike.

mod accounts;
mod admin_pages;
mod games;
mod lobby;
mod params;
mod tournaments;

use std::time::Instant;

use lambda_http::{Body, Request, Response};
use service::{Caller, Service};
use tracing::Instrument;

use crate::routes::Access;
use crate::{ApiError, AppState, HttpCode, MAX_BODY, Route, auth, response, telemetry};

/// The time budget of `GET /games/{id}/analysis`, whose first request computes the analysis.
pub const ANALYSIS_BUDGET: std::time::Duration = std::time::Duration::from_secs(25);

/// Handles one request for `route` within the state's request budget; every failure is an HTTP
/// error answer, never `Err`.
pub async fn handle(state: &AppState, route: Route, req: Request) -> Response<Body> {
    let started = Instant::now();
    let request_id = telemetry::request_id(&req);
    let span = telemetry::request_span(route.function(), &request_id, &req);
    // The analysis of a whole game is CPU work of up to a few seconds (docs/ROBOTS.md): its route
    // has a budget of its own, under its function's 29 s timeout.
    let budget = if route == Route::Analysis { ANALYSIS_BUDGET.max(state.request_budget()) } else { state.request_budget() };
    let arrived = state.service.now();
    let work = async {
        state.renew_credentials().await;
        // An outage this process saw is recorded before anything reads a clock.
        state.service.close_outage().await?;
        // Boxed: the routes' futures together are large, and a test's thread (or a Lambda's) need
        // not hold them on its stack.
        let result = Box::pin(dispatch(state, route, &req)).instrument(span.clone()).await;
        // A connection that broke under the request (the database restarted): nothing was
        // committed, the pool now pings its other connections before use, and one retry on a
        // fresh connection usually succeeds.
        if matches!(&result, Err(e) if e.retry_now) {
            span.in_scope(|| tracing::warn!("database connection lost; retrying the request once"));
            return Box::pin(dispatch(state, route, &req)).instrument(span.clone()).await;
        }
        result
    };
    // Past the budget the work is dropped where it waits: an open transaction is rolled back
    // (a commit already sent may still land, which a retry with the same client move id finds).
    let result = tokio::time::timeout(budget, work).await.unwrap_or_else(|_| {
        span.in_scope(|| tracing::warn!(budget_ms = budget.as_millis() as u64, "request budget exhausted"));
        Err(service::ServiceError::Unavailable { connection_lost: false }.into())
    });
    // A request the database could not serve: no clock charges the time from its arrival on
    // (docs/API.md, "Clocks").
    if matches!(&result, Err(e) if e.code == service::ErrorCode::Unavailable.as_str()) {
        state.service.note_refused(arrived);
    }
    let mut response = match result {
        Ok(r) => r,
        Err(e) => e.response(&request_id),
    };
    telemetry::answer_headers(response.headers_mut(), &request_id);
    if auth::is_admin_path(route.path()) {
        crate::admin::security_headers(&mut response);
    } else if !route.public() {
        // Every other route answers for the caller its token names (errors too).
        response::per_caller(&mut response);
    }
    span.in_scope(|| tracing::info!(status = response.status().as_u16(), latency_ms = started.elapsed().as_secs_f64() * 1000.0, "handled"));
    response
}

/// What a route's handler answers.
type Answer = Result<Response<Body>, ApiError>;

/// What a handler gets: the service, the request, and the caller the gateway vouched for.
struct Cx<'a> {
    /// The use cases.
    svc: &'a Service,
    /// The request.
    req: &'a Request,
    /// The verified caller: present on every route but the open ones (the web app, the
    /// variants, the admin sign-in), which never ask for it.
    caller: Option<Caller>,
}

impl Cx<'_> {
    /// The verified caller (`401 unauthenticated` without one, which `dispatch` has answered
    /// already for every route that has one).
    fn caller(&self) -> Result<&Caller, ApiError> {
        self.caller.as_ref().ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "no verified identity"))
    }
}

/// Checks the body's size and the caller as the route's [`Access`] asks, then runs its handler.
async fn dispatch(state: &AppState, route: Route, req: &Request) -> Answer {
    if req.body().len() > MAX_BODY {
        return Err(ApiError::new(HttpCode::BodyTooLarge, format!("the body exceeds {MAX_BODY} bytes")));
    }
    let svc = &state.service;
    if auth::is_admin_path(route.path()) && route != Route::AdminSignIn {
        crate::admin::refuse_signed_out(svc, req).await?;
    }
    let caller = match (route.spec().access, auth::caller(req)) {
        // Anyone: the sign-in is how an admin gets an identity, the web app and the variants
        // are public; a token one does carry must still be one a caller may act as.
        (Access::SignIn | Access::Open, Err(e)) if auth::claims(req).is_some() => return Err(e),
        (Access::SignIn | Access::Open, _) => None,
        // Every other route acts for a verified caller; an admin route for an admin.
        (_, Err(e)) => return Err(e),
        (Access::Admin, Ok(_)) if !auth::is_admin(req) => return Err(ApiError::new(HttpCode::Forbidden, "admins only")),
        (Access::Player | Access::Admin | Access::AdminSession, Ok(caller)) => Some(caller),
    };
    let cx = Cx { svc, req, caller };
    match route {
        Route::AdminSignIn => crate::admin::sign_in(req, crate::oidc::OidcConfig::from_env()).await,
        Route::WebApp | Route::WebAsset | Route::Variants => {
            crate::web::answer(route, req, &crate::web::WebConfig::from_env(|name| std::env::var(name).ok()))
        }
        Route::CreateGame => games::create_game(&cx).await,
        Route::GetGame => games::get_game(&cx).await,
        Route::GetMoves => games::get_moves(&cx).await,
        Route::SubmitMove => games::submit_move(&cx).await,
        Route::PreviewMove => games::preview_move(&cx).await,
        Route::Hint => games::hint(&cx).await,
        Route::Resign => games::resign(&cx).await,
        Route::Challenge => games::challenge(&cx).await,
        Route::ClaimTimeout => games::claim_timeout(&cx).await,
        Route::DrawTile => games::draw_tile(&cx).await,
        Route::Analysis => games::analysis(&cx).await,
        Route::Rematch => games::rematch(&cx).await,
        Route::DeclineRematch => games::decline_rematch(&cx).await,
        Route::OpenGame => lobby::open_game(&cx).await,
        Route::ListOpenGames => lobby::list_open_games(&cx).await,
        Route::JoinGame => lobby::join_game(&cx).await,
        Route::AttachRobot => lobby::attach_robot(&cx).await,
        Route::WithdrawGame => lobby::withdraw_game(&cx).await,
        Route::ListMyGames => lobby::list_my_games(&cx).await,
        Route::ListLiveGames => lobby::list_live_games(&cx).await,
        Route::Me => accounts::me(&cx).await,
        Route::UpdateSettings => accounts::update_settings(&cx).await,
        Route::AccountRatings => accounts::account_ratings(&cx).await,
        Route::Leaderboard => accounts::leaderboard(&cx).await,
        Route::CreateTournament => tournaments::create(&cx).await,
        Route::ListTournaments => tournaments::list(&cx).await,
        Route::GetTournament => tournaments::get(&cx).await,
        Route::RegisterPlayer => tournaments::register_player(&cx).await,
        Route::WithdrawPlayer => tournaments::withdraw_player(&cx).await,
        Route::EnterTournament => tournaments::enter(&cx).await,
        Route::LeaveTournament => tournaments::leave(&cx).await,
        Route::PairRound => tournaments::pair_round(&cx).await,
        Route::StartRound => tournaments::start_round(&cx).await,
        Route::RecordForfeit => tournaments::record_forfeit(&cx).await,
        Route::CloseTournament => tournaments::close(&cx).await,
        Route::ExportTournament => tournaments::export(&cx).await,
        Route::AdminReplay => admin_pages::replay(&cx).await,
        Route::AdminTimeline => admin_pages::timeline(&cx).await,
        Route::AdminTournament => admin_pages::tournament(&cx).await,
        Route::AdminAccount => admin_pages::account(&cx).await,
        Route::AdminGames => admin_pages::games(&cx).await,
        Route::AdminSignOut => admin_pages::sign_out(&cx).await,
    }
}
