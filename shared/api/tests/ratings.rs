//! Rated games through the API: both ratings change once, in the transaction that records the
//! end (under retries and two games ending at once for one player); an aborted game changes
//! nothing; only two humans play rated; the caller's own account, another's ratings and the
//! leaderboard; a deviation that grows with idle days.

use std::sync::Arc;

use crate::common::{App, Player};
use chrono::Duration;
use serde_json::{Value, json};
use service::ManualClock;

async fn view(app: &App, who: Player, id: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

/// A rated scrabble-en game of `ann` and `bob`, both having moved twice (so a resignation rates
/// it): its id, who moves next.
async fn rated_and_played(app: &App, ann: Player, bob: Player) -> (String, Player) {
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}], "rated": true}).to_string();
    let game = app.create_with(ann, &body).await;
    assert_eq!((game["rated"].clone(), game["ratings"]["speed"].clone()), (json!(true), json!("correspondence")), "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    let (first, second) = if game["to_move"] == game["your_seat"] { (ann, bob) } else { (bob, ann) };
    for who in [first, second, first, second] {
        let body = app.best_move(who, &id).await;
        let (status, answer) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
    }
    (id, first)
}

fn rating_of(me: &Value) -> &Value {
    me["ratings"].as_array().unwrap().iter().find(|r| r["variant"] == "scrabble-en" && r["speed"] == "correspondence").unwrap()
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_once_when_it_ends() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let (id, _) = rated_and_played(&app, ann, bob).await;
    let (status, me) = app.call(Some(ann), "GET", "/me", "").await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(
        (me["account_id"].as_str(), me["ratings"].clone()),
        (Some(ann.0.to_string().as_str()), json!([])),
        "no rating before a rated game ends"
    );
    let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{answer}");
    let ratings = &answer["game"]["ratings"];
    assert_eq!(ratings["aborted"], false, "{ratings}");
    let ann_seat = answer["game"]["your_seat"].as_u64().unwrap() as usize;
    let (ann_change, bob_change) =
        (ratings["seats"][ann_seat]["change"].as_i64().unwrap(), ratings["seats"][1 - ann_seat]["change"].as_i64().unwrap());
    assert!(ann_change < 0 && bob_change > 0, "{ratings}");
    assert_eq!(ratings["seats"][ann_seat]["rating"], 1500, "the rating before the game");
    // Read again: the same change, applied once.
    for _ in 0..2 {
        let again = view(&app, bob, &id).await;
        assert_eq!(again["ratings"]["seats"][ann_seat]["change"], ann_change);
    }
    let (_, me) = app.call(Some(bob), "GET", "/me", "").await;
    let rating = rating_of(&me);
    assert_eq!(
        (rating["rating"].as_i64().unwrap(), rating["games"].as_i64(), rating["provisional"].as_bool()),
        (1500 + bob_change, Some(1), Some(true))
    );
    let (status, theirs) = app.call(Some(bob), "GET", &format!("/accounts/{}/ratings", ann.0), "").await;
    assert_eq!(status, 200, "{theirs}");
    assert_eq!(theirs["history"].as_array().unwrap().len(), 1);
    assert_eq!((theirs["history"][0]["before"].as_i64(), theirs["history"][0]["after"].as_i64()), (Some(1500), Some(1500 + ann_change)));
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM rating_changes WHERE game_id = $1::uuid").bind(&id).fetch_one(app.pool()).await.unwrap();
    assert_eq!(rows, 2);
    // My games show each seat's rating before the game and the change.
    let (_, mine) = app.call(Some(bob), "GET", "/games?status=finished", "").await;
    let listed = mine["games"].as_array().unwrap().iter().find(|g| g["game_id"] == id.as_str()).unwrap().clone();
    assert_eq!(listed["rated"], true);
    assert_eq!(
        (listed["seats"][ann_seat]["rating"].as_i64(), listed["seats"][ann_seat]["rating_change"].as_i64()),
        (Some(1500), Some(ann_change))
    );
    // The admin account page shows them too.
    let (status, _, page) = app.raw(Some(bob), true, "GET", &format!("/_gm/accounts/{}", ann.0), "").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(&format!("<td>scrabble-en</td><td>correspondence</td><td>{}</td>", 1500 + ann_change)), "{page}");
    assert!(
        page.contains(&format!("<a href=\"/_gm/games/{id}\">{id}</a></td><td>scrabble-en</td><td>correspondence</td><td>1500</td>")),
        "{page}"
    );
    let (status, missing) = app.call(Some(bob), "GET", &format!("/accounts/{}/ratings", uuid::Uuid::new_v4()), "").await;
    assert_eq!((status, missing["error"]["code"].as_str()), (404, Some("account_not_found")));
}

#[tokio::test]
async fn a_rated_game_that_ends_before_each_player_moved_is_aborted_and_changes_nothing() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let body = json!({"variant": "erudit", "opponents": [{"account": bob.0}], "rated": true}).to_string();
    let game = app.create_with(ann, &body).await;
    let id = game["game_id"].as_str().unwrap();
    let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["game"]["ratings"]["aborted"], true, "{answer}");
    assert!(answer["game"]["ratings"]["seats"].as_array().unwrap().iter().all(|s| s["change"].is_null()));
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM ratings").fetch_one(app.pool()).await.unwrap();
    assert_eq!(rows, 0, "no rating was made or changed");
}

#[tokio::test]
async fn only_two_humans_play_rated() {
    let app = App::new().await;
    let ann = Player::new();
    app.create(ann, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let before = app.everything().await;
    let body = json!({"variant": "scrabble-en", "opponents": [{"robot": "hard"}], "rated": true}).to_string();
    let (status, refused) = app.call(Some(ann), "POST", "/games", &body).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (400, Some("bad_opponents")), "{refused}");
    assert_eq!(app.everything().await, before);
    let (status, open) = app.call(Some(ann), "POST", "/games/open", &json!({"variant": "noi-tu", "rated": true}).to_string()).await;
    assert_eq!(status, 201, "{open}");
    let id = open["game_id"].as_str().unwrap();
    let (_, lobby) = app.call(Some(Player::new()), "GET", "/games/open", "").await;
    assert_eq!(lobby["games"][0]["rated"], true, "{lobby}");
    let (_, rated) = app.call(Some(Player::new()), "GET", "/games/open?rated=true", "").await;
    assert_eq!(rated["games"].as_array().unwrap().len(), 1);
    let (_, casual) = app.call(Some(Player::new()), "GET", "/games/open?rated=false", "").await;
    assert_eq!(casual["games"], json!([]));
    let (status, refused) = app.call(Some(Player::new()), "GET", "/games/open?rated=yes", "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (400, Some("invalid_query")));
    let before = app.everything().await;
    let (status, refused) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"easy"}"#).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("rated_game")), "{refused}");
    assert_eq!(app.everything().await, before);
}

#[tokio::test]
async fn two_rated_games_ending_at_once_for_one_player_both_count() {
    let app = App::new().await;
    let (ann, bob, cat) = (Player::new(), Player::new(), Player::new());
    let (one, _) = rated_and_played(&app, ann, bob).await;
    let (two, _) = rated_and_played(&app, ann, cat).await;
    let (p1, p2) = (format!("/games/{one}/resign"), format!("/games/{two}/resign"));
    let (a, b) = tokio::join!(app.call(Some(bob), "POST", &p1, ""), app.call(Some(cat), "POST", &p2, ""));
    assert_eq!((a.0, b.0), (200, 200), "{a:?} {b:?}");
    let (_, me) = app.call(Some(ann), "GET", "/me", "").await;
    assert_eq!(rating_of(&me)["games"], 2, "{me}");
    // One after the other: the second game started from the first's result.
    let changes: Vec<(f64, f64)> =
        sqlx::query_as("SELECT rating_before, rating_after FROM rating_changes WHERE account_id = $1 ORDER BY rating_before")
            .bind(ann.0)
            .fetch_all(app.pool())
            .await
            .unwrap();
    assert_eq!(changes.len(), 2);
    assert!((changes[0].0 - 1500.0).abs() < 1e-9 && (changes[1].0 - changes[0].1).abs() < 1e-9, "{changes:?}");
}

#[tokio::test]
async fn the_leaderboard_lists_established_players_best_first_a_page_at_a_time() {
    let app = App::new().await;
    let players: Vec<Player> = (0..5).map(|_| Player::new()).collect();
    for (i, p) in players.iter().enumerate() {
        app.create(*p, "noi-tu", r#"[{"robot":"easy"}]"#).await;
        // Established players 1600..2000, and one still provisional at 2500.
        let (rating, deviation) = if i == 4 { (2500.0, 200.0) } else { (1600.0 + 100.0 * i as f64, 60.0) };
        sqlx::query("INSERT INTO ratings VALUES ($1, 'erudit', 'realtime', $2, $3, 0.06, 30, now())")
            .bind(p.0)
            .bind(rating)
            .bind(deviation)
            .execute(app.pool())
            .await
            .unwrap();
    }
    let who = players[0];
    let (status, page) = app.call(Some(who), "GET", "/ratings/leaderboard?variant=erudit&speed=realtime&limit=3", "").await;
    assert_eq!(status, 200, "{page}");
    let ratings: Vec<i64> = page["players"].as_array().unwrap().iter().map(|p| p["rating"].as_i64().unwrap()).collect();
    assert_eq!(ratings, [1900, 1800, 1700]);
    let cursor = page["next_cursor"].as_str().unwrap();
    let (_, rest) =
        app.call(Some(who), "GET", &format!("/ratings/leaderboard?variant=erudit&speed=realtime&limit=3&cursor={cursor}"), "").await;
    assert_eq!(rest["players"].as_array().unwrap().len(), 1);
    assert_eq!((rest["players"][0]["rating"].as_i64(), rest["next_cursor"].clone()), (Some(1600), Value::Null));
    for (query, code) in [
        ("variant=erudit", "invalid_query"),
        ("speed=realtime", "invalid_query"),
        ("variant=chess&speed=realtime", "unknown_variant"),
        ("variant=erudit&speed=blitz", "invalid_query"),
        ("variant=erudit&speed=realtime&cursor=nope", "bad_cursor"),
    ] {
        let (status, refused) = app.call(Some(who), "GET", &format!("/ratings/leaderboard?{query}"), "").await;
        assert_eq!((status, refused["error"]["code"].as_str()), (400, Some(code)), "{query}: {refused}");
    }
}

#[tokio::test]
async fn a_deviation_grows_with_the_days_without_a_rated_game() {
    let clock = Arc::new(ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 9).await;
    let (ann, bob) = (Player::new(), Player::new());
    let (id, first) = rated_and_played(&app, ann, bob).await;
    app.call(Some(first), "POST", &format!("/games/{id}/resign"), "").await;
    let (_, now) = app.call(Some(ann), "GET", "/me", "").await;
    clock.advance(Duration::days(200));
    let (_, later) = app.call(Some(ann), "GET", "/me", "").await;
    let (d0, d1) = (rating_of(&now)["deviation"].as_i64().unwrap(), rating_of(&later)["deviation"].as_i64().unwrap());
    assert!(d1 > d0, "{d0} then {d1}");
    assert_eq!(rating_of(&now)["rating"], rating_of(&later)["rating"], "idleness moves no rating");
}

#[tokio::test]
async fn a_rated_open_game_admits_only_joiners_within_its_rating_range() {
    let app = App::new().await;
    let (opener, near, far) = (Player::new(), Player::new(), Player::new());
    for (p, rating) in [(opener, 1600.0), (near, 1650.0), (far, 1900.0)] {
        app.create(p, "noi-tu", r#"[{"robot":"easy"}]"#).await;
        sqlx::query("INSERT INTO ratings VALUES ($1, 'scrabble-ru', 'correspondence', $2, 80, 0.06, 20, now())")
            .bind(p.0)
            .bind(rating)
            .execute(app.pool())
            .await
            .unwrap();
    }
    for (body, code) in [
        (json!({"variant": "scrabble-ru", "rating_range": 100}), "bad_rating_range"),
        (json!({"variant": "scrabble-ru", "rated": true, "rating_range": 10}), "bad_rating_range"),
        (json!({"variant": "scrabble-ru", "rated": true, "rating_range": 5000}), "bad_rating_range"),
    ] {
        let (status, refused) = app.call(Some(opener), "POST", "/games/open", &body.to_string()).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (400, Some(code)), "{body}: {refused}");
    }
    let (status, open) = app
        .call(Some(opener), "POST", "/games/open", &json!({"variant": "scrabble-ru", "rated": true, "rating_range": 100}).to_string())
        .await;
    assert_eq!(status, 201, "{open}");
    let id = open["game_id"].as_str().unwrap();
    let listed = |lobby: &Value| lobby["games"].as_array().unwrap().iter().any(|g| g["game_id"] == id);
    let (_, lobby) = app.call(Some(far), "GET", "/games/open", "").await;
    let mine = lobby["games"].as_array().unwrap().iter().find(|g| g["game_id"] == id).unwrap().clone();
    assert_eq!((mine["opener_rating"].as_i64(), mine["rating_range"].as_i64()), (Some(1600), Some(100)), "{mine}");
    let (_, joinable) = app.call(Some(far), "GET", "/games/open?joinable=true", "").await;
    assert!(!listed(&joinable), "1900 is out of 1600 ± 100: {joinable}");
    let (_, joinable) = app.call(Some(near), "GET", "/games/open?joinable=true", "").await;
    assert!(listed(&joinable), "1650 is within: {joinable}");
    let before = app.everything().await;
    let (status, refused) = app.call(Some(far), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("rating_out_of_range")), "{refused}");
    assert_eq!(refused["error"]["details"], json!({"rating": 1900, "opener_rating": 1600, "range": 100}));
    assert_eq!(app.everything().await, before, "nothing written");
    let (status, joined) = app.call(Some(near), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!((status, joined["status"].as_str()), (200, Some("active")), "{joined}");
}

/// `who`'s rated scrabble-en invitation to `to`, accepted: the game view.
async fn rated_invitation(app: &App, who: Player, to: Player) -> Value {
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": to.0}], "rated": true}).to_string();
    app.create_with(who, &body).await
}

#[tokio::test]
async fn two_accounts_of_one_person_cannot_farm_a_rating() {
    // The reproduction: 40 rated games between two accounts, each ended by a resignation. Games
    // resigned before each player made two moves are aborted; of the rest, three a day between
    // the pair are rated and the others are played casual, which the view and the lobby say.
    let clock = Arc::new(ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 12).await;
    let (ann, bob, cat) = (Player::new(), Player::new(), Player::new());
    for p in [bob, cat] {
        app.create(p, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    }
    let changes = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM rating_changes WHERE account_id = $1")
            .bind(ann.0)
            .fetch_one(app.pool())
            .await
            .unwrap()
    };
    for quick in 0..40 {
        let ended = passed_and_resigned(&app, ann, bob, if quick < 10 { 0 } else { 4 }).await;
        let g = &ended["game"];
        match quick {
            // Resigned at once: aborted, nothing changes (and it does not use up the day's games).
            0..10 => assert_eq!(
                (g["rated"].as_bool(), g["ratings"]["aborted"].as_bool(), g["pair_limited"].as_bool()),
                (Some(true), Some(true), Some(false)),
                "{g}"
            ),
            // The day's three rated games.
            10..13 => assert_eq!(
                (g["rated"].as_bool(), g["ratings"]["aborted"].as_bool(), g["pair_limited"].as_bool()),
                (Some(true), Some(false), Some(false)),
                "{g}"
            ),
            // The rest: asked rated, played casual.
            _ => assert_eq!(
                (g["rated"].as_bool(), g["ratings"].clone(), g["pair_limited"].as_bool()),
                (Some(false), Value::Null, Some(true)),
                "{g}"
            ),
        }
        clock.advance(Duration::seconds(2));
    }
    assert_eq!(changes().await, 3, "three rated games a day between one pair");
    let (_, me) = app.call(Some(ann), "GET", "/me", "").await;
    assert_eq!(rating_of(&me)["games"], 3, "{me}");
    // The lobby says it before anyone joins: Bob's rated open game is casual for Ann, rated for Cat.
    let (status, open) = app.call(Some(bob), "POST", "/games/open", &json!({"variant": "scrabble-en", "rated": true}).to_string()).await;
    assert_eq!(status, 201, "{open}");
    let listed =
        |page: &Value| page["games"].as_array().unwrap().iter().find(|g| g["game_id"] == open["game_id"]).unwrap()["pair_limited"].clone();
    assert_eq!(listed(&app.call(Some(ann), "GET", "/games/open", "").await.1), json!(true));
    assert_eq!(listed(&app.call(Some(cat), "GET", "/games/open", "").await.1), json!(false));
    // Ann joins anyway: played casual.
    let (status, joined) = app.call(Some(ann), "POST", &format!("/games/{}/join", open["game_id"].as_str().unwrap()), "").await;
    assert_eq!((status, joined["rated"].as_bool(), joined["pair_limited"].as_bool()), (200, Some(false), Some(true)), "{joined}");
    // A day after the first rated game, the pair may play rated again.
    clock.advance(Duration::hours(24));
    let game = rated_invitation(&app, ann, bob).await;
    assert_eq!((game["rated"].as_bool(), game["pair_limited"].as_bool()), (Some(true), Some(false)), "{game}");
    let (status, _) = app.call(Some(bob), "POST", &format!("/games/{}/withdraw", game["game_id"].as_str().unwrap()), "").await;
    assert_eq!(status, 409, "an accepted game is resigned, not withdrawn");
    // Three days more of three rated games each: the admin account page flags the pair.
    let page = |app: App| async move { app.raw(Some(ann), true, "GET", &format!("/_gm/accounts/{}", ann.0), "").await };
    let (status, _, before) = page(app.clone()).await;
    assert!(status == 200 && before.contains("<td>3</td>") && !before.contains("frequent pair"), "{before}");
    for _ in 0..3 {
        clock.advance(Duration::hours(25));
        for _ in 0..3 {
            passed_and_resigned(&app, ann, bob, 4).await;
        }
    }
    let (_, _, after) = page(app.clone()).await;
    assert!(after.contains("<td>12</td>") && after.contains("frequent pair"), "{after}");
}

/// A rated invitation from `ann` to `bob`, accepted, `moves` passes in turn, then Bob resigns:
/// the answer to the resignation.
async fn passed_and_resigned(app: &App, ann: Player, bob: Player, moves: usize) -> Value {
    let game = rated_invitation(app, ann, bob).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let mut mover = if game["to_move"] == game["your_seat"] { ann } else { bob };
    for n in 0..moves {
        let pass = json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string();
        let (status, answer) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &pass).await;
        assert_eq!(status, 200, "{answer}");
        mover = if mover.0 == ann.0 { bob } else { ann };
    }
    let (status, ended) = app.call(Some(bob), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{ended}");
    ended
}
