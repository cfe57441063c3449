//! The admin pages: server-rendered (askama, escaped) with a small page-scoped stepper over the
//! timeline embedded as JSON, the timeline itself, the game in GCG, and an account's games.
//! Every page carries a fresh nonce: its one script and its style element run under a
//! `Content-Security-Policy` that allows nothing else (see [`security_headers`]).

use askama::Template;
use lambda_http::{Body, Response};
use service::{AdminAccount, AdminReplay, DrawView};
use uuid::Uuid;

use crate::{ApiError, HttpCode};

/// One round of the first-move draw, for the page.
pub(crate) struct DrawRound {
    round: i16,
    picks: Vec<DrawView>,
    leader: Option<String>,
}

/// One seat's line of the result: its final score, what the moves made and the settlement.
pub(crate) struct ResultRow {
    name: String,
    total: i32,
    moves: i32,
    settlement: String,
    margin: String,
    winner: bool,
}

/// How a finished game ended, for the page.
pub(crate) struct GameResult {
    reason: String,
    winners: String,
    rows: Vec<ResultRow>,
}

/// What the replay page shows above the family's stage: the game, its result and its draw.
pub(crate) struct Heading<'a> {
    nonce: &'a str,
    game_id: Uuid,
    variant: &'static str,
    status: &'static str,
    end_reason: Option<&'static str>,
    draw_title: &'static str,
    draw_rounds: Vec<DrawRound>,
    result: Option<GameResult>,
}

#[derive(Template)]
#[template(path = "replay.html")]
struct ReplayPage<'a> {
    head: Heading<'a>,
    stage: service::Stage,
    log: Vec<String>,
    last_step: usize,
    export: Option<&'static str>,
    timeline_json: String,
    analysis: Vec<String>,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage<'a> {
    nonce: &'a str,
    name: &'a str,
    kind: &'static str,
    level: Option<&'static str>,
    account_id: Uuid,
    created_at: String,
    games: &'a [service::AccountGame],
    ratings: &'a service::AccountRatings,
    opponents: &'a [service::RatedOpponentView],
    frequent: u32,
    days: i64,
}

/// The draw's picks grouped by round, each round's leader named.
fn draw_rounds(replay: &AdminReplay) -> Vec<DrawRound> {
    let mut rounds: Vec<DrawRound> = Vec::new();
    for d in &replay.draw {
        let pick = DrawView { display_name: Some(d.display_name.clone().unwrap_or_else(|| "(opponent)".to_string())), ..d.clone() };
        match rounds.last_mut() {
            Some(r) if r.round == d.round => r.picks.push(pick),
            _ => rounds.push(DrawRound { round: d.round, picks: vec![pick], leader: None }),
        }
    }
    if let Some(last) = rounds.last_mut()
        && let Some(best) = last.picks.iter().min_by_key(|p| p.rank)
    {
        last.leader = best.display_name.clone();
    }
    rounds
}

/// A signed score difference, `+0` for none: `+11`, `-5`.
fn signed(n: i32) -> String {
    format!("{n:+}")
}

/// The result block of a finished game: the end reason (naming its seat), the winners, and per
/// seat the final score, the moves' part, the settlement and the margin to the winner (for a
/// chain game, where the points do not decide, who won and why).
fn game_result(replay: &AdminReplay, name_of: &dyn Fn(usize) -> String) -> Option<GameResult> {
    let outcome = replay.outcome.as_ref()?;
    let finals = replay.steps.finals();
    let who = outcome.seat.map_or_else(String::new, |s| name_of(s.index()));
    let reason = match outcome.reason {
        service::EndReason::WentOut => format!("{who} went out"),
        service::EndReason::ScorelessTurns => "the run of scoreless turns ended it".to_string(),
        service::EndReason::Resigned => format!("{who} resigned"),
        service::EndReason::NoLegalMove => format!("{who} had no word left"),
        service::EndReason::Timeout => format!("{who} ran out of time"),
    };
    let chain = !replay.steps.points_decide();
    let winners: Vec<usize> = outcome.winners.iter().map(|s| s.index()).collect();
    let best = winners.iter().map(|&w| finals[w]).max().unwrap_or(0);
    let runner_up = finals.iter().enumerate().filter(|(i, _)| !winners.contains(i)).map(|(_, s)| *s).max();
    let rows = finals
        .iter()
        .enumerate()
        .map(|(seat, &total)| {
            let settled = outcome.adjustments.get(seat).copied().unwrap_or(0);
            let winner = winners.contains(&seat);
            let margin = match (winner, runner_up) {
                // A chain is won by the chain, not the points: the margin says why.
                (true, _) if chain => format!("won: {reason}"),
                (false, _) if chain => "lost".to_string(),
                (true, Some(r)) if total > r => format!("won by {}", total - r),
                (true, Some(r)) => format!("won {} ({})", behind(outcome.reason), signed(total - r)),
                (true, None) => "tied".to_string(),
                (false, _) => format!("{} to the winner", signed(total - best)),
            };
            ResultRow { name: name_of(seat), total, moves: total - settled, settlement: signed(settled), margin, winner }
        })
        .collect();
    let winners = match winners.as_slice() {
        [] => "no winner".to_string(),
        [one] => format!("{} wins", name_of(*one)),
        many => format!("tie: {}", many.iter().map(|&w| name_of(w)).collect::<Vec<_>>().join(", ")),
    };
    Some(GameResult { reason, winners, rows })
}

/// How a winner with no more points than the runner-up won, by the end reason.
fn behind(reason: service::EndReason) -> &'static str {
    match reason {
        service::EndReason::Resigned => "on resignation",
        service::EndReason::Timeout => "on time",
        service::EndReason::NoLegalMove => "as the opponent had no word",
        service::EndReason::WentOut | service::EndReason::ScorelessTurns => "on the settlement",
    }
}

/// The replay as JSON for the page's script, `<` escaped so no display name can close the
/// script element.
fn embedded(replay: &AdminReplay) -> Result<String, ApiError> {
    Ok(serde_json::to_string(replay).map_err(|_| ApiError::new(HttpCode::Internal, "internal error"))?.replace('<', "\\u003c"))
}

/// The replay page of a game: the board and racks of a tile game, or the chain's steps; a
/// finished game's analysis beside the log.
pub(crate) fn replay_page(replay: &AdminReplay, analysis: Option<&serde_json::Value>) -> Result<Response<Body>, ApiError> {
    let nonce = nonce();
    let name_of = |seat: usize| replay.seats.get(seat).map_or_else(|| format!("seat {seat}"), |s| s.display_name.clone());
    let head = |draw_title: &'static str| Heading {
        nonce: &nonce,
        game_id: replay.game_id,
        variant: replay.variant.id(),
        status: replay.status.id(),
        end_reason: replay.end_reason.map(service::EndReason::id),
        draw_title,
        draw_rounds: draw_rounds(replay),
        result: game_result(replay, &name_of),
    };
    let seats: Vec<service::PageSeat<'_>> = replay
        .seats
        .iter()
        .map(|s| service::PageSeat { seat: s.seat, name: &s.display_name, href: s.account_id.map(|id| format!("/_gm/accounts/{id}")) })
        .collect();
    let stage = replay.steps.stage(&seats);
    let page = ReplayPage {
        head: head(stage.draw_title),
        log: replay.steps.log(&name_of),
        last_step: replay.steps.last_step(),
        export: replay.steps.export(),
        timeline_json: embedded(replay)?,
        analysis: analysis.map(|a| replay.steps.analysis_lines(a, &name_of)).unwrap_or_default(),
        stage,
    };
    html(page.render(), &nonce)
}

/// An account's page.
pub(crate) fn account_page(a: &AdminAccount) -> Result<Response<Body>, ApiError> {
    let nonce = nonce();
    let page = AccountPage {
        nonce: &nonce,
        name: &a.account.display_name,
        kind: if a.account.kind == service::AccountKind::Robot { "robot" } else { "human" },
        level: a.account.robot_level.map(games::Level::id),
        account_id: a.account.account_id,
        created_at: a.account.created_at.to_rfc3339(),
        games: &a.games,
        ratings: &a.ratings,
        opponents: &a.rated_opponents,
        frequent: service::FREQUENT_PAIR_GAMES,
        days: service::FREQUENT_PAIR_DAYS,
    };
    html(page.render(), &nonce)
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct TournamentPage<'a> {
    nonce: &'a str,
    t: &'a service::TournamentView,
    /// Each player's name by number (index 0: number 1).
    names: Vec<&'a str>,
}

impl TournamentPage<'_> {
    fn name(&self, no: &u32) -> &str {
        self.names.get(*no as usize - 1).copied().unwrap_or("?")
    }

    /// A table's result as the page writes it.
    fn result(&self, table: &service::PairingView) -> String {
        match table.outcome {
            None => table.game_status.map_or_else(|| "not started".to_string(), |s| s.id().to_string()),
            Some(service::TournamentOutcome::Played { first_score, second_score }) => format!("{first_score}–{second_score}"),
            Some(service::TournamentOutcome::Forfeit { loser }) => format!("{} forfeits", self.name(&loser)),
            Some(service::TournamentOutcome::DoubleForfeit) => "both forfeit".to_string(),
            Some(service::TournamentOutcome::Bye) => "bye".to_string(),
        }
    }
}

/// A tournament's page: its settings, standings, and every round's tables with links to the
/// games' replays.
pub(crate) fn tournament_page(t: &service::TournamentView) -> Result<Response<Body>, ApiError> {
    let nonce = nonce();
    let names = t.players.iter().map(|p| p.display_name.as_str()).collect();
    html(TournamentPage { nonce: &nonce, t, names }.render(), &nonce)
}

/// A fresh page nonce: 122 random bits from the OS, as hex.
fn nonce() -> String {
    Uuid::new_v4().simple().to_string()
}

/// The policy of a page whose script and style carry `nonce`: nothing else loads or runs, no
/// page may frame it, forms post only back to it.
fn page_policy(nonce: &str) -> String {
    format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The policy of every other admin response (JSON, GCG, errors): nothing at all.
const NOTHING_POLICY: &str = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Adds the admin responses' security headers: a `Content-Security-Policy` (the page's own, or
/// one allowing nothing), `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
/// `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
pub fn security_headers(response: &mut Response<Body>) {
    use http::HeaderValue;
    use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
    let headers = response.headers_mut();
    if !headers.contains_key(CONTENT_SECURITY_POLICY) {
        headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(NOTHING_POLICY));
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

fn html(rendered: Result<String, askama::Error>, nonce: &str) -> Result<Response<Body>, ApiError> {
    let text = rendered.map_err(|e| {
        tracing::error!(error = %e, "template failed");
        ApiError::new(HttpCode::Internal, "internal error")
    })?;
    Ok(Response::builder()
        .status(200)
        .header("content-type", "text/html; charset=utf-8")
        .header("content-security-policy", page_policy(nonce))
        .body(Body::Text(text))
        .expect("static headers"))
}

/// The GCG text response.
pub(crate) fn gcg(text: String) -> Response<Body> {
    crate::response::text_response(200, text)
}

/// The statuses the game list filters by.
const STATUSES: [service::GameStatus; 5] = service::GameStatus::ALL;

/// The longest player filter: a display name's limit.
const MAX_PLAYER_FILTER: usize = 64;

/// The `status` filter: absent or empty for any, else one of the stored names.
///
/// # Errors
/// `400 invalid_query` for any other value.
pub(crate) fn parse_status(raw: Option<&str>) -> Result<Option<service::GameStatus>, ApiError> {
    match raw.filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => STATUSES
            .into_iter()
            .find(|st| st.id() == s)
            .map(Some)
            .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "status is one of open, active, finished, withdrawn")),
    }
}

/// The `player` filter: an account id or part of a name, at most 64 characters, none of them a
/// control character. A stored name has none ([`service::clean_name`]), and PostgreSQL refuses
/// NUL in any text, so such a filter is the client's error, not the database's.
///
/// # Errors
/// `400 invalid_query` for a longer one or one with a control character.
pub(crate) fn player_filter(raw: Option<&str>) -> Result<Option<&str>, ApiError> {
    match raw.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) if p.chars().count() > MAX_PLAYER_FILTER => {
            Err(ApiError::new(HttpCode::InvalidQuery, format!("player is at most {MAX_PLAYER_FILTER} characters")))
        }
        Some(p) if p.chars().any(char::is_control) => {
            Err(ApiError::new(HttpCode::InvalidQuery, "player has a control character (NUL, a line break, ...)"))
        }
        other => Ok(other),
    }
}

/// One option of a filter's select.
pub(crate) struct Choice {
    value: &'static str,
    selected: bool,
}

/// A listed game's row.
pub(crate) struct GameRow {
    game_id: Uuid,
    variant: &'static str,
    status: &'static str,
    move_count: i32,
    updated_at: String,
    players: Vec<(Option<Uuid>, String)>,
}

#[derive(Template)]
#[template(path = "games.html")]
struct GamesPage<'a> {
    nonce: &'a str,
    csrf: Option<String>,
    tournaments: &'a [service::TournamentSummaryView],
    variants: Vec<Choice>,
    statuses: Vec<Choice>,
    player: &'a str,
    games: Vec<GameRow>,
    next: Option<String>,
}

/// The admin's game list: the filter form, the games with links to their replays and their
/// players' accounts, and a link to the next page keeping the filters.
pub(crate) fn games_page(
    query: &service::AdminGameQuery<'_>,
    page: &service::AdminGamesPage,
    tournaments: &service::TournamentList,
    csrf: Option<String>,
) -> Result<Response<Body>, ApiError> {
    let nonce = nonce();
    let variant = query.variant.map(service::Variant::id).unwrap_or_default();
    let status = query.status.map(service::GameStatus::id).unwrap_or_default();
    let player = query.player.unwrap_or_default();
    let next = page.next_cursor.as_ref().map(|c| {
        format!(
            "?variant={}&status={}&player={}&cursor={}",
            crate::oidc::form_value(variant),
            crate::oidc::form_value(status),
            crate::oidc::form_value(player),
            crate::oidc::form_value(c)
        )
    });
    let games = page
        .games
        .iter()
        .map(|g| GameRow {
            game_id: g.game_id,
            variant: g.variant.id(),
            status: g.status.id(),
            move_count: g.move_count,
            updated_at: g.updated_at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            players: g
                .players
                .iter()
                .map(|p| p.account.as_ref().map_or((None, "(open seat)".to_string()), |(id, name)| (Some(*id), name.clone())))
                .collect(),
        })
        .collect();
    let page = GamesPage {
        nonce: &nonce,
        csrf,
        tournaments: &tournaments.tournaments,
        variants: service::Variant::SHIPPED.iter().map(|v| Choice { value: v.id(), selected: v.id() == variant }).collect(),
        statuses: STATUSES.iter().map(|s| Choice { value: s.id(), selected: s.id() == status }).collect(),
        player,
        games,
        next,
    };
    html(page.render(), &nonce)
}

/// `POST /_gm/signout`: ends the admin session when the form's `csrf` field is the session's
/// token and the browser says the form is this site's own (`Sec-Fetch-Site`, when sent, is
/// `same-origin`): the session is refused from then on ([`refuse_signed_out`]) until its token
/// expires, and its cookie is cleared. Anything else is refused and ends nothing.
///
/// # Errors
/// `403 forbidden` for a missing session, a wrong or missing token or a cross-site form; the
/// service's errors (`503 unavailable`: nothing ended).
pub(crate) async fn sign_out(svc: &service::Service, req: &lambda_http::Request) -> Result<Response<Body>, ApiError> {
    let refuse = |why: &str| ApiError::new(HttpCode::Forbidden, why.to_string());
    let site = req.headers().get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if site.is_some_and(|s| s != "same-origin") {
        return Err(refuse("sign-out is accepted from the admin pages only"));
    }
    let session = crate::auth::admin_token(req).ok_or_else(|| refuse("no admin session"))?;
    let body = std::str::from_utf8(req.body().as_ref()).unwrap_or_default();
    let given = body.split('&').find_map(|p| p.strip_prefix("csrf=")).unwrap_or_default();
    if !crate::auth::csrf_matches(session, given) {
        return Err(refuse("sign-out needs the page's CSRF token"));
    }
    // Until the token expires (the authoriser's `exp`); a token without one lasts at most a
    // session's longest life.
    let exp = crate::auth::claims(req).and_then(|c| c.get("exp").and_then(|e| e.parse::<i64>().ok()));
    let longest = chrono::Utc::now() + chrono::Duration::seconds(crate::auth::ADMIN_SESSION_SECONDS);
    let expires_at = exp.and_then(|e| chrono::DateTime::from_timestamp(e, 0)).unwrap_or(longest);
    svc.revoke_admin_session(&crate::auth::session_id(session), expires_at).await?;
    Ok(Response::builder()
        .status(200)
        .header("content-type", "text/html; charset=utf-8")
        .header("set-cookie", crate::auth::clear_session_cookie())
        .body(Body::Text("<!doctype html><meta charset=\"utf-8\"><title>Signed out</title><p>Signed out.</p>".to_string()))
        .expect("static headers"))
}

/// Refuses an admin request whose session cookie names a signed-out session: what the admin
/// functions check on every request behind the authoriser, which runs outside the VPC, away
/// from the database.
///
/// # Errors
/// `401 unauthenticated` for a signed-out session; the service's errors.
pub(crate) async fn refuse_signed_out(svc: &service::Service, req: &lambda_http::Request) -> Result<(), ApiError> {
    let Some(session) = crate::auth::admin_token(req) else { return Ok(()) };
    if svc.admin_session_revoked(&crate::auth::session_id(session)).await? {
        return Err(ApiError::new(HttpCode::Unauthenticated, "this admin session was signed out; sign in again"));
    }
    Ok(())
}

/// `GET /_gm/signin` in AWS: without a code, a redirect to the identity provider's hosted UI with
/// a fresh state and PKCE challenge (kept in the sign-in cookie); back with `code` and `state`,
/// the code exchanged for the ID token, checked as the authoriser checks it, kept as the admin
/// session cookie, and a redirect to the game list. Locally the gateway answers this path itself.
///
/// # Errors
/// `404 no_route` where sign-in is not configured; `401 unauthenticated` for a provider error,
/// a failed exchange or an invalid token; `403 forbidden` for a state that is not this
/// browser's or a token of a non-admin. A refusal sets no session.
pub(crate) async fn sign_in(req: &lambda_http::Request, config: Option<crate::oidc::OidcConfig>) -> Result<Response<Body>, ApiError> {
    use lambda_http::RequestExt;
    let Some(config) = config.filter(|c| !c.redirect_uri.is_empty()) else {
        return Err(ApiError::new(HttpCode::NoRoute, "sign-in is not configured here (locally: wordgame token --admin --browser)"));
    };
    let query = req.query_string_parameters_ref();
    let param = |name: &str| query.and_then(|q| q.first(name)).map(str::to_string);
    let unauthenticated = |why: String| ApiError::new(HttpCode::Unauthenticated, why);
    if let Some(error) = param("error") {
        return Err(unauthenticated(format!("the identity provider refused the sign-in: {error}")));
    }
    let Some(code) = param("code") else {
        let random = |_| *Uuid::new_v4().as_bytes();
        let bytes: Vec<[u8; 16]> = (0..3).map(random).collect();
        let verifier_bytes: [u8; 32] = [bytes[0], bytes[1]].concat().try_into().expect("32 bytes");
        let (verifier, challenge) = crate::oidc::pkce(&verifier_bytes);
        let state = Uuid::from_bytes(bytes[2]).simple().to_string();
        return Ok(Response::builder()
            .status(302)
            .header("location", config.authorize_url(&state, &challenge))
            .header("set-cookie", crate::oidc::signin_cookie(&state, &verifier))
            .body(Body::Empty)
            .expect("static headers"));
    };
    let kept = req
        .headers()
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|h| crate::auth::cookie(h, crate::oidc::SIGNIN_COOKIE))
        .and_then(|v| v.split_once('.'))
        .map(|(s, v)| (s.to_string(), v.to_string()));
    let state = param("state").unwrap_or_default();
    let Some((_, verifier)) = kept.filter(|(kept_state, _)| crate::auth::csrf_matches(kept_state, &crate::auth::csrf_token(&state))) else {
        return Err(ApiError::new(HttpCode::Forbidden, "this sign-in was not started by this browser; start again at /_gm/signin"));
    };
    let token = crate::oidc::exchange_code(&config, &code, &verifier).await.map_err(|e| unauthenticated(e.to_string()))?;
    let now = chrono::Utc::now().timestamp();
    let claims = match crate::oidc::check_token(&config, &admin_keys(), &token, now).await {
        Ok(claims) => claims,
        Err(crate::oidc::OidcError::NotAdmin) => return Err(ApiError::new(HttpCode::Forbidden, "admins only")),
        Err(e) => return Err(unauthenticated(e.to_string())),
    };
    let max_age = claims.get("exp").and_then(|e| e.parse::<i64>().ok()).map_or(0, |exp| exp - now);
    Ok(Response::builder()
        .status(303)
        .header("location", crate::auth::ADMIN_PATH)
        .header("set-cookie", crate::auth::session_cookie(&token, max_age))
        .header("set-cookie", crate::oidc::clear_signin_cookie())
        .body(Body::Empty)
        .expect("static headers"))
}

/// The pool's signing keys, cached for the life of the Lambda instance.
pub fn admin_keys() -> crate::oidc::KeyCache {
    static KEYS: std::sync::OnceLock<crate::oidc::KeyCache> = std::sync::OnceLock::new();
    KEYS.get_or_init(crate::oidc::KeyCache::default).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished chain game of two steps with `scores` at the end, ended by `reason` against
    /// `loser`.
    fn chain_replay(scores: [i32; 2], reason: service::EndReason, loser: usize) -> AdminReplay {
        let step = |index, scores: [i32; 2]| games::chain::ChainStep {
            index,
            mv: None,
            scores: scores.to_vec(),
            syllable: "bình".into(),
            to_move: None,
        };
        let seat = |seat: usize, name: &str| service::AdminSeat { seat, account_id: None, display_name: name.into() };
        AdminReplay {
            game_id: Uuid::nil(),
            variant: service::Variant::NOI_TU,
            status: service::GameStatus::Finished,
            end_reason: Some(reason),
            outcome: Some(games::Outcome {
                reason,
                seat: Some(games::Seat(loser as u8)),
                winners: vec![games::Seat(1 - loser as u8)],
                adjustments: vec![0, 0],
            }),
            seats: vec![seat(0, "An"), seat(1, "Bình")],
            draw: Vec::new(),
            steps: games::Timeline::new(games::chain::ChainTimeline {
                opening: "hòa bình".into(),
                steps: vec![step(0, [0, 0]), step(1, scores)],
            }),
        }
    }

    #[test]
    fn a_chain_result_says_who_won_and_why_whatever_the_points() {
        let name_of = |seat: usize| ["An", "Bình"][seat].to_string();
        // The winner has fewer points, as is common in a chain: no resignation is read into it.
        for (reason, why) in [
            (service::EndReason::NoLegalMove, "Bình had no word left"),
            (service::EndReason::Timeout, "Bình ran out of time"),
            (service::EndReason::Resigned, "Bình resigned"),
        ] {
            let result = game_result(&chain_replay([12, 30], reason, 1), &name_of).unwrap();
            assert_eq!((result.winners.as_str(), result.reason.as_str()), ("An wins", why));
            let rows: Vec<(i32, &str)> = result.rows.iter().map(|r| (r.total, r.margin.as_str())).collect();
            assert_eq!(rows, [(12, format!("won: {why}").as_str()), (30, "lost")]);
            assert!(result.rows[0].winner && !result.rows[1].winner);
        }
    }

    #[test]
    fn a_player_filter_with_a_control_character_is_refused() {
        assert_eq!(player_filter(Some("  Вася ")).unwrap(), Some("Вася"));
        assert_eq!(player_filter(Some(" ")).unwrap(), None);
        for bad in ["a\0b", "\0", "a\u{1}", "a\nb", "a\u{7f}", "a\u{9f}"] {
            let e = player_filter(Some(bad)).unwrap_err();
            assert_eq!(e.response("r").status(), 400, "{bad:?}");
        }
    }

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(crate::oidc::form_value("a b&c=<d>'"), "a%20b%26c%3D%3Cd%3E%27");
        assert_eq!(crate::oidc::form_value("Вася"), "%D0%92%D0%B0%D1%81%D1%8F");
        assert_eq!(crate::oidc::form_value("123.abc-_~"), "123.abc-_~");
    }

    fn oidc() -> crate::oidc::OidcConfig {
        crate::oidc::OidcConfig {
            domain: "https://auth.example.org".into(),
            client_id: "client-1".into(),
            redirect_uri: "https://api.example.org/_gm/signin".into(),
            issuer: "https://cognito-idp.eu-west-1.amazonaws.com/pool".into(),
        }
    }

    fn request(query: &[(&str, &str)], cookie: Option<&str>) -> lambda_http::Request {
        use lambda_http::RequestExt;
        let mut b = http::Request::builder().uri("https://api.example.org/_gm/signin");
        if let Some(c) = cookie {
            b = b.header("cookie", c);
        }
        let q: std::collections::HashMap<String, String> = query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        b.body(Body::Empty).unwrap().with_query_string_parameters(q)
    }

    #[tokio::test]
    async fn the_sign_in_starts_at_the_hosted_ui_and_refuses_a_foreign_return() {
        let start = sign_in(&request(&[], None), Some(oidc())).await.unwrap();
        assert_eq!(start.status(), 302);
        let location = start.headers()["location"].to_str().unwrap();
        assert!(location.starts_with("https://auth.example.org/oauth2/authorize?response_type=code&client_id=client-1"), "{location}");
        let kept = start.headers()["set-cookie"].to_str().unwrap();
        let (state, verifier) = kept.split(';').next().unwrap().strip_prefix("wordgame_signin=").unwrap().split_once('.').unwrap();
        let (_, challenge) = {
            use base64::Engine;
            let raw: [u8; 32] = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(verifier).unwrap().try_into().unwrap();
            crate::oidc::pkce(&raw)
        };
        assert!(location.contains(&format!("&state={state}&code_challenge={challenge}&code_challenge_method=S256")), "{location}");
        let again = sign_in(&request(&[], None), Some(oidc())).await.unwrap();
        assert_ne!(again.headers()["set-cookie"], start.headers()["set-cookie"], "a fresh state and verifier each time");

        // Back from the provider: the state must be this browser's; nothing is set otherwise.
        let cookie = format!("wordgame_signin={state}.{verifier}");
        for (query, cookie, status) in [
            (vec![("code", "c"), ("state", "another")], Some(cookie.as_str()), 403),
            (vec![("code", "c"), ("state", state)], None, 403),
            (vec![("code", "c")], Some(cookie.as_str()), 403),
            (vec![("error", "access_denied")], Some(cookie.as_str()), 401),
        ] {
            let e = sign_in(&request(&query, cookie), Some(oidc())).await.unwrap_err();
            assert_eq!(e.response("r").status(), status, "{query:?}");
            assert!(e.response("r").headers().get("set-cookie").is_none());
        }
        let unconfigured = sign_in(&request(&[], None), None).await.unwrap_err();
        assert_eq!(unconfigured.response("r").status(), 404);
    }

    #[test]
    fn filters_refuse_what_they_cannot_mean() {
        assert!(parse_status(Some("finished")).unwrap().is_some());
        assert!(parse_status(Some("")).unwrap().is_none());
        assert!(parse_status(Some("finished' OR 1=1 --")).is_err());
        assert!(player_filter(Some(&"x".repeat(65))).is_err());
        assert_eq!(player_filter(Some("  ")).unwrap(), None);
    }
}
