//! The lists and the lobby: open a game, list the open ones, join, seat a robot, withdraw; the
//! caller's games; the live games to watch.

use super::params::{game_id, parse_body, query, query_flag, query_limit};
use super::{Answer, Cx};
use crate::requests::{self, OpenGameBody, RobotBody};
use crate::response::json_response;
use crate::{ApiError, HttpCode};

/// `POST /games/open`.
pub(super) async fn open_game(cx: &Cx<'_>) -> Answer {
    let body = parse_body::<OpenGameBody>(cx.req)?.parse()?;
    Ok(json_response(201, &cx.svc.open_game(cx.caller()?, &body).await?))
}

/// `GET /games/open?variant=&time_control=&rated=&joinable=&limit=&cursor=`.
pub(super) async fn list_open_games(cx: &Cx<'_>) -> Answer {
    let req = cx.req;
    let limit = query_limit(req, service::MAX_LOBBY_PAGE, service::MAX_LOBBY_PAGE)?;
    let variant = query(req, "variant").map(requests::variant).transpose()?;
    let control = query(req, "time_control").map(requests::time_control_kind).transpose()?;
    let rated = query_flag(req, "rated")?;
    let joinable = query_flag(req, "joinable")?.unwrap_or(false);
    let page = cx.svc.list_open_games(cx.caller()?, variant, (control, rated, joinable), query(req, "cursor"), limit).await?;
    Ok(json_response(200, &page))
}

/// `POST /games/{id}/join`.
pub(super) async fn join_game(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.join_game(cx.caller()?, game_id(cx.req)?).await?))
}

/// `POST /games/{id}/robot`.
pub(super) async fn attach_robot(cx: &Cx<'_>) -> Answer {
    let id = game_id(cx.req)?;
    let level = parse_body::<RobotBody>(cx.req)?.parse()?;
    Ok(json_response(200, &cx.svc.attach_robot(cx.caller()?, id, level).await?))
}

/// `POST /games/{id}/withdraw`.
pub(super) async fn withdraw_game(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.withdraw_game(cx.caller()?, game_id(cx.req)?).await?))
}

/// `GET /games?status=&turn=&limit=&cursor=`.
pub(super) async fn list_my_games(cx: &Cx<'_>) -> Answer {
    let req = cx.req;
    let limit = query_limit(req, 20, service::MAX_MY_GAMES_PAGE)?;
    let page = cx.svc.my_games(cx.caller()?, query(req, "status"), query(req, "turn"), query(req, "cursor"), limit).await?;
    Ok(json_response(200, &page))
}

/// `GET /games/live?variant=&tournament_id=&limit=&cursor=`.
pub(super) async fn list_live_games(cx: &Cx<'_>) -> Answer {
    let req = cx.req;
    let limit = query_limit(req, 20, service::MAX_LIVE_PAGE)?;
    let variant = query(req, "variant").map(requests::variant).transpose()?;
    let tournament = query(req, "tournament_id")
        .map(|t| uuid::Uuid::try_parse(t).map_err(|_| ApiError::new(HttpCode::InvalidQuery, "tournament_id must be a UUID")))
        .transpose()?;
    Ok(json_response(200, &cx.svc.live_games(variant, tournament, query(req, "cursor"), limit).await?))
}
