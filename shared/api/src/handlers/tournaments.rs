//! The tournament routes: create, list, read, enter and leave, the director's registrations,
//! withdrawals, rounds, forfeits and close, and the `.t` export.

use lambda_http::RequestExt;

use super::params::{optional_body, parse_body, query_flag, tournament_id};
use super::{Answer, Cx};
use crate::requests::{CreateTournamentBody, EntryBody, ForfeitBody, PlayerBody};
use crate::response::{self, json_response};
use crate::{ApiError, HttpCode};

/// `POST /tournaments`.
pub(super) async fn create(cx: &Cx<'_>) -> Answer {
    let body = parse_body::<CreateTournamentBody>(cx.req)?.parse()?;
    Ok(json_response(201, &cx.svc.create_tournament(cx.caller()?, &body).await?))
}

/// `GET /tournaments?mine=`.
pub(super) async fn list(cx: &Cx<'_>) -> Answer {
    let mine = query_flag(cx.req, "mine")?.unwrap_or(false);
    let caller = cx.caller()?;
    Ok(json_response(200, &cx.svc.tournaments(mine.then(|| caller.account_id())).await?))
}

/// `GET /tournaments/{id}`.
pub(super) async fn get(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.tournament(cx.caller()?, tournament_id(cx.req)?).await?))
}

/// `POST /tournaments/{id}/players`.
pub(super) async fn register_player(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let body: PlayerBody = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.register_player(cx.caller()?, id, body.account_id).await?))
}

/// `POST /tournaments/{id}/withdraw`.
pub(super) async fn withdraw_player(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let body: PlayerBody = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.withdraw_player(cx.caller()?, id, body.account_id).await?))
}

/// `POST /tournaments/{id}/enter` (the body optional).
pub(super) async fn enter(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let body: EntryBody = optional_body(cx.req)?;
    Ok(json_response(200, &cx.svc.enter_tournament(cx.caller()?, id, body.account_id).await?))
}

/// `POST /tournaments/{id}/leave` (the body optional).
pub(super) async fn leave(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let body: EntryBody = optional_body(cx.req)?;
    Ok(json_response(200, &cx.svc.leave_tournament(cx.caller()?, id, body.account_id).await?))
}

/// `POST /tournaments/{id}/rounds`.
pub(super) async fn pair_round(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.pair_round(cx.caller()?, tournament_id(cx.req)?).await?))
}

/// `POST /tournaments/{id}/rounds/{round}/start`.
pub(super) async fn start_round(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let round = cx
        .req
        .path_parameters_ref()
        .and_then(|p| p.first("round"))
        .and_then(|r| r.parse::<u32>().ok())
        .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "the round in the path must be a number"))?;
    Ok(json_response(200, &cx.svc.start_round(cx.caller()?, id, round).await?))
}

/// `POST /tournaments/{id}/forfeits`.
pub(super) async fn record_forfeit(cx: &Cx<'_>) -> Answer {
    let id = tournament_id(cx.req)?;
    let body: ForfeitBody = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.record_forfeit(cx.caller()?, id, body.round, body.table, body.side).await?))
}

/// `POST /tournaments/{id}/close`.
pub(super) async fn close(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.close_tournament(cx.caller()?, tournament_id(cx.req)?).await?))
}

/// `GET /tournaments/{id}/export`: the `.t` file.
pub(super) async fn export(cx: &Cx<'_>) -> Answer {
    Ok(response::text_response(200, cx.svc.tournament_export(tournament_id(cx.req)?).await?))
}
