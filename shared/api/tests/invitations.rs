//! Consent before any clock: a game that seats another human is an invitation until each
//! invitee accepts. Nobody moves, no clock runs and nothing counts before; an invitee may
//! decline (no result), only the inviter may withdraw, invitations expire, and they are capped
//! per inviter without touching the invitee's own open-game cap. Every refusal writes nothing.

use std::sync::Arc;

use chrono::{DateTime, Duration};
use serde_json::{Value, json};
use service::{Clock, ManualClock, SweepConfig};

use crate::common::{App, Player};

/// Ann invites Bob (who exists) to a game of `variant` with `turn_seconds`: the invitation.
async fn invite(app: &App, ann: Player, bob: Player, variant: &str, turn_seconds: Option<i32>) -> Value {
    let body = json!({"variant": variant, "opponents": [{"account": bob.0}], "turn_seconds": turn_seconds}).to_string();
    let (status, game) = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!(status, 201, "{game}");
    game
}

fn id(game: &Value) -> String {
    game["game_id"].as_str().unwrap().to_string()
}

fn code(answer: &(u16, Value)) -> (u16, Option<&str>) {
    (answer.0, answer.1["error"]["code"].as_str())
}

/// The reproduction: a 10-second Nối từ game seating Bob without his consent. It stays an open
/// invitation with no clock; 25 s later neither the sweep nor Ann's claim makes Bob lose, and
/// no move of anyone's is taken.
#[tokio::test]
async fn a_timed_game_naming_another_player_waits_for_them_and_nobody_loses_on_time() {
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 7).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let game = invite(&app, ann, bob, "noi-tu", Some(10)).await;
    let path = format!("/games/{}", id(&game));
    assert_eq!((game["status"].as_str(), game["invited_by"].as_str()), (Some("open"), Some(ann.0.to_string().as_str())));
    assert!(game["turn_deadline"].is_null(), "no clock before Bob accepts: {game}");
    let bobs = game["seats"].as_array().unwrap().iter().find(|s| s["account_id"] == bob.0.to_string()).unwrap();
    assert_eq!(bobs["invited"], true);
    // In Bob's games it awaits his answer, and is nobody's turn (whoever the draw made leader).
    let (_, listed) = app.call(Some(bob), "GET", "/games", "").await;
    let listed = listed["games"].as_array().unwrap().iter().find(|g| g["game_id"] == game["game_id"]).cloned().unwrap();
    assert_eq!((listed["awaits_you"].as_bool(), listed["your_turn"].as_bool()), (Some(true), Some(false)), "{listed}");
    assert!(listed["to_move"].is_null(), "{listed}");
    for who in [ann, bob] {
        let (_, mine) = app.call(Some(who), "GET", "/games?turn=mine", "").await;
        assert!(mine["games"].as_array().unwrap().iter().all(|g| g["game_id"] != game["game_id"]), "{mine}");
    }

    clock.advance(Duration::seconds(25));
    let before = app.everything().await;
    let report = app.state.service.sweep(SweepConfig::default()).await.unwrap();
    assert!(report.timed_out.is_empty() && report.expired.is_empty(), "{report:?}");
    let word = json!({"expected_move_no": 0, "move": {"kind": "word", "word": "mùa đông"}}).to_string();
    for (who, method, route, body) in [
        (ann, "POST", "/timeout", ""),
        (bob, "POST", "/timeout", ""),
        (ann, "POST", "/resign", ""),
        (bob, "POST", "/resign", ""),
        (ann, "POST", "/moves", word.as_str()),
        (bob, "POST", "/moves", word.as_str()),
        (bob, "POST", "/preview", r#"{"move": {"kind": "word", "word": "mùa đông"}}"#),
        (ann, "GET", "/hint", ""),
        (ann, "POST", "/robot", r#"{"level":"easy"}"#),
    ] {
        let answer = app.call(Some(who), method, &format!("{path}{route}"), body).await;
        assert_eq!(code(&answer), (409, Some("awaiting_acceptance")), "{method} {route}: {}", answer.1);
    }
    assert_eq!(app.everything().await, before, "nothing was written");

    // Bob accepts: now, and only now, the clock runs.
    let (status, joined) = app.call(Some(bob), "POST", &format!("{path}/join"), "").await;
    assert_eq!((status, joined["status"].as_str()), (200, Some("active")), "{joined}");
    let deadline = DateTime::parse_from_rfc3339(joined["turn_deadline"].as_str().unwrap()).unwrap();
    assert_eq!(deadline, clock.now() + Duration::seconds(10));
    assert!(joined["result"].is_null());
}

/// A rematch is an invitation too: the invitee cannot play it before accepting (the hostile
/// test played a whole one while it was open), nor can the inviter.
#[tokio::test]
async fn a_rematch_cannot_be_played_before_it_is_accepted() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let old = app.create(ann, "noi-tu", &json!([{"account": bob.0}]).to_string()).await;
    let (status, out) = app.call(Some(ann), "POST", &format!("/games/{}/resign", id(&old)), "").await;
    assert_eq!(status, 200, "{out}");
    let (status, rematch) = app.call(Some(bob), "POST", &format!("/games/{}/rematch", id(&old)), "").await;
    assert_eq!((status, rematch["status"].as_str()), (201, Some("open")), "{rematch}");
    assert_eq!(rematch["invited_by"], bob.0.to_string());
    let path = format!("/games/{}", id(&rematch));
    let before = app.everything().await;
    for who in [ann, bob] {
        let (_, view) = app.call(Some(who), "GET", &path, "").await;
        let mv = json!({"expected_move_no": view["move_count"], "move": {"kind": "pass"}}).to_string();
        let answer = app.call(Some(who), "POST", &format!("{path}/moves"), &mv).await;
        assert_eq!(code(&answer), (409, Some("awaiting_acceptance")), "{}", answer.1);
    }
    // Ann, the invitee, may not withdraw it (she declines); Bob, who asked, may not decline it.
    let answer = app.call(Some(ann), "POST", &format!("{path}/withdraw"), "").await;
    assert_eq!(code(&answer), (409, Some("not_inviter")), "{}", answer.1);
    let answer = app.call(Some(bob), "POST", &format!("{path}/decline"), "").await;
    assert_eq!(code(&answer), (409, Some("not_invited")), "{}", answer.1);
    assert_eq!(app.everything().await, before, "nothing was written");
    // Bob withdraws his own invitation: no result for anyone.
    let (status, withdrawn) = app.call(Some(bob), "POST", &format!("{path}/withdraw"), "").await;
    assert_eq!((status, withdrawn["status"].as_str(), withdrawn["result"].is_null()), (200, Some("withdrawn"), true), "{withdrawn}");
}

/// Three seats: one invitee accepting leaves the game waiting for the other; either may then
/// decline, which withdraws it with no result; the stranger may do neither.
#[tokio::test]
async fn every_invitee_must_accept_and_any_one_may_decline() {
    let app = App::new().await;
    let (ann, bob, cy, eve) = (Player::new(), Player::new(), Player::new(), Player::new());
    for who in [bob, cy] {
        app.create(who, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    }
    let body =
        json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}, {"account": cy.0}, {"robot": "easy"}], "turn_seconds": 600});
    let (status, game) = app.call(Some(ann), "POST", "/games", &body.to_string()).await;
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["move_count"], 0, "the robot waits too, even when it won the draw");
    let path = format!("/games/{}", id(&game));
    let (status, joined) = app.call(Some(bob), "POST", &format!("{path}/join"), "").await;
    assert_eq!((status, joined["status"].as_str()), (200, Some("open")), "cy has not accepted: {joined}");
    assert!(joined["turn_deadline"].is_null());
    let answer = app.call(Some(eve), "POST", &format!("{path}/decline"), "").await;
    assert_eq!(code(&answer), (403, Some("not_your_game")));
    let answer = app.call(Some(eve), "POST", &format!("{path}/join"), "").await;
    assert_eq!(code(&answer), (409, Some("not_open")));
    let answer = app.call(Some(bob), "POST", &format!("{path}/withdraw"), "").await;
    assert_eq!(code(&answer), (409, Some("not_inviter")), "an invitee who accepted is still not the inviter");
    // Bob, who accepted, changes his mind before the game starts: no result for anyone.
    let (status, declined) = app.call(Some(bob), "POST", &format!("{path}/decline"), "").await;
    assert_eq!((status, declined["status"].as_str(), declined["result"].is_null()), (200, Some("withdrawn"), true), "{declined}");
    let answer = app.call(Some(cy), "POST", &format!("{path}/join"), "").await;
    assert_eq!(code(&answer), (409, Some("not_open")), "withdrawn: no acceptance any more: {}", answer.1);

    // Both accept: the game starts, and a robot that leads moves at once.
    let (_, game) = app.call(Some(ann), "POST", "/games", &body.to_string()).await;
    let path = format!("/games/{}", id(&game));
    app.call(Some(cy), "POST", &format!("{path}/join"), "").await;
    let (status, started) = app.call(Some(bob), "POST", &format!("{path}/join"), "").await;
    assert_eq!((status, started["status"].as_str()), (200, Some("active")), "{started}");
    assert!(started["turn_deadline"].is_string());
    let robot_seat = started["seats"].as_array().unwrap().iter().position(|s| s["kind"] == "robot").unwrap();
    assert_ne!(started["to_move"], robot_seat, "a robot to move has moved");
}

/// Invitations expire with the open games: the sweep withdraws one nobody answered.
#[tokio::test]
async fn an_unanswered_invitation_expires() {
    let clock = Arc::new(ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 7).await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let game = invite(&app, ann, bob, "erudit", Some(60)).await;
    let config = SweepConfig::default();
    clock.advance(config.open_expiry + Duration::seconds(1));
    let report = app.state.service.sweep(config).await.unwrap();
    assert_eq!(report.expired.iter().map(ToString::to_string).collect::<Vec<_>>(), vec![id(&game)]);
    let (_, view) = app.call(Some(bob), "GET", &format!("/games/{}", id(&game)), "").await;
    assert_eq!((view["status"].as_str(), view["result"].is_null()), (Some("withdrawn"), true), "{view}");
    let answer = app.call(Some(bob), "POST", &format!("/games/{}/join", id(&game)), "").await;
    assert_eq!(code(&answer), (409, Some("not_open")), "no acceptance any more");
}

/// The hostile test's three invitations blocked the victim from opening games of that variant:
/// invitations now do not count against the invitee's open-game cap, and one inviter may send
/// one account only so many at once (another inviter is not held back by them).
#[tokio::test]
async fn invitations_are_capped_per_inviter_and_never_block_the_invitee() {
    let app = App::new().await;
    let (ann, bob, cy) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let mut sent = Vec::new();
    for _ in 0..service::MAX_INVITATIONS_FROM_ONE {
        sent.push(id(&invite(&app, ann, bob, "scrabble-en", None).await));
    }
    for _ in 0..service::MAX_OPEN_PER_VARIANT {
        let (status, open) = app.call(Some(bob), "POST", "/games/open", r#"{"variant":"scrabble-en"}"#).await;
        assert_eq!(status, 201, "invitations do not fill bob's own open games: {open}");
    }
    let before = app.everything().await;
    let body = json!({"variant": "erudit", "opponents": [{"account": bob.0}]}).to_string();
    let answer = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!(code(&answer), (409, Some("too_many_invitations")), "{}", answer.1);
    assert_eq!(answer.1["error"]["details"], json!({"limit": service::MAX_INVITATIONS_FROM_ONE, "account_id": bob.0}));
    assert_eq!(app.everything().await, before, "nothing was written");
    let (status, _) = app.call(Some(cy), "POST", "/games", &body).await;
    assert_eq!(status, 201, "another inviter is not held back");
    // An answered invitation frees a place.
    app.call(Some(bob), "POST", &format!("/games/{}/decline", sent[0]), "").await;
    let (status, again) = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!(status, 201, "{again}");
}

/// One account may sit in at most so many unfinished games: creating, joining and accepting
/// more are refused with a typed 409 and write nothing; finishing one frees a place.
#[tokio::test]
async fn unfinished_games_per_account_are_capped() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let mut games = vec![id(&app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await)];
    let invitation = invite(&app, bob, ann, "noi-tu", None).await;
    let (_, open) = app.call(Some(bob), "POST", "/games/open", r#"{"variant":"erudit"}"#).await;
    games.push(id(&invitation));
    while games.len() < service::MAX_UNFINISHED_GAMES as usize {
        games.push(id(&app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await));
    }
    let before = app.everything().await;
    for (method, path, body) in [
        ("POST", "/games".to_string(), r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}]}"#),
        ("POST", "/games/open".to_string(), r#"{"variant":"noi-tu"}"#),
        ("POST", format!("/games/{}/join", id(&open)), ""),
    ] {
        let answer = app.call(Some(ann), method, &path, body).await;
        assert_eq!(code(&answer), (409, Some("too_many_games")), "{path}: {}", answer.1);
        assert_eq!(answer.1["error"]["details"]["limit"], service::MAX_UNFINISHED_GAMES);
    }
    assert_eq!(app.everything().await, before, "nothing was written");
    // Accepting an invitation she holds already is within the cap: it is one of her games.
    let (status, accepted) = app.call(Some(ann), "POST", &format!("/games/{}/join", id(&invitation)), "").await;
    assert_eq!((status, accepted["status"].as_str()), (200, Some("active")), "{accepted}");
    let (status, _) = app.call(Some(ann), "POST", &format!("/games/{}/resign", games[0]), "").await;
    assert_eq!(status, 200);
    let (status, body) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"noi-tu"}"#).await;
    assert_eq!(status, 201, "a finished game frees a place: {body}");
}

/// The id a newcomer is shown by `/me` (and copies from the lobby) can be invited at once: the
/// account exists from that first request, before it has played any game.
#[tokio::test]
async fn a_newcomer_s_id_from_me_is_invited_and_accepts() {
    let app = App::new().await;
    let (ann, newcomer) = (Player::new(), Player::new());
    let (status, me) = app.call(Some(newcomer), "GET", "/me", "").await;
    assert_eq!((status, me["account_id"].as_str()), (200, Some(newcomer.0.to_string().as_str())), "{me}");
    let body = json!({"variant": "erudit", "opponents": [{"account": me["account_id"]}]}).to_string();
    let (status, game) = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!(status, 201, "{game}");
    let (status, joined) = app.call(Some(newcomer), "POST", &format!("/games/{}/join", id(&game)), "").await;
    assert_eq!((status, joined["status"].as_str()), (200, Some("active")), "{joined}");
}
