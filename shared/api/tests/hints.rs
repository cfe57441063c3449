//! Rationed hints through the API: a Nối từ game allows 3 a seat, the 4th is `409
//! no_hints_left` with nothing written; a game made with `hints: 0` and a rated game refuse at
//! once; a count out of range is refused and writes nothing; a tile game without `hints` is
//! unlimited; two requests racing for the last hint get one hint between them; a rematch and an
//! open game keep what was asked.

use crate::common::{App, Player};
use serde_json::{Value, json};

/// The hints `who`'s seat of `game` has taken, as stored.
async fn used(app: &App, game: &str, who: Player) -> i16 {
    sqlx::query_scalar("SELECT hints_used FROM game_players WHERE game_id = $1::uuid AND account_id = $2")
        .bind(game)
        .bind(who.0)
        .fetch_one(app.pool())
        .await
        .unwrap()
}

async fn view(app: &App, who: Player, game: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{game}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

async fn hint(app: &App, who: Player, game: &str) -> (u16, Value) {
    app.call(Some(who), "GET", &format!("/games/{game}/hint?limit=2"), "").await
}

/// Asserts that a hint by `who` is `409 no_hints_left` naming `allowed`, and writes nothing.
async fn refused(app: &App, who: Player, game: &str, allowed: u64) {
    let (before, stored) = (app.everything().await, used(app, game, who).await);
    let (status, answer) = hint(app, who, game).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("no_hints_left")), "{answer}");
    assert_eq!(answer["error"]["details"]["hints_allowed"], allowed, "{answer}");
    assert_eq!((app.everything().await, used(app, game, who).await), (before, stored), "a refused hint writes nothing");
}

#[tokio::test]
async fn a_chain_game_allows_three_hints_and_the_fourth_is_refused_with_nothing_written() {
    let app = App::new().await;
    let me = Player::new();
    let game = app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!((game["hints_allowed"].clone(), game["hints_left"].clone()), (json!(3), json!(3)), "{game}");
    for left in [2, 1, 0] {
        // The view's tag changes with each hint: a conditional read shows the count.
        let (_, headers, _) = app.call_with_headers(me, "GET", &format!("/games/{id}"), &[]).await;
        let (status, answer) = hint(&app, me, &id).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["hints_left"], left, "{answer}");
        assert!(answer["hints"][0]["word"].is_string(), "{answer}");
        let (status, _, _) = app.call_with_headers(me, "GET", &format!("/games/{id}"), &[("if-none-match", &headers["etag"])]).await;
        assert_eq!(status, 200, "a hint taken changes the view's tag");
        assert_eq!(view(&app, me, &id).await["hints_left"], left);
    }
    refused(&app, me, &id, 3).await;
    let seen = view(&app, me, &id).await;
    assert_eq!((seen["hints_allowed"].clone(), seen["hints_left"].clone()), (json!(3), json!(0)), "{seen}");
    assert_eq!(used(&app, &id, me).await, 3);
    // Still the player's game to play: a word goes in without a hint.
    let word = crate::common::chain_word(&seen).expect("a word to play");
    let body = json!({"expected_move_no": seen["move_count"], "move": {"kind": "word", "word": word}}).to_string();
    let (status, answer) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!(status, 200, "{answer}");
    if answer["game"]["status"] == "active" {
        refused(&app, me, &id, 3).await;
    }
}

#[tokio::test]
async fn a_game_made_with_no_hints_and_a_rated_game_refuse_a_hint_at_once() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let none = app.create_with(ann, r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}],"hints":0}"#).await;
    assert_eq!((none["hints_allowed"].clone(), none["hints_left"].clone()), (json!(0), json!(0)), "{none}");
    refused(&app, ann, none["game_id"].as_str().unwrap(), 0).await;
    // Rated: none, whatever was asked (the request is not refused).
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    for variant in ["noi-tu", "scrabble-en"] {
        let body = json!({"variant": variant, "opponents": [{"account": bob.0}], "rated": true, "hints": 5}).to_string();
        let rated = app.create_with(ann, &body).await;
        assert_eq!((rated["rated"].clone(), rated["hints_allowed"].clone()), (json!(true), json!(0)), "{rated}");
        let id = rated["game_id"].as_str().unwrap();
        let mover = if rated["to_move"] == rated["your_seat"] { ann } else { bob };
        refused(&app, mover, id, 0).await;
        assert_eq!(view(&app, bob, id).await["hints_left"], 0);
    }
}

#[tokio::test]
async fn hints_out_of_range_or_not_a_whole_number_are_refused_and_write_nothing() {
    let app = App::new().await;
    let me = Player::new();
    app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let before = app.everything().await;
    for (path, hints, status, code) in [
        ("/games", "21", 400, "bad_hints"),
        ("/games", "-1", 400, "bad_hints"),
        ("/games", "2.5", 400, "invalid_body"),
        ("/games", "\"3\"", 400, "invalid_body"),
        ("/games/open", "21", 400, "bad_hints"),
        ("/games/open", "true", 400, "invalid_body"),
        ("/games", "null", 201, ""),
    ] {
        let opponents = if path == "/games" { r#","opponents":[{"robot":"easy"}]"# } else { "" };
        let body = format!(r#"{{"variant":"noi-tu"{opponents},"hints":{hints}}}"#);
        let (got, answer) = app.call(Some(me), "POST", path, &body).await;
        if got == 201 {
            // Null is not giving it: the default.
            assert_eq!(answer["hints_allowed"], 3, "{answer}");
            continue;
        }
        assert_eq!((got, answer["error"]["code"].as_str()), (status, Some(code)), "{body}: {answer}");
        assert_eq!(app.everything().await, before, "{body} wrote something");
    }
}

#[tokio::test]
async fn a_tile_game_made_without_hints_gives_as_many_as_one_asks() {
    let app = App::new().await;
    let me = Player::new();
    let game = app.create(me, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!((game["hints_allowed"].clone(), game["hints_left"].clone()), (Value::Null, Value::Null), "{game}");
    for _ in 0..5 {
        let (status, answer) = hint(&app, me, &id).await;
        assert_eq!((status, answer["hints_left"].clone()), (200, Value::Null), "{answer}");
    }
    assert_eq!(used(&app, &id, me).await, 0, "an unlimited game counts nothing");
    // A tile game may be rationed too.
    let rationed = app.create_with(me, r#"{"variant":"erudit","opponents":[{"robot":"easy"}],"hints":1}"#).await;
    let id = rationed["game_id"].as_str().unwrap().to_string();
    let (status, answer) = hint(&app, me, &id).await;
    assert_eq!((status, answer["hints_left"].clone()), (200, json!(0)), "{answer}");
    refused(&app, me, &id, 1).await;
}

#[tokio::test]
async fn two_requests_racing_for_the_last_hint_get_one_hint_between_them() {
    let app = App::new().await;
    let me = Player::new();
    for round in 0..5 {
        let game = app.create_with(me, r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}],"hints":1}"#).await;
        let id = game["game_id"].as_str().unwrap().to_string();
        let (a, b) = tokio::join!(hint(&app, me, &id), hint(&app, me, &id));
        let mut statuses = [a.0, b.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "round {round}: {a:?} {b:?}");
        assert_eq!(used(&app, &id, me).await, 1);
        let (_, resigned) = app.call(Some(me), "POST", &format!("/games/{id}/resign"), "").await;
        assert_eq!(resigned["game"]["status"], "finished");
    }
}

#[tokio::test]
async fn a_rematch_and_an_open_game_keep_the_hints_asked() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let game = app.create_with(ann, r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}],"hints":5}"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    hint(&app, ann, &id).await;
    app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await;
    let (status, rematch) = app.call(Some(ann), "POST", &format!("/games/{id}/rematch"), "").await;
    assert_eq!(status, 201, "{rematch}");
    assert_eq!((rematch["hints_allowed"].clone(), rematch["hints_left"].clone()), (json!(5), json!(5)), "a new game, its own count");
    let (status, open) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"scrabble-en","hints":2}"#).await;
    assert_eq!((status, open["hints_allowed"].clone()), (201, json!(2)), "{open}");
    let open_id = open["game_id"].as_str().unwrap();
    let (status, joined) = app.call(Some(bob), "POST", &format!("/games/{open_id}/join"), "").await;
    assert_eq!((status, joined["hints_left"].clone()), (200, json!(2)), "the joiner's own count: {joined}");
}
