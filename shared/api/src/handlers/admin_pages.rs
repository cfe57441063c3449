//! The admin routes: the replay page (or GCG), its timeline, a tournament's page (or `.t`), an
//! account's page, the recent games, sign-out (the sign-in is an open route).

use super::params::{game_id, parse_id, raw_id, tournament_id};
use super::{Answer, Cx};
use crate::requests;
use crate::response::{self, json_response};

/// `GET /_gm/games/{id}`: the replay page with a finished game's analysis, or `{id}.gcg`.
pub(super) async fn replay(cx: &Cx<'_>) -> Answer {
    let svc = cx.svc;
    if let Some(id) = raw_id(cx.req).strip_suffix(".gcg") {
        return Ok(crate::admin::gcg(svc.admin_gcg(parse_id(id)?).await?));
    }
    let replay = svc.admin_replay(game_id(cx.req)?).await?;
    // A finished game's analysis (computed on the first view, stored after).
    let analysis = match replay.status {
        service::GameStatus::Finished => serde_json::from_str::<serde_json::Value>(svc.admin_analysis(replay.game_id).await?.get()).ok(),
        _ => None,
    };
    crate::admin::replay_page(&replay, analysis.as_ref())
}

/// `GET /_gm/games/{id}/timeline.json`.
pub(super) async fn timeline(cx: &Cx<'_>) -> Answer {
    Ok(json_response(200, &cx.svc.admin_replay(game_id(cx.req)?).await?))
}

/// `GET /_gm/tournaments/{id}`: its page, or `{id}.t`.
pub(super) async fn tournament(cx: &Cx<'_>) -> Answer {
    match raw_id(cx.req).strip_suffix(".t") {
        Some(id) => Ok(response::text_response(200, cx.svc.tournament_export(parse_id(id)?).await?)),
        None => crate::admin::tournament_page(&cx.svc.admin_tournament(tournament_id(cx.req)?).await?),
    }
}

/// `GET /_gm/accounts/{id}`.
pub(super) async fn account(cx: &Cx<'_>) -> Answer {
    crate::admin::account_page(&cx.svc.admin_account(game_id(cx.req)?).await?)
}

/// `POST /_gm/signout`.
pub(super) async fn sign_out(cx: &Cx<'_>) -> Answer {
    crate::admin::sign_out(cx.svc, cx.req).await
}

/// `GET /_gm?variant=&status=&player=&cursor=`: recent games and the newest tournaments.
pub(super) async fn games(cx: &Cx<'_>) -> Answer {
    let q = |name: &str| super::params::query(cx.req, name).map(str::to_string);
    let (variant, status, player, cursor) = (q("variant"), q("status"), q("player"), q("cursor"));
    let query = service::AdminGameQuery {
        status: crate::admin::parse_status(status.as_deref())?,
        player: crate::admin::player_filter(player.as_deref())?,
        // Checked after the status and the player: a query wrong in several ways is answered
        // for those first.
        variant: variant.as_deref().filter(|v| !v.is_empty()).map(requests::variant).transpose()?,
        cursor: cursor.as_deref(),
    };
    let tournaments = cx.svc.tournaments(None).await?;
    let csrf = crate::auth::admin_token(cx.req).map(crate::auth::csrf_token);
    crate::admin::games_page(&query, &cx.svc.admin_games(&query).await?, &tournaments, csrf)
}
