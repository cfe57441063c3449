//! Spectators through the API on a real database: a stranger watches a robot game (the view,
//! the journal and the push events never hold a rack or exchanged letters), a private game is
//! `404` to a stranger on every read, the players' settings decide (every human must allow),
//! the live list holds only what may be watched, a page at a time, and a tournament's delay
//! holds its live games back from spectators.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::common::{App, Player};
use crate::tournaments::{direct, draw_until_started, one_game, players};
use crate::websocket::event;
use api::websocket::{WsOutcome, handle_websocket};
use serde_json::{Value, json};
use service::{InvitationEvent, MoveEvent, Notifier, NotifyFuture, TournamentEvent};
use uuid::Uuid;

/// The push frames the service hands out, as they would go to every subscriber.
#[derive(Default)]
struct Frames(Mutex<Vec<String>>);

impl Notifier for Frames {
    fn moved<'a>(&'a self, events: &'a [MoveEvent]) -> NotifyFuture<'a> {
        self.0.lock().unwrap().extend(events.iter().map(MoveEvent::frame));
        Box::pin(async {})
    }
    fn invited<'a>(&'a self, _: &'a [InvitationEvent]) -> NotifyFuture<'a> {
        Box::pin(async {})
    }
    fn told<'a>(&'a self, _: &'a [TournamentEvent]) -> NotifyFuture<'a> {
        Box::pin(async {})
    }
}

/// Every object anywhere in `value`.
fn objects<'a>(value: &'a Value, out: &mut Vec<&'a serde_json::Map<String, Value>>) {
    match value {
        Value::Object(map) => {
            out.push(map);
            map.values().for_each(|v| objects(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| objects(v, out)),
        _ => {}
    }
}

/// Asserts that `answer` (a view, a journal page or a push frame of a game being played) shows
/// no rack and no exchanged letters: no rack but the sizes (the caller's own null), no letters
/// in an exchange, no bag.
fn shows_no_rack(answer: &Value, what: &str) {
    let mut all = Vec::new();
    objects(answer, &mut all);
    for object in all {
        for (key, value) in object {
            let allowed = key == "rack_size" || (key == "your_rack" && value.is_null()) || (key == "racks" && value.is_null());
            assert!(!key.contains("rack") || allowed, "{what}: {key} = {value} in {answer}");
            assert_ne!(key, "bag", "{what}: the bag in {answer}");
        }
        if object.get("kind").and_then(Value::as_str) == Some("exchange") {
            assert!(object.get("tiles").is_none(), "{what}: exchanged letters in {answer}");
        }
    }
}

async fn get(app: &App, who: Player, path: &str) -> (u16, Value) {
    app.call(Some(who), "GET", path, "").await
}

#[tokio::test]
async fn a_stranger_watches_a_robot_game_and_never_sees_a_rack_or_exchanged_letters() {
    let mut app = App::new().await;
    let frames = Arc::new(Frames::default());
    app.state.service = app.state.service.clone().with_notifier(frames.clone());
    let (ann, carl) = (Player::new(), Player::new());
    let game = app.create(ann, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();

    // Carl subscribes on the push socket, as a player would.
    assert_eq!(handle_websocket(&app.state, &event("$connect", Some(carl), None, false)).await, WsOutcome { status: 200, reply: None });
    let subscribe = json!({"action": "subscribe", "game_id": id}).to_string();
    let answer = handle_websocket(&app.state, &event("$default", Some(carl), Some(&subscribe), false)).await;
    let answer: Value = serde_json::from_str(answer.reply.as_deref().unwrap()).unwrap();
    assert_eq!(answer["type"], "subscribed", "{answer}");
    assert_eq!(app.state.service.subscribers(id.parse().unwrap()).await.unwrap(), [crate::websocket::CONNECTION]);

    // Ann exchanges (a move with letters only she may see), then plays on; the robot replies.
    for n in 0..4 {
        let (_, view) = get(&app, ann, &format!("/games/{id}")).await;
        if view["status"] != "active" {
            break;
        }
        let expected = view["move_count"].as_u64().unwrap();
        let body = if n == 0 {
            let rack = view["your_rack"].as_array().unwrap();
            let tiles: Vec<Value> = rack[..3].iter().map(|t| if t == "?" { json!("blank") } else { json!({"letter": t}) }).collect();
            json!({"expected_move_no": expected, "move": {"kind": "exchange", "tiles": tiles}}).to_string()
        } else {
            app.best_move(ann, &id).await
        };
        let (status, out) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{out}");

        let (status, watched) = get(&app, carl, &format!("/games/{id}")).await;
        assert_eq!(status, 200, "{watched}");
        assert_eq!((watched["spectator"].as_bool(), watched["your_seat"].as_u64()), (Some(true), None));
        assert_eq!(watched["move_count"], view["move_count"].as_u64().unwrap() + out["moves"].as_array().unwrap().len() as u64);
        assert_eq!(watched["board"], get(&app, ann, &format!("/games/{id}")).await.1["board"], "the spectator sees the board");
        assert!(watched["hints_left"].is_null());
        shows_no_rack(&watched, "the view");
        let (status, journal) = get(&app, carl, &format!("/games/{id}/moves")).await;
        assert_eq!(status, 200, "{journal}");
        assert_eq!(journal["moves"][0]["kind"], "exchange");
        assert_eq!(journal["moves"][0]["count"], 3, "an exchange as its count");
        shows_no_rack(&journal, "the journal");
    }
    // A spectator may only watch: every action is refused, and nothing is written.
    let before = app.everything().await;
    let pass = json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string();
    for (method, path, body) in [
        ("POST", format!("/games/{id}/moves"), pass.as_str()),
        ("POST", format!("/games/{id}/resign"), ""),
        ("GET", format!("/games/{id}/hint"), ""),
    ] {
        let (status, answer) = app.call(Some(carl), method, &path, body).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (403, Some("not_your_game")), "{method} {path}");
    }
    assert_eq!(app.everything().await, before);
    // Ann lets nobody watch any more: Carl's subscription gets nothing from now on.
    app.call(Some(ann), "PUT", "/me/settings", r#"{"spectating":"never"}"#).await;
    assert!(app.state.service.subscribers(id.parse().unwrap()).await.unwrap().is_empty());
    // The push frames for the game: the move's number, whose turn, the state; never letters.
    let frames = frames.0.lock().unwrap().clone();
    assert!(frames.len() >= 4, "{frames:?}");
    for frame in &frames {
        shows_no_rack(&serde_json::from_str(frame).unwrap(), "a push frame");
    }
}

#[tokio::test]
async fn a_private_game_is_404_to_a_stranger_and_every_human_must_allow_watching() {
    let app = App::new().await;
    let (ann, bob, carl) = (Player::new(), Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let invited = app.create(ann, "scrabble-en", &json!([{"account": bob.0}]).to_string()).await;
    let invited = app.accept_all(ann, invited).await["game_id"].as_str().unwrap().to_string();
    let robot = app.create(ann, "erudit", r#"[{"robot":"medium"}]"#).await["game_id"].as_str().unwrap().to_string();

    let reads = |id: &str| [format!("/games/{id}"), format!("/games/{id}/moves")];
    let status_of = |id: String| {
        let app = &app;
        async move {
            let mut statuses = Vec::new();
            for path in reads(&id) {
                statuses.push(get(app, carl, &path).await.0);
            }
            statuses
        }
    };
    // An invitation is private by default; a robot game is not.
    let before = app.everything().await;
    for path in reads(&invited) {
        let (status, answer) = get(&app, carl, &path).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (404, Some("not_found")), "{path}: {answer}");
    }
    assert_eq!(app.everything().await, before, "a refused read writes nothing");
    assert_eq!(status_of(robot.clone()).await, [200, 200]);

    // Bob allowing every game is not enough while Ann keeps to the standard; both allowing is.
    let (status, me) = app.call(Some(bob), "PUT", "/me/settings", r#"{"spectating":"always"}"#).await;
    assert_eq!((status, me["spectating"].as_str()), (200, Some("always")), "{me}");
    assert_eq!(status_of(invited.clone()).await, [404, 404]);
    app.call(Some(ann), "PUT", "/me/settings", r#"{"spectating":"always"}"#).await;
    assert_eq!(status_of(invited.clone()).await, [200, 200]);
    // Ann changes her mind: at once, none of her games may be watched, even one being played.
    app.call(Some(ann), "PUT", "/me/settings", r#"{"spectating":"never"}"#).await;
    assert_eq!(status_of(invited.clone()).await, [404, 404]);
    assert_eq!(status_of(robot.clone()).await, [404, 404]);
    assert_eq!(get(&app, ann, "/me").await.1["spectating"], "never");
    // A player always sees their own game.
    assert_eq!(get(&app, ann, &format!("/games/{robot}")).await.0, 200);

    // A bad setting is refused, typed, and changes nothing.
    let before = app.everything().await;
    for body in [r#"{"spectating":"friends"}"#, r#"{"spectating":true}"#, r#"{}"#, r#"["never"]"#] {
        let (status, answer) = app.call(Some(ann), "PUT", "/me/settings", body).await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    let (_, answer) = app.call(Some(ann), "PUT", "/me/settings", r#"{"spectating":"friends"}"#).await;
    assert_eq!(answer["error"]["code"], "bad_spectating");
    assert_eq!(app.everything().await, before);
}

#[tokio::test]
async fn the_live_list_holds_the_games_that_may_be_watched_a_page_at_a_time() {
    let app = App::new().await;
    let (ann, bob, dan, carl) = (Player::new(), Player::new(), Player::new(), Player::new());
    let mut watchable = Vec::new();
    for (who, variant) in [(ann, "scrabble-en"), (bob, "erudit"), (ann, "noi-tu")] {
        watchable.push(app.create(who, variant, r#"[{"robot":"easy"}]"#).await["game_id"].as_str().unwrap().to_string());
    }
    let hidden = app.create(dan, "scrabble-en", r#"[{"robot":"hard"}]"#).await["game_id"].as_str().unwrap().to_string();
    app.call(Some(dan), "PUT", "/me/settings", r#"{"spectating":"never"}"#).await;
    let invited = app.create(ann, "scrabble-ru", &json!([{"account": bob.0}]).to_string()).await;
    let invited = app.accept_all(ann, invited).await["game_id"].as_str().unwrap().to_string();

    let (status, page) = get(&app, carl, "/games/live").await;
    assert_eq!(status, 200, "{page}");
    let listed: Vec<String> = page["games"].as_array().unwrap().iter().map(|g| g["game_id"].as_str().unwrap().to_string()).collect();
    for id in &watchable {
        assert!(listed.contains(id), "{id} missing from {page}");
    }
    assert!(!listed.contains(&hidden) && !listed.contains(&invited), "{page}");
    // Whatever the list shows, a stranger may open.
    for id in &listed {
        assert_eq!(get(&app, carl, &format!("/games/{id}")).await.0, 200, "{id}");
    }
    let erudit = get(&app, carl, "/games/live?variant=erudit").await.1;
    assert!(erudit["games"].as_array().unwrap().iter().all(|g| g["variant"] == "erudit"), "{erudit}");
    assert!(erudit["games"].as_array().unwrap().iter().any(|g| g["game_id"] == watchable[1].as_str()));

    // One a page: every game once, in order, the last page without a cursor.
    let mut paged = Vec::new();
    let mut path = "/games/live?limit=1".to_string();
    for _ in 0..20 {
        let (status, page) = get(&app, carl, &path).await;
        assert_eq!(status, 200, "{page}");
        paged.extend(page["games"].as_array().unwrap().iter().map(|g| g["game_id"].as_str().unwrap().to_string()));
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("/games/live?limit=1&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(paged, listed);
    for (query, code) in [("?cursor=nope", "bad_cursor"), ("?limit=0", "invalid_query"), ("?tournament_id=1", "invalid_query")] {
        let (status, answer) = get(&app, carl, &format!("/games/live{query}")).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some(code)), "{query}");
    }
}

#[tokio::test]
async fn a_tournament_s_spectators_see_its_live_games_the_director_s_delay_behind() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 2).await;
    let by_account: HashMap<Uuid, Player> = field.iter().map(|p| (p.0, *p)).collect();
    let carl = Player::new();
    let (status, refused) = crate::tournaments::directing(
        &app,
        director,
        "POST",
        "/tournaments",
        r#"{"name":"Late","variant":"erudit","pairing":"swiss","rounds":1,"spectator_delay":21}"#,
    )
    .await;
    assert_eq!((status, refused["error"]["code"].as_str()), (400, Some("bad_tournament")));
    let (tid, game) = one_game(&app, director, field[0], field[1], json!({"spectator_delay": 2})).await;
    let t = direct(&app, director, "GET", &format!("/tournaments/{tid}"), "", 200).await;
    assert_eq!(t["spectator_delay"], 2);
    draw_until_started(&app, &game, &by_account, field[0]).await;
    // The tournament's boards list the game.
    let boards = get(&app, carl, &format!("/games/live?tournament_id={tid}")).await.1;
    assert_eq!(boards["games"].as_array().unwrap().len(), 1, "{boards}");
    assert_eq!(boards["games"][0]["game_id"], game.as_str());

    let mut seen = Vec::new();
    for n in 0..4u64 {
        let (_, view) = get(&app, field[0], &format!("/games/{game}")).await;
        let (status, watched) = get(&app, carl, &format!("/games/{game}")).await;
        assert_eq!(status, 200, "{watched}");
        let held = n.min(2);
        assert_eq!((watched["move_count"].as_u64(), watched["spectator_delay"].as_u64()), (Some(n - held), Some(held)), "{watched}");
        if held > 0 {
            assert!(watched["clock"].is_null() && watched["turn_deadline"].is_null());
        }
        shows_no_rack(&watched, "a delayed view");
        let journal = get(&app, carl, &format!("/games/{game}/moves")).await.1;
        assert_eq!(journal["moves"].as_array().unwrap().len() as u64, n - held, "{journal}");
        // What the spectator sees now is what the board was `held` moves ago.
        if n >= 2 {
            assert_eq!(watched["board"], seen[(n - 2) as usize], "two moves behind");
        }
        seen.push(view["board"].clone());
        let who =
            by_account[&view["seats"][view["to_move"].as_u64().unwrap() as usize]["account_id"].as_str().unwrap().parse::<Uuid>().unwrap()];
        let body = app.best_move(who, &game).await;
        let (status, out) = app.call(Some(who), "POST", &format!("/games/{game}/moves"), &body).await;
        assert_eq!(status, 200, "{out}");
    }
    // Over, the game is shown whole.
    app.call(Some(field[0]), "POST", &format!("/games/{game}/resign"), "").await;
    let (_, watched) = get(&app, carl, &format!("/games/{game}")).await;
    assert_eq!(
        (watched["status"].as_str(), watched["move_count"].as_u64(), watched["spectator_delay"].as_u64()),
        (Some("finished"), Some(5), Some(0))
    );
}
