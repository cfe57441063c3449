//! The admin pages: server-rendered (askama, escaped) with a small page-scoped stepper over the
//! timeline embedded as JSON, the timeline itself, the game in GCG, and an account's games.

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

pub(crate) struct Cell {
    name: String,
    premium: &'static str,
}

pub(crate) struct Row {
    number: usize,
    cells: Vec<Cell>,
}

#[derive(Template)]
#[template(path = "replay.html")]
struct ReplayPage<'a> {
    game_id: Uuid,
    variant: &'a str,
    status: &'a str,
    end_reason: &'a Option<String>,
    seats: &'a [service::AdminSeat],
    draw_rounds: Vec<DrawRound>,
    columns: Vec<char>,
    rows: Vec<Row>,
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
    games: &'a [store::AccountGame],
}

/// The replay page of a game.
pub(crate) fn replay_page(replay: &AdminReplay) -> Result<Response<Body>, ApiError> {
    let name_of = |seat: usize| replay.seats.get(seat).map_or_else(|| format!("seat {seat}"), |s| s.display_name.clone());
    let mut draw_rounds: Vec<DrawRound> = Vec::new();
    for d in &replay.draw {
        let pick = DrawView { display_name: Some(d.display_name.clone().unwrap_or_else(|| "(opponent)".to_string())), ..d.clone() };
        match draw_rounds.last_mut() {
            Some(r) if r.round == d.round => r.picks.push(pick),
            _ => draw_rounds.push(DrawRound { round: d.round, picks: vec![pick], leader: None }),
        }
    }
    if let Some(last) = draw_rounds.last_mut()
        && let Some(best) = last.picks.iter().min_by_key(|p| p.rank)
    {
        last.leader = best.display_name.clone();
    }
    let log = replay
        .timeline
        .steps
        .iter()
        .filter_map(|s| s.mv.as_ref().map(|m| (s, m)))
        .map(|(s, m)| {
            let who = name_of(m.entry.seat.index());
            let what = match &m.entry.action {
                engine::Action::Play { words, .. } => {
                    let main = words.iter().find(|w| w.main).map_or(String::new(), |w| w.word.clone());
                    format!("plays {main} for {}", m.entry.score)
                }
                engine::Action::Exchange { tiles } => format!("exchanges {} tiles", tiles.len()),
                engine::Action::Pass => "passes".to_string(),
                engine::Action::Resign => "resigns".to_string(),
                engine::Action::Timeout => "runs out of time".to_string(),
            };
            let drawn = if m.drawn.is_empty() { String::new() } else { format!("; draws {}", m.drawn.concat()) };
            format!("{who} {what}{drawn}; bag {}", s.bag)
        })
        .collect();
    let rows = (0..15)
        .map(|r| Row {
            number: r + 1,
            cells: (0..15)
                .map(|c| Cell { name: format!("{}{}", (b'A' + c as u8) as char, r + 1), premium: replay.premiums[r * 15 + c] })
                .collect(),
        })
        .collect();
    // `<` escaped so no display name can close the script element.
    let timeline_json =
        serde_json::to_string(replay).map_err(|_| ApiError::new(HttpCode::Internal, "internal error"))?.replace('<', "\\u003c");
    let page = ReplayPage {
        game_id: replay.game_id,
        variant: &replay.variant,
        status: &replay.status,
        end_reason: &replay.end_reason,
        seats: &replay.seats,
        draw_rounds,
        columns: ('A'..='O').collect(),
        rows,
        log,
        last_step: replay.timeline.steps.len() - 1,
        timeline_json,
    };
    html(page.render())
}

/// An account's page.
pub(crate) fn account_page(a: &AdminAccount) -> Result<Response<Body>, ApiError> {
    let page = AccountPage {
        name: &a.account.display_name,
        kind: if a.account.kind == store::AccountKind::Robot { "robot" } else { "human" },
        level: a.account.robot_level.map(store::RobotLevel::id),
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
