//! Request handling: size limit, identity, parsing, the use case, the JSON answer, and one log
//! line per request with its id, game id, status and latency. Every request runs within the
//! state's time budget (`REQUEST_BUDGET_MS`): past it, the work is dropped (a transaction not
//! committed is rolled back) and the answer is `503 unavailable` with `Retry-After`, in Lambda
//! and in the local gateway alike.

use std::time::Instant;

use lambda_http::{Body, Request, RequestExt, Response};
use serde::de::DeserializeOwned;
use service::SubmitMove;
use tracing::Instrument;
use uuid::Uuid;

use crate::requests::{
    ChallengeBody, CreateGameBody, CreateTournamentBody, EntryBody, ForfeitBody, OpenGameBody, PlayerBody, PreviewBody, RobotBody,
    SettingsBody,
};
use crate::response::{self, json_response};
use crate::{ApiError, AppState, HttpCode, MAX_BODY, Route, auth, requests, telemetry};

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

async fn dispatch(state: &AppState, route: Route, req: &Request) -> Result<Response<Body>, ApiError> {
    if req.body().len() > MAX_BODY {
        return Err(ApiError::new(HttpCode::BodyTooLarge, format!("the body exceeds {MAX_BODY} bytes")));
    }
    let svc = &state.service;
    if auth::is_admin_path(route.path()) && route != Route::AdminSignIn {
        crate::admin::refuse_signed_out(svc, req).await?;
    }
    match (route, auth::caller(req)) {
        // Public: the sign-in is how an admin gets an identity; one it does carry must still be
        // one a token may act as.
        (Route::AdminSignIn, Err(e)) if auth::claims(req).is_some() => Err(e),
        (Route::AdminSignIn, _) => crate::admin::sign_in(req, crate::oidc::OidcConfig::from_env()).await,
        // The web app and the variants: anyone; a token it does carry must still be one a
        // caller may act as, as on every route.
        (Route::WebApp | Route::WebAsset | Route::Variants, Err(e)) if auth::claims(req).is_some() => Err(e),
        (route @ (Route::WebApp | Route::WebAsset | Route::Variants), _) => {
            crate::web::answer(route, req, &crate::web::WebConfig::from_env(|name| std::env::var(name).ok()))
        }
        // Every other route acts for a verified caller; an admin route for an admin.
        (_, Err(e)) => Err(e),
        (route, Ok(_)) if route.admin_only() && !auth::is_admin(req) => Err(ApiError::new(HttpCode::Forbidden, "admins only")),
        (Route::CreateGame, Ok(caller)) => {
            let body = parse_body::<CreateGameBody>(req)?.parse()?;
            Ok(json_response(201, &svc.create_game(&caller, &body).await?))
        }
        (Route::GetGame, Ok(caller)) => {
            let id = game_id(req)?;
            if req.headers().contains_key(http::header::IF_NONE_MATCH) {
                let etag = svc.game_version(&caller, id).await?.etag();
                if response::if_none_match(req.headers(), &etag) {
                    return Ok(not_modified(&etag));
                }
            }
            let view = svc.get_game(&caller, id).await?;
            let etag = service::GameVersion::of_view(&view).etag();
            let mut response = json_response(200, &view);
            response.headers_mut().insert("etag", etag.parse().expect("digits, letters and quotes"));
            Ok(response)
        }
        (Route::GetMoves, Ok(caller)) => {
            let id = game_id(req)?;
            let after = match req.query_string_parameters_ref().and_then(|q| q.first("after")) {
                None => 0,
                Some(v) => v.parse::<u32>().map_err(|_| ApiError::new(HttpCode::InvalidQuery, "after must be a move number, 0 or more"))?,
            };
            Ok(json_response(200, &svc.moves(&caller, id, after).await?))
        }
        (Route::SubmitMove, Ok(caller)) => {
            let id = game_id(req)?;
            let body: SubmitMove = parse_body(req)?;
            Ok(json_response(200, &svc.submit_move(&caller, id, &body).await?))
        }
        (Route::PreviewMove, Ok(caller)) => {
            let id = game_id(req)?;
            let body: PreviewBody = parse_body(req)?;
            Ok(json_response(200, &svc.preview_move(&caller, id, &body.mv).await?))
        }
        (Route::Hint, Ok(caller)) => {
            let id = game_id(req)?;
            let limit = query_limit(req, 5, 20)?;
            Ok(json_response(200, &svc.hint(&caller, id, limit).await?))
        }
        (Route::Resign, Ok(caller)) => Ok(json_response(200, &svc.resign(&caller, game_id(req)?).await?)),
        (Route::Challenge, Ok(caller)) => {
            let id = game_id(req)?;
            let body: ChallengeBody = parse_body(req)?;
            Ok(json_response(200, &svc.submit_move(&caller, id, &body.into_submit()).await?))
        }
        (Route::ClaimTimeout, Ok(caller)) => Ok(json_response(200, &svc.claim_timeout(&caller, game_id(req)?).await?)),
        (Route::OpenGame, Ok(caller)) => {
            let body = parse_body::<OpenGameBody>(req)?.parse()?;
            Ok(json_response(201, &svc.open_game(&caller, &body).await?))
        }
        (Route::ListOpenGames, Ok(caller)) => {
            let query = req.query_string_parameters_ref();
            let cursor = query.and_then(|q| q.first("cursor").map(str::to_string));
            let limit = query_limit(req, service::MAX_LOBBY_PAGE, service::MAX_LOBBY_PAGE)?;
            let variant = query.and_then(|q| q.first("variant")).map(requests::variant).transpose()?;
            let control = query.and_then(|q| q.first("time_control")).map(requests::time_control_kind).transpose()?;
            let rated = match query.and_then(|q| q.first("rated")) {
                None => None,
                Some("true") => Some(true),
                Some("false") => Some(false),
                Some(_) => return Err(ApiError::new(HttpCode::InvalidQuery, "rated must be true or false")),
            };
            let joinable = match query.and_then(|q| q.first("joinable")) {
                None | Some("false") => false,
                Some("true") => true,
                Some(_) => return Err(ApiError::new(HttpCode::InvalidQuery, "joinable must be true or false")),
            };
            Ok(json_response(200, &svc.list_open_games(&caller, variant, (control, rated, joinable), cursor.as_deref(), limit).await?))
        }
        (Route::Me, Ok(caller)) => Ok(json_response(200, &svc.me(&caller).await?)),
        (Route::UpdateSettings, Ok(caller)) => {
            let body: SettingsBody = parse_body(req)?;
            Ok(json_response(200, &svc.set_spectating(&caller, service::spectators::spectating(&body.spectating)?).await?))
        }
        (Route::ListLiveGames, Ok(_)) => {
            let query = req.query_string_parameters_ref();
            let cursor = query.and_then(|q| q.first("cursor").map(str::to_string));
            let limit = query_limit(req, 20, service::MAX_LIVE_PAGE)?;
            let variant = query.and_then(|q| q.first("variant")).map(requests::variant).transpose()?;
            let tournament = query
                .and_then(|q| q.first("tournament_id"))
                .map(|t| Uuid::try_parse(t).map_err(|_| ApiError::new(HttpCode::InvalidQuery, "tournament_id must be a UUID")))
                .transpose()?;
            Ok(json_response(200, &svc.live_games(variant, tournament, cursor.as_deref(), limit).await?))
        }
        (Route::AccountRatings, Ok(_)) => Ok(json_response(200, &svc.account_ratings(game_id(req)?).await?)),
        (Route::Leaderboard, Ok(_)) => {
            let query = req.query_string_parameters_ref();
            let cursor = query.and_then(|q| q.first("cursor").map(str::to_string));
            let limit = query_limit(req, 50, service::MAX_LEADERBOARD_PAGE)?;
            let variant = query
                .and_then(|q| q.first("variant"))
                .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "variant is required"))
                .and_then(requests::variant)?;
            let speed = query
                .and_then(|q| q.first("speed"))
                .and_then(service::Speed::from_id)
                .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "speed is required: realtime or correspondence"))?;
            Ok(json_response(200, &svc.leaderboard(variant, speed, cursor.as_deref(), limit).await?))
        }
        (Route::ListMyGames, Ok(caller)) => {
            let query = req.query_string_parameters_ref();
            let param = |name: &str| query.and_then(|q| q.first(name).map(str::to_string));
            let limit = query_limit(req, 20, service::MAX_MY_GAMES_PAGE)?;
            let page =
                svc.my_games(&caller, param("status").as_deref(), param("turn").as_deref(), param("cursor").as_deref(), limit).await?;
            Ok(json_response(200, &page))
        }
        (Route::WithdrawGame, Ok(caller)) => Ok(json_response(200, &svc.withdraw_game(&caller, game_id(req)?).await?)),
        (Route::Rematch, Ok(caller)) => {
            let (created, view) = svc.rematch(&caller, game_id(req)?).await?;
            Ok(json_response(if created { 201 } else { 200 }, &view))
        }
        (Route::DeclineRematch, Ok(caller)) => Ok(json_response(200, &svc.decline(&caller, game_id(req)?).await?)),
        (Route::JoinGame, Ok(caller)) => Ok(json_response(200, &svc.join_game(&caller, game_id(req)?).await?)),
        (Route::AdminReplay, Ok(_)) => {
            let raw = req.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
            match raw.strip_suffix(".gcg") {
                Some(id) => Ok(crate::admin::gcg(svc.admin_gcg(parse_id(id)?).await?)),
                None => {
                    let replay = svc.admin_replay(game_id(req)?).await?;
                    // A finished game's analysis (computed on the first view, stored after).
                    let analysis = match replay.status {
                        service::GameStatus::Finished => {
                            serde_json::from_str::<serde_json::Value>(svc.admin_analysis(replay.game_id).await?.get()).ok()
                        }
                        _ => None,
                    };
                    crate::admin::replay_page(&replay, analysis.as_ref())
                }
            }
        }
        (Route::AdminTimeline, Ok(_)) => Ok(json_response(200, &svc.admin_replay(game_id(req)?).await?)),
        (Route::AdminTournament, Ok(_)) => {
            let raw = req.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
            match raw.strip_suffix(".t") {
                Some(id) => Ok(response::text_response(200, svc.tournament_export(parse_id(id)?).await?)),
                None => crate::admin::tournament_page(&svc.admin_tournament(tournament_id(req)?).await?),
            }
        }
        (Route::AdminAccount, Ok(_)) => crate::admin::account_page(&svc.admin_account(game_id(req)?).await?),
        (Route::AdminSignOut, Ok(_)) => crate::admin::sign_out(svc, req).await,
        (Route::AdminGames, Ok(_)) => {
            let q = req.query_string_parameters_ref();
            let get = |name: &str| q.and_then(|q| q.first(name)).map(str::to_string);
            let (variant, status, player, cursor) = (get("variant"), get("status"), get("player"), get("cursor"));
            let query = service::AdminGameQuery {
                status: crate::admin::parse_status(status.as_deref())?,
                player: crate::admin::player_filter(player.as_deref())?,
                // Checked after the status and the player: a query wrong in several ways is
                // answered for those first.
                variant: variant.as_deref().filter(|v| !v.is_empty()).map(requests::variant).transpose()?,
                cursor: cursor.as_deref(),
            };
            let tournaments = svc.tournaments(None).await?;
            crate::admin::games_page(&query, &svc.admin_games(&query).await?, &tournaments, auth::admin_token(req).map(auth::csrf_token))
        }
        (Route::DrawTile, Ok(caller)) => {
            let id = game_id(req)?;
            let body: service::DrawTile = if req.body().is_empty() { service::DrawTile::default() } else { parse_body(req)? };
            Ok(json_response(200, &svc.draw_tile(&caller, id, &body).await?))
        }
        (Route::Analysis, Ok(caller)) => Ok(json_response(200, &svc.analysis(&caller, game_id(req)?).await?)),
        (Route::CreateTournament, Ok(caller)) => {
            let body = parse_body::<CreateTournamentBody>(req)?.parse()?;
            Ok(json_response(201, &svc.create_tournament(&caller, &body).await?))
        }
        (Route::ListTournaments, Ok(caller)) => {
            let mine = match req.query_string_parameters_ref().and_then(|q| q.first("mine")) {
                None | Some("false") => false,
                Some("true") => true,
                Some(_) => return Err(ApiError::new(HttpCode::InvalidQuery, "mine must be true or false")),
            };
            Ok(json_response(200, &svc.tournaments(mine.then(|| caller.account_id())).await?))
        }
        (Route::GetTournament, Ok(caller)) => Ok(json_response(200, &svc.tournament(&caller, tournament_id(req)?).await?)),
        (Route::RegisterPlayer, Ok(caller)) => {
            let id = tournament_id(req)?;
            let body: PlayerBody = parse_body(req)?;
            Ok(json_response(200, &svc.register_player(&caller, id, body.account_id).await?))
        }
        (Route::WithdrawPlayer, Ok(caller)) => {
            let id = tournament_id(req)?;
            let body: PlayerBody = parse_body(req)?;
            Ok(json_response(200, &svc.withdraw_player(&caller, id, body.account_id).await?))
        }
        (Route::EnterTournament, Ok(caller)) => {
            let id = tournament_id(req)?;
            let body: EntryBody = if req.body().is_empty() { EntryBody::default() } else { parse_body(req)? };
            Ok(json_response(200, &svc.enter_tournament(&caller, id, body.account_id).await?))
        }
        (Route::LeaveTournament, Ok(caller)) => {
            let id = tournament_id(req)?;
            let body: EntryBody = if req.body().is_empty() { EntryBody::default() } else { parse_body(req)? };
            Ok(json_response(200, &svc.leave_tournament(&caller, id, body.account_id).await?))
        }
        (Route::PairRound, Ok(caller)) => Ok(json_response(200, &svc.pair_round(&caller, tournament_id(req)?).await?)),
        (Route::StartRound, Ok(caller)) => {
            let id = tournament_id(req)?;
            let round = req
                .path_parameters_ref()
                .and_then(|p| p.first("round"))
                .and_then(|r| r.parse::<u32>().ok())
                .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "the round in the path must be a number"))?;
            Ok(json_response(200, &svc.start_round(&caller, id, round).await?))
        }
        (Route::RecordForfeit, Ok(caller)) => {
            let id = tournament_id(req)?;
            let body: ForfeitBody = parse_body(req)?;
            Ok(json_response(200, &svc.record_forfeit(&caller, id, body.round, body.table, body.side).await?))
        }
        (Route::CloseTournament, Ok(caller)) => Ok(json_response(200, &svc.close_tournament(&caller, tournament_id(req)?).await?)),
        (Route::ExportTournament, Ok(_)) => Ok(response::text_response(200, svc.tournament_export(tournament_id(req)?).await?)),
        (Route::AttachRobot, Ok(caller)) => {
            let id = game_id(req)?;
            let level = parse_body::<RobotBody>(req)?.parse()?;
            Ok(json_response(200, &svc.attach_robot(&caller, id, level).await?))
        }
    }
}

/// The `limit` query parameter: `default` when absent, else 1..=`max`.
fn query_limit(req: &Request, default: usize, max: usize) -> Result<usize, ApiError> {
    match req.query_string_parameters_ref().and_then(|q| q.first("limit")) {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, format!("limit must be 1..={max}"))),
    }
}

/// The `{id}` path parameter as a game id.
fn game_id(req: &Request) -> Result<Uuid, ApiError> {
    let raw = req
        .path_parameters_ref()
        .and_then(|p| p.first("id"))
        .ok_or_else(|| ApiError::new(HttpCode::InvalidGameId, "no game id in the path"))?;
    parse_id(raw)
}

/// The `{id}` path parameter as a tournament id.
fn tournament_id(req: &Request) -> Result<Uuid, ApiError> {
    let raw = req
        .path_parameters_ref()
        .and_then(|p| p.first("id"))
        .ok_or_else(|| ApiError::new(HttpCode::InvalidGameId, "no tournament id in the path"))?;
    Uuid::parse_str(raw).map_err(|_| ApiError::new(HttpCode::InvalidGameId, format!("{raw:?} is not a tournament id")))
}

/// A UUID from a path segment.
fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::new(HttpCode::InvalidGameId, format!("{raw:?} is not a game id")))
}

/// The JSON body as `T`: 400 `malformed_json` if it is not JSON, 400 `invalid_body` if it is
/// not an object (serde would read an array by position) or an object of the wrong shape or types.
fn parse_body<T: DeserializeOwned>(req: &Request) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(req.body().as_ref())
        .map_err(|e| ApiError::new(HttpCode::MalformedJson, format!("the body is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::new(HttpCode::InvalidBody, "the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| ApiError::new(HttpCode::InvalidBody, e.to_string()))
}

/// `304 Not Modified` with the entity tag the client already holds.
fn not_modified(etag: &str) -> Response<Body> {
    Response::builder()
        .status(304)
        .header("etag", etag)
        .body(Body::Empty)
        .expect("a valid status and an entity tag of digits, letters and quotes")
}
