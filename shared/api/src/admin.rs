//! The admin pages: server-rendered (askama, escaped) with a small page-scoped stepper over the
//! timeline embedded as JSON, the timeline itself, the game in GCG, and an account's games.

use askama::Template;
use lambda_http::{Body, Response};
use service::Timeline;
use service::{AdminAccount, AdminReplay, DrawView};
use uuid::Uuid;

use crate::{ApiError, HttpCode};

/// One round of the first-move draw, for the page.
pub(crate) struct DrawRound {
    round: i16,
    picks: Vec<DrawView>,
    leader: Option<String>,
}

pub(crate) struct Cell {
    name: String,
    premium: &'static str,
}

pub(crate) struct Row {
    number: usize,
    cells: Vec<Cell>,
}

/// What both replay pages show above their steps: the game, its seats and its draw.
pub(crate) struct Heading<'a> {
    game_id: Uuid,
    variant: &'static str,
    status: &'static str,
    end_reason: Option<&'static str>,
    seats: &'a [service::AdminSeat],
    draw_title: &'static str,
    draw_rounds: Vec<DrawRound>,
}

#[derive(Template)]
#[template(path = "replay.html")]
struct ReplayPage<'a> {
    head: Heading<'a>,
    columns: Vec<char>,
    rows: Vec<Row>,
    log: Vec<String>,
    last_step: usize,
    timeline_json: String,
}

#[derive(Template)]
#[template(path = "chain.html")]
struct ChainPage<'a> {
    head: Heading<'a>,
    opening: &'a str,
    log: Vec<String>,
    last_step: usize,
    timeline_json: String,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage<'a> {
    name: &'a str,
    kind: &'static str,
    level: Option<&'static str>,
    account_id: Uuid,
    created_at: String,
    games: &'a [service::AccountGame],
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

/// The replay as JSON for the page's script, `<` escaped so no display name can close the
/// script element.
fn embedded(replay: &AdminReplay) -> Result<String, ApiError> {
    Ok(serde_json::to_string(replay).map_err(|_| ApiError::new(HttpCode::Internal, "internal error"))?.replace('<', "\\u003c"))
}

/// The replay page of a game: the board and racks of a tile game, or the chain's steps.
pub(crate) fn replay_page(replay: &AdminReplay) -> Result<Response<Body>, ApiError> {
    let name_of = |seat: usize| replay.seats.get(seat).map_or_else(|| format!("seat {seat}"), |s| s.display_name.clone());
    let head = |draw_title| Heading {
        game_id: replay.game_id,
        variant: replay.variant.id(),
        status: replay.status.id(),
        end_reason: replay.end_reason.map(service::EndReason::id),
        seats: &replay.seats,
        draw_title,
        draw_rounds: draw_rounds(replay),
    };
    let log = replay.steps.log(&name_of);
    let last_step = replay.steps.last_step();
    let timeline = match &replay.steps {
        Timeline::Tile(t) => t,
        Timeline::Chain(chain) => {
            let page = ChainPage { head: head("Draw of lots"), opening: &chain.opening, log, last_step, timeline_json: embedded(replay)? };
            return html(page.render());
        }
    };
    let rows = (0..15)
        .map(|r| Row {
            number: r + 1,
            cells: (0..15)
                .map(|c| Cell { name: format!("{}{}", (b'A' + c as u8) as char, r + 1), premium: timeline.premiums[r * 15 + c] })
                .collect(),
        })
        .collect();
    let page = ReplayPage {
        head: head("First-move draw"),
        columns: ('A'..='O').collect(),
        rows,
        log,
        last_step,
        timeline_json: embedded(replay)?,
    };
    html(page.render())
}

/// An account's page.
pub(crate) fn account_page(a: &AdminAccount) -> Result<Response<Body>, ApiError> {
    let page = AccountPage {
        name: &a.account.display_name,
        kind: if a.account.kind == service::AccountKind::Robot { "robot" } else { "human" },
        level: a.account.robot_level.map(service::RobotLevel::id),
        account_id: a.account.account_id,
        created_at: a.account.created_at.to_rfc3339(),
        games: &a.games,
    };
    html(page.render())
}

fn html(rendered: Result<String, askama::Error>) -> Result<Response<Body>, ApiError> {
    let text = rendered.map_err(|e| {
        tracing::error!(error = %e, "template failed");
        ApiError::new(HttpCode::Internal, "internal error")
    })?;
    Ok(Response::builder().status(200).header("content-type", "text/html; charset=utf-8").body(Body::Text(text)).expect("static headers"))
}

/// The GCG text response.
pub(crate) fn gcg(text: String) -> Response<Body> {
    Response::builder().status(200).header("content-type", "text/plain; charset=utf-8").body(Body::Text(text)).expect("static headers")
}
