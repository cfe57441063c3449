//! The game routes: create, read, move, preview, hint, resign, challenge, claim a timeout, draw
//! for the first move, the analysis, rematch and decline.

use lambda_http::http;
use service::SubmitMove;

use super::params::{game_id, not_modified, optional_body, parse_body, query, query_limit};
use super::{Answer, Cx};
use crate::requests::{ChallengeBody, CreateGameBody, PreviewBody};
use crate::response::{self, json_response};
use crate::{ApiError, HttpCode};

/// `POST /games`.
pub(super) async fn create_game(cx: &Cx<'_>) -> Answer {
    let body = parse_body::<CreateGameBody>(cx.req)?.parse()?;
    Ok(json_response(201, &cx.svc.create_game(cx.caller()?, &body).await?))
}

/// `GET /games/{id}`: the view with its `ETag`, or `304` to a current `If-None-Match`.
pub(super) async fn get_game(cx: &Cx<'_>) -> Answer {
    let (id, caller) = (game_id(cx.req)?, cx.caller()?);
    if cx.req.headers().contains_key(http::header::IF_NONE_MATCH) {
        let etag = cx.svc.game_version(caller, id).await?.etag();
        if response::if_none_match(cx.req.headers(), &etag) {
            return Ok(not_modified(&etag));
        }
    }
    let view = cx.svc.get_game(caller, id).await?;
    let etag = service::GameVersion::of_view(&view).etag();
    let mut response = json_response(200, &view);
    response.headers_mut().insert("etag", etag.parse().expect("digits, letters and quotes"));
    Ok(response)
}

/// `GET /games/{id}/moves?after=N`.
pub(super) async fn get_moves(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let after = match query(cx.req, "after") {
        None => 0,
        Some(v) => v.parse::<u32>().map_err(|_| ApiError::new(HttpCode::InvalidQuery, "after must be a move number, 0 or more"))?,
    };
    Ok(json_response(200, &cx.svc.moves(cx.caller()?, id, after).await?))
}

/// `POST /games/{id}/moves`.
pub(super) async fn submit_move(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let body: SubmitMove = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.submit_move(cx.caller()?, id, &body).await?))
}

/// `POST /games/{id}/preview`.
pub(super) async fn preview_move(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let body: PreviewBody = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.preview_move(cx.caller()?, id, &body.mv).await?))
}

/// `GET /games/{id}/hint?limit=N`.
pub(super) async fn hint(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let limit = query_limit(cx.req, 5, 20)?;
    Ok(json_response(200, &cx.svc.hint(cx.caller()?, id, limit).await?))
}

/// `POST /games/{id}/resign`.
pub(super) async fn resign(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.resign(cx.caller()?, game_id(cx.req)?).await?))
}

/// `POST /games/{id}/challenge`: a submit of the challenge.
pub(super) async fn challenge(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let body: ChallengeBody = parse_body(cx.req)?;
    Ok(json_response(200, &cx.svc.submit_move(cx.caller()?, id, &body.into_submit()).await?))
}

/// `POST /games/{id}/timeout`.
pub(super) async fn claim_timeout(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.claim_timeout(cx.caller()?, game_id(cx.req)?).await?))
}

/// `POST /games/{id}/draw` (the body optional).
pub(super) async fn draw_tile(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let body: service::DrawTile = optional_body(cx.req)?;
    Ok(json_response(200, &cx.svc.draw_tile(cx.caller()?, id, &body).await?))
}

/// `GET /games/{id}/analysis`.
pub(super) async fn analysis(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.analysis(cx.caller()?, game_id(cx.req)?).await?))
}

/// `POST /games/{id}/rematch`: `201` for a new game, `200` for the one already made.
pub(super) async fn rematch(cx: &Cx<'_>) -> Answer {
    let (created, view) = cx.svc.rematch(cx.caller()?, game_id(cx.req)?).await?;
    Ok(json_response(if created { 201 } else { 200 }, &view))
}

/// `POST /games/{id}/decline`.
pub(super) async fn decline_rematch(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.decline(cx.caller()?, game_id(cx.req)?).await?))
}
