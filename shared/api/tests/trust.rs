//! Regression tests for the defects a hostile test found: hidden information, robots left to
//! move after a crash, idempotency keys bound to their request, reserved identities, strict
//! bodies, display names, and the lobby. Each refusal is checked to write nothing.

use crate::common::{App, Player};
use api::Route;
use serde_json::{Value, json};
use uuid::Uuid;

/// Ann and Bob in a two-human game of `variant`; Bob's account exists first.
async fn duel(app: &App, ann: Player, bob: Player, variant: &str) -> String {
    app.create(bob, variant, r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, variant, &format!(r#"[{{"account":"{}"}}]"#, bob.0)).await;
    game["game_id"].as_str().unwrap().to_string()
}

/// Every exchange object anywhere in `v` that names its tiles.
fn exchanges_with_tiles(v: &Value, found: &mut Vec<Value>) {
    match v {
        Value::Object(map) => {
            if map.get("kind") == Some(&json!("exchange")) && map.contains_key("tiles") {
                found.push(v.clone());
            }
            map.values().for_each(|x| exchanges_with_tiles(x, found));
        }
        Value::Array(items) => items.iter().for_each(|x| exchanges_with_tiles(x, found)),
        _ => {}
    }
}

/// The exchange of the whole rack of the player to move, as a submit body.
fn exchange_all(view: &Value) -> Value {
    let tiles: Vec<Value> =
        view["your_rack"].as_array().unwrap().iter().map(|t| if t == "?" { json!("blank") } else { json!({"letter": t}) }).collect();
    json!({"expected_move_no": view["move_count"], "client_move_id": Uuid::new_v4(), "move": {"kind": "exchange", "tiles": tiles}})
}

#[tokio::test]
async fn exchanged_tiles_are_seen_by_the_exchanger_and_admins_only_on_every_route() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let id = duel(&app, ann, bob, "scrabble-en").await;
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    let ann_moves = view["to_move"] == view["your_seat"];
    let (mover, other) = if ann_moves { (ann, bob) } else { (bob, ann) };
    let (_, view) = app.call(Some(mover), "GET", &format!("/games/{id}"), "").await;
    let body = exchange_all(&view).to_string();
    let (status, made) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["moves"][0]["count"], 7);
    assert_eq!(made["moves"][0]["tiles"].as_array().unwrap().len(), 7, "the exchanger sees their own tiles");
    let (_, again) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(again["moves"], made["moves"], "a retry shows the exchanger the same");

    let (_, seen) = app.call(Some(other), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(seen["last_move"]["kind"], "exchange");
    assert_eq!(seen["last_move"]["count"], 7);
    assert!(seen["last_move"].get("tiles").is_none(), "{seen}");

    // Every route, called by the other player with a body of the shape it takes, answers
    // without the tiles (a route added later is walked too).
    let pass = json!({"expected_move_no": seen["move_count"], "move": {"kind": "pass"}});
    for route in Route::ALL {
        let path = route.path().replace("{id}", &id).replace("{round}", "1");
        let body = match route {
            Route::SubmitMove => pass.to_string(),
            Route::PreviewMove => json!({"move": {"kind": "pass"}}).to_string(),
            Route::CreateGame => json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}]}).to_string(),
            Route::OpenGame => json!({"variant": "scrabble-en"}).to_string(),
            Route::AttachRobot => json!({"level": "easy"}).to_string(),
            _ => String::new(),
        };
        let (_, _, text) = app.raw(Some(other), false, route.method(), &path, &body).await;
        let mut found = Vec::new();
        exchanges_with_tiles(&serde_json::from_str::<Value>(&text).unwrap_or(Value::Null), &mut found);
        assert!(found.is_empty(), "{route:?} showed exchanged tiles to another player: {found:?}");
    }
    // The game went on through those calls (the pass, then the resignation): the view at the
    // end still hides the exchange from the other player, in the journal of the answer too.
    let (_, timeline) = app.call(Some(Player::new()), "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    assert_eq!(timeline["error"]["code"], "forbidden");
    let (_, _, admin) = app.raw(Some(Player::new()), true, "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    assert!(admin.contains("\"exchange\""), "admins see the exchange");
}

/// A game left as a crash between two commits used to leave it: active, move 0, a robot to
/// move. The next request that touches it moves the robot on, whatever the request.
#[tokio::test]
async fn a_game_waiting_on_a_robot_is_moved_on_by_the_next_request() {
    let app = App::new().await;
    let ann = Player::new();
    app.create(ann, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let store = app.state.service.store();
    for (request, expect) in [("GET", 200), ("hint", 200), ("submit", 409), ("resign", 200)] {
        let id = Uuid::new_v4();
        let robot = store::robot_account(store::Level::Medium);
        let new = store::NewGame {
            game_id: id,
            variant: games::Variant::SCRABBLE_EN,
            seed: 7,
            no_repeat_words: Some(false),
            setup: r#"{"variant":"scrabble-en","seats":2,"seed":7}"#.into(),
            status: store::GameStatus::Active,
            time_control: Default::default(),
            turn_deadline: None,
            started_at: None,
            seats: vec![Some(robot), Some(ann.0)],
            draws: vec![],
            limits: None,
            created_at: chrono::Utc::now(),
            rematch_of: None,
            invited: vec![],
            invited_by: None,
            rated: false,
            rating_range: None,
            tournament_id: None,
            draw_deadline: None,
            hints_allowed: None,
        };
        let update = store::GameUpdate {
            move_count: 0,
            status: store::GameStatus::Active,
            turn_deadline: None,
            started_at: None,
            finished_at: None,
            end_reason: None,
            winners: None,
            to_move: Some(0),
            scores: vec![],
        };
        store.create_game(&new).await.unwrap().finish(&[], &update).await.unwrap();
        assert_eq!(app.journal_rows(&id.to_string()).await, 0);
        let (status, answer) = match request {
            "GET" => app.call(Some(ann), "GET", &format!("/games/{id}"), "").await,
            "hint" => app.call(Some(ann), "GET", &format!("/games/{id}/hint"), "").await,
            "submit" => {
                let body = json!({"expected_move_no": 0, "client_move_id": Uuid::new_v4(), "move": {"kind": "pass"}});
                app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body.to_string()).await
            }
            _ => app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await,
        };
        assert_eq!(status, expect, "{request}: {answer}");
        if request == "submit" {
            assert_eq!(answer["error"]["code"], "stale_move", "the robot moved first: {answer}");
        }
        let rows: Vec<(i32, i16)> = sqlx::query_as("SELECT move_no, seat FROM game_moves WHERE game_id = $1 ORDER BY move_no")
            .bind(id)
            .fetch_all(app.pool())
            .await
            .unwrap();
        assert_eq!(rows[0], (0, 0), "{request}: the robot's opening is in the journal");
        let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
        assert_ne!(view["to_move"], 0, "{request}: nobody waits on the robot: {view}");
    }
}

/// A game created against a robot that wins the draw has the robot's opening in the journal at
/// once: one transaction holds the game, its seats, its draw and that move.
#[tokio::test]
async fn a_robot_that_wins_the_draw_has_moved_when_create_answers() {
    let app = App::new().await;
    let ann = Player::new();
    let mut robot_led = 0;
    for _ in 0..16 {
        let game = app.create(ann, "erudit", r#"[{"robot":"easy"}]"#).await;
        let id = game["game_id"].as_str().unwrap();
        if game["your_seat"] == 1 {
            robot_led += 1;
            assert_eq!(app.journal_rows(id).await, 1);
            assert_eq!(game["to_move"], 1);
            assert_eq!(game["move_count"], 1);
        } else {
            assert_eq!(app.journal_rows(id).await, 0);
        }
    }
    assert!(robot_led > 0, "in 16 draws the robot led at least once");
}

#[tokio::test]
async fn an_idempotency_key_is_bound_to_its_caller_and_body() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let id = duel(&app, ann, bob, "scrabble-en").await;
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    let (mover, other) = if view["to_move"] == view["your_seat"] { (ann, bob) } else { (bob, ann) };
    let key = Uuid::new_v4();
    let first: Value = serde_json::from_str(&app.best_move(mover, &id).await).unwrap();
    let body = json!({"expected_move_no": first["expected_move_no"], "client_move_id": key, "move": first["move"]}).to_string();
    let path = format!("/games/{id}/moves");
    let (status, _, answer) = app.raw(Some(mover), false, "POST", &path, &body).await;
    assert_eq!(status, 200, "{answer}");

    // The same request again, spaced differently: the first answer, byte for byte.
    let respaced = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&body).unwrap()).unwrap();
    for retry in [&body, &respaced] {
        let (status, _, again) = app.raw(Some(mover), false, "POST", &path, retry).await;
        assert_eq!((status, &again), (200, &answer));
    }
    let before = app.everything().await;
    // The same key with another body, or by the other player: refused, nothing written.
    let resign = json!({"expected_move_no": 999, "client_move_id": key, "move": {"kind": "resign"}}).to_string();
    let (status, refused) = app.call(Some(mover), "POST", &path, &resign).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("idempotency_key_reused")), "{refused}");
    let (_, now) = app.call(Some(other), "GET", &format!("/games/{id}"), "").await;
    let theirs = json!({"expected_move_no": now["move_count"], "client_move_id": key, "move": {"kind": "pass"}}).to_string();
    let (status, refused) = app.call(Some(other), "POST", &path, &theirs).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("idempotency_key_reused")), "{refused}");
    assert_eq!(app.everything().await, before, "a reused key writes nothing");
    // With a key of their own, the other player's move is applied.
    let fresh = json!({"expected_move_no": now["move_count"], "client_move_id": Uuid::new_v4(), "move": {"kind": "pass"}}).to_string();
    let (status, applied) = app.call(Some(other), "POST", &path, &fresh).await;
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["moves"][0]["kind"], "pass");
}

/// A robot's thinking time is part of the first answer, and a retry gets the same figure.
#[tokio::test]
async fn a_retry_gets_the_robots_thinking_time_of_the_first_answer() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap();
    let body = app.best_move(ann, id).await;
    let path = format!("/games/{id}/moves");
    let (_, _, first) = app.raw(Some(ann), false, "POST", &path, &body).await;
    let thinking = serde_json::from_str::<Value>(&first).unwrap()["thinking_ms"].as_u64().unwrap();
    assert!(thinking > 0, "the easy robot replies after 400–900 ms of shown thinking: {first}");
    let (_, _, second) = app.raw(Some(ann), false, "POST", &path, &body).await;
    assert_eq!(second, first);
}

#[tokio::test]
async fn robot_and_placeholder_identities_cannot_call_any_route() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "scrabble-en", r#"[{"robot":"hard"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let hard = store::robot_account(store::Level::Hard).to_string();
    let nil = Uuid::nil().to_string();
    let before = app.everything().await;
    for (sub, code) in [(hard.as_str(), "robot_identity"), (nil.as_str(), "placeholder_identity")] {
        for route in Route::ALL {
            let path = route.path().replace("{id}", &id).replace("{round}", "1");
            let body = match route {
                Route::CreateGame => json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}]}).to_string(),
                Route::OpenGame => json!({"variant": "scrabble-en"}).to_string(),
                Route::SubmitMove => json!({"expected_move_no": game["move_count"], "move": {"kind": "pass"}}).to_string(),
                _ => String::new(),
            };
            let claims = [("sub", sub), ("name", "impostor"), ("cognito:groups", "[admin]")];
            let (status, answer) = app.call_claims(&claims, route.method(), &path, &body).await;
            assert_eq!((status, answer["error"]["code"].as_str()), (403, Some(code)), "{route:?} as {sub}: {answer}");
        }
    }
    assert_eq!(app.everything().await, before, "nothing was written");
}

#[tokio::test]
async fn request_bodies_are_strict_at_every_depth() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "scrabble-en", r#"[{"robot":"hard"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    let n = view["move_count"].clone();
    let letter = view["your_rack"][0].as_str().unwrap().to_string();
    let moves = format!("/games/{id}/moves");
    let preview = format!("/games/{id}/preview");
    let submit = |mv: Value| json!({"expected_move_no": n, "move": mv}).to_string();
    let cases = [
        (moves.clone(), submit(json!({"kind": "pass", "tiles": [], "seat": 1}))),
        (moves.clone(), submit(json!({"kind": "resign", "seat": 1}))),
        (moves.clone(), submit(json!({"kind": "play", "placements": [{"square": "H8", "letter": letter, "score": 50}]}))),
        (moves.clone(), submit(json!({"kind": "exchange", "tiles": [{"letter": letter, "blank": false}]}))),
        (moves.clone(), submit(json!({"kind": "exchange", "tiles": [{"letter": letter}], "count": 1}))),
        (preview.clone(), json!({"move": {"kind": "play", "placements": [{"square": "H8", "letter": letter}], "score": 1000}}).to_string()),
        (preview.clone(), json!({"move": {"kind": "pass"}, "seat": 0}).to_string()),
        ("/games".to_string(), json!({"variant": "erudit", "opponents": [{"robot": "easy", "account": ann.0}]}).to_string()),
        ("/games".to_string(), json!({"variant": "erudit", "opponents": [{}]}).to_string()),
        ("/games".to_string(), json!({"variant": "erudit", "opponents": [{"robot": "easy", "level": 3}]}).to_string()),
        ("/games/open".to_string(), json!({"variant": "erudit", "private": true}).to_string()),
        (format!("/games/{id}/robot"), json!({"level": "easy", "seat": 1}).to_string()),
    ];
    let before = app.everything().await;
    for (path, body) in cases {
        let (status, answer) = app.call(Some(ann), "POST", &path, &body).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("invalid_body")), "{path} {body}: {answer}");
    }
    assert_eq!(app.everything().await, before, "nothing was written");
    let stranger = Uuid::new_v4();
    let body = json!({"variant": "erudit", "opponents": [{"account": stranger}]}).to_string();
    let (status, answer) = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (404, Some("account_not_found")), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("account"), "{answer}");
    assert_eq!(answer["error"]["details"]["account_id"], stranger.to_string());
}

#[tokio::test]
async fn display_names_are_cleaned_and_never_an_email() {
    let app = App::new().await;
    let create = json!({"variant": "erudit", "opponents": [{"robot": "easy"}]}).to_string();
    for (claims, shown) in [
        (vec![("name", "Ann\u{0}ie")], "Annie"),
        (vec![("name", "\u{200B}\u{2060}"), ("preferred_username", "  Bo \t b  ")], "Bo b"),
        (vec![("name", "\u{7}\u{1b}")], "Player"),
        (vec![("email", "cy@example.com")], "Player"),
        (vec![("cognito:username", "di@example.org")], "Player"),
    ] {
        let sub = Uuid::new_v4().to_string();
        let mut all = vec![("sub", sub.as_str())];
        all.extend(claims.iter().copied());
        let (status, view) = app.call_claims(&all, "POST", "/games", &create).await;
        assert_eq!(status, 201, "{claims:?}: {view}");
        let me = &view["seats"][view["your_seat"].as_u64().unwrap() as usize];
        assert_eq!(me["display_name"], shown, "{claims:?}");
        let (status, opened) = app.call_claims(&all, "POST", "/games/open", &json!({"variant": "scrabble-ru"}).to_string()).await;
        assert_eq!(status, 201, "{opened}");
    }
    let (_, lobby) = app.call(Some(Player::new()), "GET", "/games/open", "").await;
    let names: Vec<&str> = lobby["games"].as_array().unwrap().iter().map(|g| g["opener_name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 5);
    assert!(names.iter().all(|n| !n.contains('@') && !n.chars().any(char::is_control)), "{names:?}");
}

#[tokio::test]
async fn open_games_are_capped_per_account_and_variant() {
    let app = App::new().await;
    let ann = Player::new();
    let open = |variant: &str| json!({"variant": variant}).to_string();
    for _ in 0..service::MAX_OPEN_PER_VARIANT {
        let (status, _) = app.call(Some(ann), "POST", "/games/open", &open("erudit")).await;
        assert_eq!(status, 201);
    }
    let before = app.everything().await;
    let (status, refused) = app.call(Some(ann), "POST", "/games/open", &open("erudit")).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("too_many_open_games")), "{refused}");
    assert_eq!(refused["error"]["details"]["limit"], service::MAX_OPEN_PER_VARIANT);
    assert_eq!(app.everything().await, before, "nothing was written");
    let (status, _) = app.call(Some(ann), "POST", "/games/open", &open("scrabble-en")).await;
    assert_eq!(status, 201, "another variant has its own places");
}

#[tokio::test]
async fn the_lobby_pages_through_every_open_game_oldest_first() {
    let app = App::new().await;
    let mut opened = Vec::new();
    for _ in 0..20 {
        let who = Player::new();
        for _ in 0..3 {
            let (status, view) = app.call(Some(who), "POST", "/games/open", &json!({"variant": "scrabble-en"}).to_string()).await;
            assert_eq!(status, 201);
            opened.push(view["game_id"].as_str().unwrap().to_string());
        }
    }
    let reader = Player::new();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = Vec::new();
    loop {
        let path = match &cursor {
            Some(c) => format!("/games/open?variant=scrabble-en&limit=25&cursor={c}"),
            None => "/games/open?variant=scrabble-en&limit=25".to_string(),
        };
        let (status, page) = app.call(Some(reader), "GET", &path, "").await;
        assert_eq!(status, 200, "{page}");
        let games = page["games"].as_array().unwrap();
        pages.push(games.len());
        seen.extend(games.iter().map(|g| g["game_id"].as_str().unwrap().to_string()));
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
        assert!(pages.len() < 10, "the pages end");
    }
    assert_eq!(pages, vec![25, 25, 10]);
    assert_eq!(seen, opened, "every game once, oldest first");
    for (query, code) in [("cursor=garbage", "bad_cursor"), ("limit=0", "invalid_query"), ("limit=51", "invalid_query")] {
        let (status, answer) = app.call(Some(reader), "GET", &format!("/games/open?{query}"), "").await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some(code)), "{query}");
    }
}

#[tokio::test]
async fn an_open_game_can_be_withdrawn_by_its_opener_before_anyone_joins() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let (_, view) = app.call(Some(ann), "POST", "/games/open", &json!({"variant": "erudit"}).to_string()).await;
    let id = view["game_id"].as_str().unwrap().to_string();
    let before = app.everything().await;
    for (who, path, status, code) in [
        (ann, format!("/games/{id}/resign"), 409, "not_started"),
        (ann, format!("/games/{id}/timeout"), 409, "not_started"),
        (bob, format!("/games/{id}/withdraw"), 403, "not_your_game"),
    ] {
        let (got, answer) = app.call(Some(who), "POST", &path, "").await;
        assert_eq!((got, answer["error"]["code"].as_str()), (status, Some(code)), "{path}: {answer}");
    }
    assert_eq!(app.everything().await, before, "refusals write nothing");

    let (status, gone) = app.call(Some(ann), "POST", &format!("/games/{id}/withdraw"), "").await;
    assert_eq!(status, 200, "{gone}");
    assert_eq!((gone["status"].as_str(), &gone["result"], &gone["to_move"]), (Some("withdrawn"), &Value::Null, &Value::Null));
    let (_, lobby) = app.call(Some(bob), "GET", "/games/open", "").await;
    assert!(lobby["games"].as_array().unwrap().is_empty(), "{lobby}");
    let before = app.everything().await;
    let pass = json!({"expected_move_no": 0, "move": {"kind": "pass"}}).to_string();
    for (who, path, body, status, code) in [
        (bob, format!("/games/{id}/join"), String::new(), 409, "not_open"),
        (ann, format!("/games/{id}/withdraw"), String::new(), 409, "game_withdrawn"),
        (ann, format!("/games/{id}/moves"), pass, 409, "game_withdrawn"),
        (ann, format!("/games/{id}/resign"), String::new(), 409, "game_withdrawn"),
        (ann, format!("/games/{id}/robot"), json!({"level": "easy"}).to_string(), 409, "not_open"),
    ] {
        let (got, answer) = app.call(Some(who), "POST", &path, &body).await;
        assert_eq!((got, answer["error"]["code"].as_str()), (status, Some(code)), "{path}: {answer}");
    }
    assert_eq!(app.everything().await, before, "a withdrawn game takes no more changes");

    // Once someone has joined, it is a game: withdrawing is refused, resigning is the way out.
    let (_, view) = app.call(Some(ann), "POST", "/games/open", &json!({"variant": "erudit"}).to_string()).await;
    let id = view["game_id"].as_str().unwrap();
    let (status, _) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!(status, 200);
    let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/withdraw"), "").await;
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("not_open")));
}
