//! The account routes: the caller's own account and settings, an account's ratings, the
//! leaderboard.

use super::params::{game_id, parse_body, query, query_limit};
use super::{Answer, Cx};
use crate::requests::{self, SettingsBody};
use crate::response::json_response;
use crate::{ApiError, HttpCode};

/// `GET /me`.
pub(super) async fn me(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.me(cx.caller()?).await?))
}

/// `PUT /me/settings`.
pub(super) async fn update_settings(cx: &Cx<'_>) -> Answer {
    let body: SettingsBody = parse_body(cx.req)?;
    let spectating = service::spectators::spectating(&body.spectating)?;
    Ok(json_response(200, &cx.svc.set_spectating(cx.caller()?, spectating).await?))
}

/// `GET /accounts/{id}/ratings`.
pub(super) async fn account_ratings(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.account_ratings(game_id(cx.req)?).await?))
}

/// `GET /ratings/leaderboard?variant=&speed=&limit=&cursor=`.
pub(super) async fn leaderboard(cx: &Cx<'_>) -> Answer {
    let req = cx.req;
    let limit = query_limit(req, 50, service::MAX_LEADERBOARD_PAGE)?;
    let variant =
        query(req, "variant").ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "variant is required")).and_then(requests::variant)?;
    let speed = query(req, "speed")
        .and_then(service::Speed::from_id)
        .ok_or_else(|| ApiError::new(HttpCode::InvalidQuery, "speed is required: realtime or correspondence"))?;
    Ok(json_response(200, &cx.svc.leaderboard(variant, speed, query(req, "cursor"), limit).await?))
}
