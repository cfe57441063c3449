//! Nối từ through the HTTP handlers, on the same routes, error mapping, idempotency and locking
//! as the tile games: whole games against each robot level, two humans through the lobby, a
//! timed game timed out, retries and racing submits, bad chain bodies refused with nothing
//! written, and a group chain of three losing a life and restarting.

use std::sync::Arc;

use crate::common::{App, Player, chain_word};
use chrono::{DateTime, Duration};
use serde_json::{Value, json};
use uuid::Uuid;

async fn view(app: &App, who: Player, id: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

/// The best hinted word for `who` as a submit body at the game's move count; once the game's
/// hints are spent, a word from the dictionary ([`chain_word`]).
async fn best_word(app: &App, who: Player, id: &str) -> Value {
    let v = view(app, who, id).await;
    let (status, hints) = app.call(Some(who), "GET", &format!("/games/{id}/hint?limit=1"), "").await;
    let word = if status == 409 && hints["error"]["code"] == "no_hints_left" {
        chain_word(&v)
    } else {
        assert_eq!(status, 200, "{hints}");
        hints["hints"][0]["word"].as_str().map(str::to_string)
    };
    let word = word.unwrap_or_else(|| panic!("a player to move in a game not over has a word: {hints} {v}"));
    json!({"expected_move_no": v["move_count"], "client_move_id": Uuid::new_v4(), "move": {"kind": "word", "word": word}})
}

/// A chain game between two humans; Bob's account exists first.
async fn duel(app: &App, ann: Player, bob: Player, turn_seconds: Option<u32>) -> String {
    app.create(bob, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let timed = turn_seconds.map_or(String::new(), |t| format!(r#","turn_seconds":{t}"#));
    let game = app.create_with(ann, &format!(r#"{{"variant":"noi-tu","opponents":[{{"account":"{}"}}]{timed}}}"#, bob.0)).await;
    game["game_id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_chain_game_against_each_robot_level_is_played_to_its_end() {
    let app = App::new().await;
    for level in ["easy", "medium", "hard"] {
        let me = Player::new();
        let game = app.create(me, "noi-tu", &format!(r#"[{{"robot":"{level}"}}]"#)).await;
        assert_eq!((game["family"].as_str(), game["variant"].as_str()), (Some("chain"), Some("noi-tu")));
        assert!(game["opening"].is_string() && game["syllable"].is_string(), "{game}");
        let lots = game["draw"].as_array().unwrap();
        assert!(lots.len() >= 2 && lots.iter().all(|d| d["letter"].is_null() && (1..=10).contains(&d["rank"].as_i64().unwrap())), "{game}");
        let id = game["game_id"].as_str().unwrap().to_string();
        let my_seat = game["your_seat"].clone();
        let mut robot_words = 0;
        for _ in 0..200 {
            let v = view(&app, me, &id).await;
            if v["status"] == "finished" {
                break;
            }
            assert_eq!(v["to_move"], my_seat, "the robot has already answered");
            let body = best_word(&app, me, &id).await;
            let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body.to_string()).await;
            assert_eq!(status, 200, "{outcome}");
            let moves = outcome["moves"].as_array().unwrap();
            // The entry shows the word as typed, its canonical key beside it.
            assert_eq!((moves[0]["kind"].as_str(), &moves[0]["word"]), (Some("word"), &body["move"]["word"]));
            let typed = body["move"]["word"].as_str().unwrap();
            assert_eq!(moves[0]["key"].as_str(), noitu::normalize(typed).ok().as_deref());
            assert!(moves[0].get("spelled").is_none(), "{outcome}");
            robot_words += moves.len() - 1;
            if moves.len() > 1 {
                assert!(outcome["thinking_ms"].as_u64().unwrap() >= 400, "{level}: {outcome}");
            }
        }
        let v = view(&app, me, &id).await;
        assert_eq!(v["status"], "finished", "{level}: {v}");
        // Won with a word that leaves no answer, or the robot, with no familiar word, conceded.
        let reason = v["result"]["reason"].as_str().unwrap();
        assert!(["no_legal_move", "resigned"].contains(&reason), "{v}");
        assert_eq!(v["result"]["winners"].as_array().unwrap().len(), 1);
        assert_eq!(v["to_move"], Value::Null);
        let chain = v["chain"].as_array().unwrap();
        assert_eq!(chain.len() as u64 + u64::from(reason == "resigned"), v["move_count"].as_u64().unwrap());
        for pair in chain.windows(2) {
            // Each word begins where the last ended (in any spelling of the syllable).
            let next_first = pair[1]["word"].as_str().unwrap().split(' ').next().unwrap();
            assert_eq!(noitu::normalize(pair[0]["ends_on"].as_str().unwrap()), noitu::normalize(next_first));
        }
        let points: i64 = chain.iter().filter(|l| l["seat"] == my_seat).map(|l| l["points"].as_i64().unwrap()).sum();
        assert_eq!(v["seats"][my_seat.as_u64().unwrap() as usize]["score"].as_i64().unwrap(), points);
        assert!(v["seats"][0].get("rack_size").is_none());
        assert_eq!(app.journal_rows(&id).await, v["move_count"].as_i64().unwrap());
        assert!(robot_words >= 1 || chain.len() <= 2, "{level}");
        let body = json!({"expected_move_no": v["move_count"], "move": {"kind": "word", "word": "học sinh"}}).to_string();
        let (status, over) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!((status, over["error"]["code"].as_str()), (422, Some("game_over")), "{over}");
    }
}

#[tokio::test]
async fn two_humans_meet_through_the_lobby_and_a_resignation_ends_the_chain() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let (status, opened) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"noi-tu"}"#).await;
    assert_eq!(status, 201, "{opened}");
    assert_eq!(opened["status"], "open");
    let id = opened["game_id"].as_str().unwrap().to_string();
    let (_, page) = app.call(Some(bob), "GET", "/games/open?variant=noi-tu", "").await;
    assert_eq!(page["games"][0]["game_id"], id.as_str());
    assert_eq!(page["games"][0]["variant"], "noi-tu");
    let (status, joined) = app.call(Some(bob), "POST", &format!("/games/{id}/join"), "").await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["status"], "active");
    assert!(joined["draw"].as_array().unwrap().iter().all(|d| d["account_id"].is_string()), "the placeholder's lots are back-filled");
    for _ in 0..6 {
        let v = view(&app, ann, &id).await;
        if v["status"] == "finished" {
            break;
        }
        let ann_seat = v["your_seat"].as_u64().unwrap();
        let (mover, other) = if v["to_move"].as_u64() == Some(ann_seat) { (ann, bob) } else { (bob, ann) };
        let body = best_word(&app, mover, &id).await;
        let (status, refused) = app.call(Some(other), "POST", &format!("/games/{id}/moves"), &body.to_string()).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("not_your_turn")), "{refused}");
        let (status, preview) =
            app.call(Some(mover), "POST", &format!("/games/{id}/preview"), &json!({"move": body["move"]}).to_string()).await;
        assert_eq!(status, 200, "{preview}");
        let (status, outcome) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &body.to_string()).await;
        assert_eq!(status, 200, "{outcome}");
        assert_eq!(outcome["moves"].as_array().unwrap().len(), 1, "no robot here");
        assert_eq!(outcome["moves"][0]["score"], preview["score"]["total"], "preview scores what submit scores");
        let again = body["move"]["word"].clone();
        let replay = json!({"expected_move_no": outcome["game"]["move_count"], "move": {"kind": "word", "word": again}});
        if outcome["game"]["status"] == "active" {
            let (status, used) =
                app.call(Some(other), "POST", &format!("/games/{id}/preview"), &json!({"move": replay["move"]}).to_string()).await;
            assert_eq!(status, 422);
            assert!(["wrong_link", "already_used"].contains(&used["error"]["code"].as_str().unwrap()), "{used}");
        }
    }
    let (_, before) = app.call(Some(bob), "GET", &format!("/games/{id}"), "").await;
    if before["status"] == "active" {
        let (status, outcome) = app.call(Some(bob), "POST", &format!("/games/{id}/resign"), "").await;
        assert_eq!(status, 200, "{outcome}");
        assert_eq!(outcome["moves"][0]["kind"], "resign");
        assert_eq!(outcome["game"]["result"]["reason"], "resigned");
        let ann_seat = view(&app, ann, &id).await["your_seat"].clone();
        assert_eq!(outcome["game"]["result"]["winners"], json!([ann_seat]));
    }
}

#[tokio::test]
async fn a_timed_chain_game_is_lost_by_the_seat_that_lets_its_deadline_pass() {
    let clock = Arc::new(service::ManualClock::new(DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 9).await;
    let (ann, bob) = (Player::new(), Player::new());
    let id = duel(&app, ann, bob, Some(30)).await;
    let v = view(&app, ann, &id).await;
    let mover = v["to_move"].clone();
    clock.advance(Duration::seconds(29));
    let (status, early) = app.call(Some(ann), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!((status, early["error"]["code"].as_str()), (422, Some("deadline_not_passed")));
    clock.advance(Duration::seconds(1));
    let (status, outcome) = app.call(Some(ann), "POST", &format!("/games/{id}/timeout"), "").await;
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["moves"][0]["kind"], "timeout");
    assert_eq!(outcome["game"]["status"], "finished");
    assert_eq!(outcome["game"]["result"]["reason"], "timeout");
    assert_eq!(outcome["game"]["result"]["seat"], mover);
    assert_eq!(outcome["game"]["result"]["winners"], json!([1 - mover.as_u64().unwrap()]));
    assert_eq!(outcome["game"]["turn_deadline"], Value::Null);
}

#[tokio::test]
async fn a_retried_chain_submit_returns_the_first_answer_and_twenty_racing_submits_append_one() {
    let app = App::new().await;
    let me = Player::new();
    let id = app.create(me, "noi-tu", r#"[{"robot":"hard"}]"#).await["game_id"].as_str().unwrap().to_string();
    let body = best_word(&app, me, &id).await.to_string();
    let before = app.journal_rows(&id).await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (app, id, body) = (app.clone(), id.clone(), body.clone());
        tasks.push(tokio::spawn(async move { app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        let (status, answer) = t.await.unwrap();
        assert_eq!(status, 200, "{answer}");
        answers.push(answer);
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "every retry gets the first answer");
    assert_eq!((app.journal_rows(&id).await - before) as usize, answers[0]["moves"].as_array().unwrap().len());
    let mut other: Value = serde_json::from_str(&body).unwrap();
    other["move"]["word"] = json!("học sinh");
    let (status, reused) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &other.to_string()).await;
    assert_eq!((status, reused["error"]["code"].as_str()), (422, Some("idempotency_key_reused")));

    if answers[0]["game"]["status"] == "finished" {
        return;
    }
    let body = best_word(&app, me, &id).await;
    let before = app.journal_rows(&id).await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (app, id) = (app.clone(), id.clone());
        let mut body = body.clone();
        body["client_move_id"] = json!(Uuid::new_v4());
        tasks.push(tokio::spawn(async move { app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body.to_string()).await }));
    }
    let mut made = 0;
    for t in tasks {
        let (status, answer) = t.await.unwrap();
        match status {
            200 => made += 1,
            _ => assert_eq!((status, answer["error"]["code"].as_str()), (409, Some("stale_move")), "{answer}"),
        }
    }
    assert_eq!(made, 1);
    let mine: i64 = sqlx::query_scalar("SELECT count(*) FROM game_moves WHERE game_id = $1::uuid AND move_no >= $2 AND seat = $3")
        .bind(&id)
        .bind(before as i32)
        .bind(view(&app, me, &id).await["your_seat"].as_i64().unwrap() as i16)
        .fetch_one(app.pool())
        .await
        .unwrap();
    assert_eq!(mine, 1);
}

#[tokio::test]
async fn bad_chain_bodies_and_moves_of_the_other_family_are_refused_and_write_nothing() {
    let app = App::new().await;
    let me = Player::new();
    let chain = app.create(me, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let tile = app.create(me, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let (chain_id, tile_id) = (chain["game_id"].as_str().unwrap(), tile["game_id"].as_str().unwrap());
    let n = view(&app, me, chain_id).await["move_count"].clone();
    let t = view(&app, me, tile_id).await["move_count"].clone();
    let word = |w: &str| json!({"expected_move_no": n, "move": {"kind": "word", "word": w}}).to_string();
    let huge = "ab ".repeat(10 * 1024 / 3);
    let chain_moves = format!("/games/{chain_id}/moves");
    let cases: Vec<(String, String, u16, &str)> = vec![
        (chain_moves.clone(), word("sinh"), 422, "too_few_syllables"),
        (chain_moves.clone(), word(&huge), 422, "not_in_dictionary"),
        (chain_moves.clone(), word("xyzzy quux"), 422, "not_in_dictionary"),
        (chain_moves.clone(), json!({"expected_move_no": n, "move": {"kind": "pass"}}).to_string(), 422, "wrong_family"),
        (
            chain_moves.clone(),
            json!({"expected_move_no": n, "move": {"kind": "play", "placements": [{"square": "H8", "letter": "A"}]}}).to_string(),
            422,
            "wrong_family",
        ),
        (
            chain_moves.clone(),
            json!({"expected_move_no": n, "move": {"kind": "exchange", "tiles": ["blank"]}}).to_string(),
            422,
            "wrong_family",
        ),
        (
            chain_moves.clone(),
            json!({"expected_move_no": n, "move": {"kind": "word", "word": "học sinh", "score": 50}}).to_string(),
            400,
            "invalid_body",
        ),
        (chain_moves.clone(), json!({"expected_move_no": n, "move": {"kind": "word"}}).to_string(), 400, "invalid_body"),
        (chain_moves.clone(), json!({"expected_move_no": n, "move": {"kind": "word", "word": 7}}).to_string(), 400, "invalid_body"),
        (format!("/games/{chain_id}/preview"), json!({"move": {"kind": "pass"}}).to_string(), 422, "wrong_family"),
        (
            format!("/games/{tile_id}/moves"),
            json!({"expected_move_no": t, "move": {"kind": "word", "word": "học sinh"}}).to_string(),
            422,
            "wrong_family",
        ),
        (format!("/games/{tile_id}/preview"), json!({"move": {"kind": "word", "word": "cat dog"}}).to_string(), 422, "wrong_family"),
        // Eight seats at most: eight opponents are a seat too many.
        (
            "/games".into(),
            json!({"variant": "noi-tu", "opponents": (0..8).map(|_| json!({"account": Uuid::new_v4()})).collect::<Vec<_>>()}).to_string(),
            400,
            "bad_opponents",
        ),
        ("/games".into(), r#"{"variant":"noi-tu","opponents":[]}"#.into(), 400, "bad_opponents"),
    ];
    let before = app.everything().await;
    for (path, body, status, code) in cases {
        let (got, answer) = app.call(Some(me), "POST", &path, &body).await;
        assert_eq!((got, answer["error"]["code"].as_str()), (status, Some(code)), "{path} {}: {answer}", &body[..body.len().min(100)]);
        assert!(answer["error"]["message"].is_string());
        assert_eq!(app.everything().await, before, "{path} {code} wrote something");
    }
    let (status, hints) = app.call(Some(me), "GET", &format!("/games/{chain_id}/hint?limit=21"), "").await;
    assert_eq!((status, hints["error"]["code"].as_str()), (400, Some("invalid_query")));
    let (status, hints) = app.call(Some(me), "GET", &format!("/games/{chain_id}/hint?limit=20"), "").await;
    assert_eq!(status, 200, "{hints}");
    let hints = hints["hints"].as_array().unwrap();
    assert!(!hints.is_empty() && hints.len() <= 20);
    // Familiar words first; the first goes on (it does not win at once) when any word does; a
    // word that wins at once is marked.
    let familiar: Vec<bool> = hints.iter().map(|h| h["familiarity"].as_u64().is_some_and(|f| f >= u64::from(noitu::FAMILIAR))).collect();
    assert!(familiar.windows(2).all(|w| w[0] >= w[1]), "{hints:?}");
    assert!(hints.iter().all(|h| h["wins_at_once"] == (h["replies"] == 0)), "{hints:?}");
    assert!(hints[0]["wins_at_once"] == false || hints.iter().all(|h| h["wins_at_once"] == true), "{hints:?}");
    for h in hints {
        let (status, preview) = app
            .call(
                Some(me),
                "POST",
                &format!("/games/{chain_id}/preview"),
                &json!({"move": {"kind": "word", "word": h["word"]}}).to_string(),
            )
            .await;
        assert_eq!(status, 200, "every hint is a word submit accepts: {preview}");
        assert_eq!(preview["score"]["total"], h["score"]);
    }
}

#[tokio::test]
async fn the_admin_replay_of_a_chain_steps_through_its_words() {
    let app = App::new().await;
    let me = Player::new();
    let id = app.create(me, "noi-tu", r#"[{"robot":"medium"}]"#).await["game_id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        let v = view(&app, me, &id).await;
        if v["status"] == "finished" {
            break;
        }
        let body = best_word(&app, me, &id).await;
        assert_eq!(app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body.to_string()).await.0, 200);
    }
    let admin = Player::new();
    let (status, timeline) = app.call(Some(admin), "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    assert_eq!(status, 403, "{timeline}");
    let (_, _, text) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}/timeline.json"), "").await;
    let timeline: Value = serde_json::from_str(&text).unwrap();
    let v = view(&app, me, &id).await;
    let steps = timeline["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, v["move_count"].as_u64().unwrap() + 1, "step 0 is the opening");
    assert_eq!(timeline["opening"], v["opening"]);
    let last = steps.last().unwrap();
    assert_eq!(last["scores"], json!(v["seats"].as_array().unwrap().iter().map(|s| s["score"].clone()).collect::<Vec<_>>()));
    assert_eq!(last["syllable"], v["syllable"]);
    let (status, kind, page) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}"), "").await;
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(page.contains("Draw of lots") && page.contains("hands on"), "{page}");
    for link in v["chain"].as_array().unwrap() {
        assert!(page.contains(link["word"].as_str().unwrap()), "the page lists {}", link["word"]);
    }
    let (status, _, _) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{id}.gcg"), "").await;
    assert_eq!(status, 404, "GCG is the tile family's export");

    // Every user string on the page is escaped, in the HTML and in the embedded timeline.
    let sub = Uuid::new_v4().to_string();
    let hostile = "<img src=x onerror=alert(1)></script>";
    let (status, game) = app
        .call_claims(&[("sub", &sub), ("name", hostile)], "POST", "/games", r#"{"variant":"noi-tu","opponents":[{"robot":"easy"}]}"#)
        .await;
    assert_eq!(status, 201, "{game}");
    let (_, _, page) = app.raw(Some(admin), true, "GET", &format!("/_gm/games/{}", game["game_id"].as_str().unwrap()), "").await;
    assert!(!page.contains("<img src=x") && !page.contains("alert(1)></script>"), "{page}");
    assert!(page.contains("img src=x onerror"), "the name is shown, escaped: {page}");
}

#[tokio::test]
async fn a_robot_attached_to_an_open_chain_game_answers_at_once_when_it_leads_and_an_open_game_can_be_withdrawn() {
    let app = App::new().await;
    let ann = Player::new();
    let mut robot_led = false;
    for _ in 0..12 {
        let (status, opened) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"noi-tu","turn_seconds":60}"#).await;
        assert_eq!(status, 201, "{opened}");
        assert_eq!(opened["turn_deadline"], Value::Null, "no clock runs while the seat is empty");
        let id = opened["game_id"].as_str().unwrap().to_string();
        let (status, outcome) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"easy"}"#).await;
        assert_eq!(status, 200, "{outcome}");
        let game = &outcome["game"];
        assert_eq!(game["status"], "active");
        assert!(game["turn_deadline"].is_string(), "the clock starts");
        let robot_seat = 1 - game["your_seat"].as_u64().unwrap();
        if robot_seat == 0 {
            robot_led = true;
            assert_eq!(outcome["moves"][0]["kind"], "word", "the robot answered the opening in this request");
            assert!(outcome["thinking_ms"].as_u64().unwrap() >= 400);
            assert_eq!(game["to_move"], game["your_seat"]);
        } else {
            assert_eq!(outcome["moves"], json!([]));
        }
        let (status, again) = app.call(Some(ann), "POST", &format!("/games/{id}/robot"), r#"{"level":"hard"}"#).await;
        assert_eq!((status, again["error"]["code"].as_str()), (409, Some("not_open")));
        if robot_led {
            break;
        }
    }
    assert!(robot_led, "in 12 draws of lots the robot led at least once");

    let (_, opened) = app.call(Some(ann), "POST", "/games/open", r#"{"variant":"noi-tu"}"#).await;
    let id = opened["game_id"].as_str().unwrap();
    let (status, withdrawn) = app.call(Some(ann), "POST", &format!("/games/{id}/withdraw"), "").await;
    assert_eq!((status, withdrawn["status"].as_str()), (200, Some("withdrawn")), "{withdrawn}");
    let body = json!({"expected_move_no": withdrawn["move_count"], "move": {"kind": "word", "word": "học sinh"}}).to_string();
    let (status, refused) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("game_withdrawn")));
}

#[tokio::test]
async fn a_hinted_word_is_a_word_in_its_usual_spelling_with_valid_syllables_never_a_variant() {
    let app = App::new().await;
    let me = Player::new();
    let game = app.create_with(me, r#"{"variant":"noi-tu","opponents":[{"robot":"medium"}],"hints":20}"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let dict = noitu::Dictionary::builtin();
    let (mut asked, mut checked) = (0, 0);
    while asked < 20 {
        let v = view(&app, me, &id).await;
        if v["status"] == "finished" {
            break;
        }
        let (status, hints) = app.call(Some(me), "GET", &format!("/games/{id}/hint?limit=20"), "").await;
        assert_eq!(status, 200, "{hints}");
        asked += 1;
        assert_eq!(hints["hints_left"], 20 - asked, "{hints}");
        for h in hints["hints"].as_array().unwrap() {
            let word = h["word"].as_str().unwrap();
            let w = dict.lookup(&noitu::normalize(word).unwrap()).unwrap_or_else(|| panic!("{word} is a word of its own, not an alias"));
            assert_eq!(dict.display(w), word, "the usual spelling");
            assert!(word.split(' ').all(noitu::is_syllable), "{word}");
            checked += 1;
        }
        let word = &hints["hints"][0]["word"];
        let body = json!({"expected_move_no": v["move_count"], "move": {"kind": "word", "word": word}}).to_string();
        let (status, outcome) = app.call(Some(me), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{outcome}");
    }
    assert!(checked >= 20, "{checked} hinted words checked");
}

/// A group chain of three (a person and two robots): each seat starts with three lives; a
/// resignation costs the person one, and the game opens the next round itself (a `round` entry
/// in the journal, its opening word and the seat that answers it), the robots answering in seat
/// order until the person's turn comes again; every seat shows its lives.
#[tokio::test]
async fn a_group_chain_costs_a_life_and_restarts_from_a_new_opening() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app.create(ann, "noi-tu", r#"[{"robot":"easy"},{"robot":"medium"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let seats = game["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3, "{game}");
    assert!(seats.iter().all(|s| s["lives"] == 3), "three lives each: {seats:?}");
    let mine = game["your_seat"].as_u64().unwrap() as usize;
    assert_eq!((game["to_move"].as_u64(), game["round"].as_u64()), (Some(mine as u64), Some(0)), "{game}");

    let (status, after) = app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await;
    assert_eq!(status, 200, "{after}");
    let v = &after["game"];
    assert_eq!(v["status"], "active", "one life lost is not the game: {v}");
    assert_eq!(v["seats"][mine]["lives"], 2, "{v}");
    assert_eq!(v["round"], 1, "{v}");
    let (_, moves) = app.call(Some(ann), "GET", &format!("/games/{id}/moves"), "").await;
    let entries = moves["moves"].as_array().unwrap();
    let round = entries.iter().find(|m| m["kind"] == "round").unwrap_or_else(|| panic!("a round entry: {moves}"));
    let resigned = entries.iter().position(|m| m["kind"] == "resign").unwrap();
    assert_eq!(round["move_no"].as_u64(), entries[resigned]["move_no"].as_u64().map(|n| n + 1), "right after the move that cost the life");
    assert_eq!(round["seat"].as_u64(), Some(((mine + 1) % 3) as u64), "the next seat answers the new opening");
    assert!(round["word"].as_str().is_some_and(|w| w.contains(' ')), "{round}");
    let link = v["chain"].as_array().unwrap().iter().find(|l| l["opens_round"] == true).unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        (&link["move_no"], &link["word"], &link["points"]),
        (&round["move_no"], &round["word"], &json!(0)),
        "the chain shows the opening"
    );
    // Another process, which keeps nothing yet, replays it from the journal as stored: the same.
    let other = App::on_store(store::Store::new(app.pool().clone()), 1);
    let again = view(&other, ann, &id).await;
    assert_eq!((again["round"].clone(), again["seats"][mine]["lives"].clone()), (json!(1), json!(2)));
}
