//! Challenge rules through the API: a phony laid and challenged off, a valid play challenged at
//! each rule's cost, void refusing both, the rule pinned and shown (view, lobby, my games,
//! rematch) and refused where it does not belong, retried and raced challenges, robots that
//! challenge by level, and a whole game under a rule whose last play waits to be accepted.

use crate::common::{App, Player};
use engine::Lexicon;
use serde_json::{Value, json};
use uuid::Uuid;

/// Whether `word` (upper case) is in the English list.
fn valid(word: &str) -> bool {
    let rules = engine::TileVariant::ScrabbleEn.rules();
    engine::lexicon::encode(rules, word).is_some_and(|l| engine::builtin_graph(engine::TileVariant::ScrabbleEn).contains(&l))
}

/// A first play of two of `view`'s rack tiles across H8 that is not a word, as a move.
fn phony(view: &Value) -> Value {
    let rack: Vec<String> = view["your_rack"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
    for (i, a) in rack.iter().enumerate() {
        for (j, b) in rack.iter().enumerate() {
            if i != j && a != "?" && b != "?" && !valid(&format!("{a}{b}")) {
                return json!({"kind": "play", "placements": [{"square": "H8", "letter": a}, {"square": "I8", "letter": b}]});
            }
        }
    }
    panic!("every pair of {rack:?} is a word");
}

async fn view(app: &App, who: Player, id: &str) -> Value {
    let (status, view) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(status, 200, "{view}");
    view
}

async fn submit(app: &App, who: Player, id: &str, mv: Value) -> (u16, Value) {
    let n = view(app, who, id).await["move_count"].clone();
    let body = json!({"expected_move_no": n, "client_move_id": Uuid::new_v4(), "move": mv}).to_string();
    app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await
}

async fn challenge(app: &App, who: Player, id: &str) -> (u16, Value) {
    let n = view(app, who, id).await["move_count"].clone();
    let body = json!({"expected_move_no": n, "client_move_id": Uuid::new_v4()}).to_string();
    app.call(Some(who), "POST", &format!("/games/{id}/challenge"), &body).await
}

/// A game of `ann` and `bob` under `rule`: its id, who moves first, who second.
async fn duel(app: &App, ann: Player, bob: Player, rule: &str) -> (String, Player, Player) {
    // Bob's account exists once he has played a game.
    app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
    let body = json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}], "challenge_rule": rule}).to_string();
    let game = app.create_with(ann, &body).await;
    assert_eq!(game["challenge_rule"], rule, "{game}");
    let id = game["game_id"].as_str().unwrap().to_string();
    let (first, second) = if game["to_move"] == game["your_seat"] { (ann, bob) } else { (bob, ann) };
    (id, first, second)
}

fn sorted(rack: &Value) -> Vec<String> {
    let mut r: Vec<String> = rack.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
    r.sort();
    r
}

#[tokio::test]
async fn a_phony_is_laid_and_challenged_off_and_a_valid_play_challenged_costs_the_rule() {
    let app = App::new().await;
    for (rule, kind, bonus, turn_lost) in [
        ("single", "challenge_failed", 0, false),
        ("double", "challenge_turn_lost", 0, true),
        ("five_point", "challenge_bonus", 5, false),
        ("ten_point", "challenge_bonus", 10, false),
    ] {
        let (ann, bob) = (Player::new(), Player::new());
        let (id, first, second) = duel(&app, ann, bob, rule).await;
        let before = view(&app, first, &id).await;
        // The phony is laid and scored as laid: nothing says it is not a word.
        let (status, laid) = submit(&app, first, &id, phony(&before)).await;
        assert_eq!(status, 200, "{rule}: {laid}");
        let points = laid["moves"][0]["score"].as_i64().unwrap();
        assert!(points > 0);
        let seen = view(&app, second, &id).await;
        assert_eq!(seen["challengeable"], before["your_seat"], "{rule}: the next seat may challenge it");
        // Only the next seat may.
        let (status, refused) = challenge(&app, first, &id).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("not_your_turn")), "{rule}");
        let (status, off) = challenge(&app, second, &id).await;
        assert_eq!(status, 200, "{rule}: {off}");
        assert_eq!(off["moves"][0]["kind"], "challenged_off");
        assert_eq!(off["moves"][0]["seat"], before["your_seat"]);
        assert_eq!(off["moves"][0]["score"], -points);
        let after = view(&app, first, &id).await;
        assert_eq!(after["board"], json!([]), "{rule}: the tiles come off");
        assert_eq!(sorted(&after["your_rack"]), sorted(&before["your_rack"]), "{rule}: and go back to the rack");
        assert_eq!(after["bag_size"], before["bag_size"]);
        assert_eq!(after["seats"][0]["score"].as_i64().unwrap() + after["seats"][1]["score"].as_i64().unwrap(), 0);
        assert_eq!((after["to_move"].clone(), after["challengeable"].clone()), (seen["your_seat"].clone(), Value::Null));
        // A second challenge of the same play: nothing to challenge.
        let (status, again) = challenge(&app, second, &id).await;
        assert_eq!((status, again["error"]["code"].as_str()), (422, Some("nothing_to_challenge")), "{rule}");
        // The challenger plays a valid word; challenged, it stands at the rule's cost.
        let body = app.best_move(second, &id).await;
        let (status, played) = app.call(Some(second), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{played}");
        let scored = played["moves"][0]["score"].as_i64().unwrap();
        let (status, lost) = challenge(&app, first, &id).await;
        assert_eq!(status, 200, "{rule}: {lost}");
        assert_eq!(lost["moves"][0]["kind"], kind, "{rule}");
        let end = view(&app, first, &id).await;
        let challenger_seat = end["your_seat"].as_u64().unwrap() as usize;
        assert_eq!(end["seats"][1 - challenger_seat]["score"].as_i64().unwrap(), scored + bonus, "{rule}");
        let expected_to_move = if turn_lost { 1 - challenger_seat } else { challenger_seat };
        assert_eq!(end["to_move"], expected_to_move, "{rule}");
        assert!(!end["board"].as_array().unwrap().is_empty(), "{rule}: the play stands");
        // The journal replays: the admin GCG shows the phony's withdrawal.
        let (status, _, gcg) = app.raw(Some(first), true, "GET", &format!("/_gm/games/{id}.gcg"), "").await;
        assert_eq!(status, 200, "{gcg}");
        assert!(gcg.contains(&format!(" -- -{points} ")), "{gcg}");
        if bonus > 0 {
            assert!(gcg.contains(&format!("(challenge) +{bonus} ")), "{gcg}");
        }
    }
}

#[tokio::test]
async fn void_refuses_the_phony_and_the_challenge_and_the_rule_is_pinned_and_refused_where_it_has_no_place() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let (id, first, second) = duel(&app, ann, bob, "void").await;
    let before = app.everything().await;
    let (status, refused) = submit(&app, first, &id, phony(&view(&app, first, &id).await)).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("invalid_words")), "{refused}");
    let (status, refused) = challenge(&app, first, &id).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("challenge_not_allowed")), "{refused}");
    let _ = second;
    assert_eq!(app.everything().await, before, "nothing written");
    // A game with no rule given is void; the chain has only void; an unknown rule is refused.
    let plain = app.create(ann, "erudit", r#"[{"robot":"easy"}]"#).await;
    assert_eq!(plain["challenge_rule"], "void");
    for (body, code) in [
        (json!({"variant": "noi-tu", "opponents": [{"robot": "easy"}], "challenge_rule": "single"}), "bad_challenge_rule"),
        (json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}], "challenge_rule": "triple"}), "bad_challenge_rule"),
        (json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}], "challenge_rule": 5}), "bad_challenge_rule"),
    ] {
        let before = app.everything().await;
        let (status, answer) = app.call(Some(ann), "POST", "/games", &body.to_string()).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some(code)), "{body}: {answer}");
        assert_eq!(app.everything().await, before);
    }
    // Opened to the lobby with a rule: the lobby and my games show it, a rematch keeps it.
    let carol = Player::new();
    let (status, opened) =
        app.call(Some(carol), "POST", "/games/open", &json!({"variant": "scrabble-ru", "challenge_rule": "double"}).to_string()).await;
    assert_eq!(status, 201, "{opened}");
    let (_, lobby) = app.call(Some(ann), "GET", "/games/open?variant=scrabble-ru", "").await;
    let listed = lobby["games"].as_array().unwrap().iter().find(|g| g["game_id"] == opened["game_id"]).unwrap().clone();
    assert_eq!(listed["challenge_rule"], "double");
    let (_, mine) = app.call(Some(carol), "GET", "/games?status=open", "").await;
    assert_eq!(mine["games"][0]["challenge_rule"], "double", "{mine}");
    let robot = app
        .create_with(ann, &json!({"variant": "scrabble-en", "opponents": [{"robot": "easy"}], "challenge_rule": "ten_point"}).to_string())
        .await;
    let rid = robot["game_id"].as_str().unwrap();
    let (status, _) = app.call(Some(ann), "POST", &format!("/games/{rid}/resign"), "").await;
    assert_eq!(status, 200);
    let (status, again) = app.call(Some(ann), "POST", &format!("/games/{rid}/rematch"), "").await;
    assert!(status == 200 || status == 201, "{again}");
    assert_eq!(again["challenge_rule"], "ten_point", "a rematch keeps the rule");
}

#[tokio::test]
async fn a_challenge_retried_gets_its_first_answer_and_a_challenge_racing_a_move_loses_or_wins_alone() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    let (id, first, second) = duel(&app, ann, bob, "single").await;
    let (status, _) = submit(&app, first, &id, phony(&view(&app, first, &id).await)).await;
    assert_eq!(status, 200);
    let key = Uuid::new_v4();
    let body = json!({"expected_move_no": 1, "client_move_id": key}).to_string();
    let path = format!("/games/{id}/challenge");
    let (s1, a1) = app.call(Some(second), "POST", &path, &body).await;
    let (s2, a2) = app.call(Some(second), "POST", &path, &body).await;
    assert_eq!((s1, s2), (200, 200));
    assert_eq!(a1, a2, "a retry gets the first answer");
    assert_eq!(app.journal_rows(&id).await, 2, "one play, one withdrawal");
    // Malformed: another field, no move number.
    for bad in [json!({"expected_move_no": 2, "move": {"kind": "pass"}}), json!({"client_move_id": key})] {
        let (status, answer) = app.call(Some(second), "POST", &path, &bad.to_string()).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("invalid_body")), "{bad}");
    }
    // The challenger plays; a challenge of that play and a pass at the same move number race:
    // exactly one is recorded.
    let body = app.best_move(second, &id).await;
    assert_eq!(app.call(Some(second), "POST", &format!("/games/{id}/moves"), &body).await.0, 200);
    let n = view(&app, first, &id).await["move_count"].as_u64().unwrap();
    let c = json!({"expected_move_no": n, "client_move_id": Uuid::new_v4()}).to_string();
    let p = json!({"expected_move_no": n, "client_move_id": Uuid::new_v4(), "move": {"kind": "pass"}}).to_string();
    let moves = format!("/games/{id}/moves");
    let (challenged, passed) = tokio::join!(app.call(Some(first), "POST", &path, &c), app.call(Some(first), "POST", &moves, &p));
    let wins = [challenged.0, passed.0].iter().filter(|s| **s == 200).count();
    assert_eq!(wins, 1, "{challenged:?} {passed:?}");
    let loser = if challenged.0 == 200 { &passed } else { &challenged };
    assert!(loser.0 == 409 || loser.0 == 422, "{loser:?}");
    assert_eq!(app.journal_rows(&id).await as u64, n + 1);
}

#[tokio::test]
async fn robots_challenge_by_level_and_never_a_valid_play() {
    let app = App::new().await;
    for (level, challenges) in [("hard", true), ("easy", false)] {
        let ann = Player::new();
        // A robot that leads has played already: a rematch until the human leads.
        let mut game = app
            .create_with(ann, &json!({"variant": "scrabble-en", "opponents": [{"robot": level}], "challenge_rule": "single"}).to_string())
            .await;
        while game["move_count"] != 0 {
            let id = game["game_id"].as_str().unwrap().to_string();
            app.call(Some(ann), "POST", &format!("/games/{id}/resign"), "").await;
            game = app.call(Some(ann), "POST", &format!("/games/{id}/rematch"), "").await.1;
        }
        let id = game["game_id"].as_str().unwrap().to_string();
        let (status, answer) = submit(&app, ann, &id, phony(&game)).await;
        assert_eq!(status, 200, "{answer}");
        let kinds: Vec<String> = answer["moves"].as_array().unwrap().iter().map(|m| m["kind"].as_str().unwrap().to_string()).collect();
        assert_eq!(kinds[0], "play");
        assert_eq!(kinds[1] == "challenged_off", challenges, "{level}: {kinds:?}");
        // The robot's own reply after that is a valid play (or a pass or exchange), never a phony
        // and never a challenge of a valid play.
        let body = app.best_move(ann, &id).await;
        let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
        assert!(answer["moves"].as_array().unwrap().iter().all(|m| !m["kind"].as_str().unwrap().starts_with("challenge")), "{answer}");
    }
}

#[tokio::test]
async fn a_whole_game_under_a_rule_ends_when_the_play_that_went_out_is_accepted() {
    let app = App::new().await;
    let ann = Player::new();
    let game = app
        .create_with(ann, &json!({"variant": "scrabble-en", "opponents": [{"robot": "medium"}], "challenge_rule": "double"}).to_string())
        .await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let mut accepted_by = None;
    for _ in 0..80 {
        let v = view(&app, ann, &id).await;
        if v["status"] == "finished" {
            break;
        }
        if v["end_pending"] == true {
            // The robot went out: ann accepts (a pass is refused in the window).
            let (status, refused) = submit(&app, ann, &id, json!({"kind": "pass"})).await;
            assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("challenge_window")), "{refused}");
            let (status, done) = submit(&app, ann, &id, json!({"kind": "accept"})).await;
            assert_eq!(status, 200, "{done}");
            accepted_by = Some("ann");
            continue;
        }
        let body = app.best_move(ann, &id).await;
        let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
        if answer["moves"].as_array().unwrap().iter().any(|m| m["kind"] == "accept") {
            accepted_by = Some("robot");
        }
    }
    let v = view(&app, ann, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    if v["result"]["reason"] == "went_out" {
        assert!(accepted_by.is_some(), "a play that went out ends the game only once accepted");
    }
    let (status, _, gcg) = app.raw(Some(ann), true, "GET", &format!("/_gm/games/{id}.gcg"), "").await;
    assert_eq!(status, 200);
    engine::gcg::read::read(&gcg).unwrap_or_else(|e| panic!("{e}\n{gcg}"));
}

#[tokio::test]
async fn a_real_time_clock_decides_the_window_after_a_play_that_went_out() {
    // Games against the medium robot under a real-time clock until the robot goes out: then the
    // window is the player's turn, and when its time is out (a view after the flag) the play is
    // accepted as of the fall, and the game ends as gone out.
    let clock = std::sync::Arc::new(service::ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 5).await;
    let control = json!({"kind": "realtime", "initial_seconds": 300, "increment_seconds": 0, "max_overtime_minutes": 1});
    for _ in 0..6 {
        let ann = Player::new();
        let body =
            json!({"variant": "scrabble-en", "opponents": [{"robot": "medium"}], "time_control": control, "challenge_rule": "single"});
        let (status, game) = app.call(Some(ann), "POST", "/games", &body.to_string()).await;
        assert_eq!(status, 201, "{game}");
        let id = game["game_id"].as_str().unwrap().to_string();
        let mut v = view(&app, ann, &id).await;
        while v["status"] == "active" && v["end_pending"] != true {
            let body = app.best_move(ann, &id).await;
            let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
            assert_eq!(status, 200, "{answer}");
            v = view(&app, ann, &id).await;
        }
        if v["end_pending"] != true {
            // Ann went out: the robot accepted at once.
            assert_eq!(v["result"]["reason"], "went_out", "{v}");
            continue;
        }
        let flag = v["clock"]["flag_at"].as_str().unwrap().parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        assert_eq!(v["to_move"], v["your_seat"], "the window is the player's turn");
        // The window takes a challenge or an acceptance: there is no play to hint at.
        let (status, hints) = app.call(Some(ann), "GET", &format!("/games/{id}/hint?limit=3"), "").await;
        assert_eq!((status, hints["error"]["code"].as_str()), (422, Some("challenge_window")), "{hints}");
        clock.advance(chrono::Duration::seconds(361));
        let end = view(&app, ann, &id).await;
        assert_eq!((end["status"].as_str(), end["result"]["reason"].as_str()), (Some("finished"), Some("went_out")), "{end}");
        assert_eq!(end["result"]["seat"], v["challengeable"]);
        let (_, moves) = app.call(Some(ann), "GET", &format!("/games/{id}/moves?after=0"), "").await;
        let accepted = moves["moves"].as_array().unwrap().iter().find(|m| m["kind"] == "accept").expect("the acceptance is recorded");
        assert_eq!(accepted["seat"], v["your_seat"]);
        let at: Option<chrono::DateTime<chrono::Utc>> =
            sqlx::query_scalar("SELECT finished_at FROM games WHERE game_id = $1::uuid").bind(&id).fetch_one(app.pool()).await.unwrap();
        assert_eq!(at, Some(flag), "accepted as of the moment the time ran out");
        return;
    }
    panic!("the robot never went out in 6 games");
}

/// How the window after a play that went out is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    Challenge,
    Accept,
    Expire,
}

/// The player of `seat` in `view`.
fn player_at(view: &Value, seat: &Value, players: [Player; 2]) -> Player {
    let account = view["seats"][seat.as_u64().unwrap() as usize]["account_id"].as_str().unwrap();
    players.into_iter().find(|p| p.0.to_string() == account).unwrap()
}

/// The settlement of a game `out` went out of: the other seat's leftover tiles, revealed, add to
/// `out` and are taken from their holder.
fn check_settlement(end: &Value, out: usize) {
    let rules = engine::TileVariant::ScrabbleEn.rules();
    let value = |rack: &Value| -> i64 {
        rack.as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .filter(|t| *t != "?")
            .map(|t| i64::from(rules.value(rules.letter(t.chars().next().unwrap()).unwrap())))
            .sum()
    };
    let (racks, adjustments) = (&end["result"]["racks"], &end["result"]["adjustments"]);
    let left = value(&racks[1 - out]);
    assert_eq!(racks[out].as_array().map(Vec::len), Some(0), "{end}");
    assert_eq!((adjustments[out].as_i64(), adjustments[1 - out].as_i64()), (Some(left), Some(-left)), "{end}");
}

#[tokio::test]
async fn the_window_after_a_play_that_went_out_under_every_rule_challenged_accepted_or_expired() {
    // Two humans play their best moves under each rule and a real-time clock until one goes out.
    // Under void the game ends at once; under the others the opponent's turn is the window: a
    // challenge of the (valid) play fails at the rule's cost and ends the game, an acceptance ends
    // it, and a flag in the window accepts it as of the fall. Each time the settlement is the
    // leftover rack's, and the final scores are the window's plus the rule's bonus and the
    // settlement.
    let clock = std::sync::Arc::new(service::ManualClock::new(chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap()));
    let app = App::with_clock(clock.clone(), 21).await;
    let control = json!({"kind": "realtime", "initial_seconds": 1500, "increment_seconds": 0, "max_overtime_minutes": 1});
    let cases = [
        ("void", Close::Accept, 0, ""),
        ("single", Close::Challenge, 0, "challenge_failed"),
        ("double", Close::Challenge, 0, "challenge_turn_lost"),
        ("five_point", Close::Challenge, 5, "challenge_bonus"),
        ("ten_point", Close::Challenge, 10, "challenge_bonus"),
        ("single", Close::Accept, 0, "accept"),
        ("ten_point", Close::Accept, 0, "accept"),
        ("double", Close::Expire, 0, "accept"),
        ("five_point", Close::Expire, 0, "accept"),
    ];
    for (rule, close, bonus, entry) in cases {
        let mut closed = false;
        for attempt in 0..4 {
            let (ann, bob) = (Player::new(), Player::new());
            app.create(bob, "noi-tu", r#"[{"robot":"easy"}]"#).await;
            let body =
                json!({"variant": "scrabble-en", "opponents": [{"account": bob.0}], "challenge_rule": rule, "time_control": control});
            let game = app.create_with(ann, &body.to_string()).await;
            let id = game["game_id"].as_str().unwrap().to_string();
            let players = [ann, bob];
            let mut v = view(&app, ann, &id).await;
            let mut before_last = v.clone();
            while v["status"] == "active" && v["end_pending"] != true {
                let mover = player_at(&v, &v["to_move"], players);
                before_last = view(&app, mover, &id).await;
                let body = app.best_move(mover, &id).await;
                let (status, answer) = app.call(Some(mover), "POST", &format!("/games/{id}/moves"), &body).await;
                assert_eq!(status, 200, "{rule}: {answer}");
                v = view(&app, ann, &id).await;
            }
            if rule == "void" {
                assert_ne!(v["end_pending"], true, "void has no window: {v}");
                if v["result"]["reason"] != "went_out" {
                    continue;
                }
                let out = v["result"]["seat"].as_u64().unwrap() as usize;
                assert_eq!(before_last["your_seat"].as_u64(), Some(out as u64));
                check_settlement(&v, out);
                closed = true;
                break;
            }
            if v["end_pending"] != true {
                eprintln!("{rule} {close:?}: game {attempt} ended {} without a window; another", v["result"]["reason"]);
                continue;
            }
            let out = v["challengeable"].as_u64().unwrap() as usize;
            let challenger = player_at(&v, &v["to_move"], players);
            let window = view(&app, challenger, &id).await;
            let scores: Vec<i64> = window["seats"].as_array().unwrap().iter().map(|s| s["score"].as_i64().unwrap()).collect();
            // Nothing else is taken in the window.
            let (status, refused) = submit(&app, challenger, &id, json!({"kind": "pass"})).await;
            assert_eq!((status, refused["error"]["code"].as_str()), (422, Some("challenge_window")), "{refused}");
            let end = match close {
                Close::Challenge => {
                    let (status, answer) = challenge(&app, challenger, &id).await;
                    assert_eq!(status, 200, "{rule}: {answer}");
                    answer["game"].clone()
                }
                Close::Accept => {
                    let (status, answer) = submit(&app, challenger, &id, json!({"kind": "accept"})).await;
                    assert_eq!(status, 200, "{rule}: {answer}");
                    answer["game"].clone()
                }
                Close::Expire => {
                    let flag = window["clock"]["flag_at"].as_str().unwrap().parse::<chrono::DateTime<chrono::Utc>>().unwrap();
                    clock.advance(flag - service::Clock::now(&*clock) + chrono::Duration::seconds(1));
                    view(&app, challenger, &id).await
                }
            };
            assert_eq!(
                (end["status"].as_str(), end["result"]["reason"].as_str()),
                (Some("finished"), Some("went_out")),
                "{rule} {close:?}: {end}"
            );
            assert_eq!(end["result"]["seat"].as_u64(), Some(out as u64));
            check_settlement(&end, out);
            let adjustments: Vec<i64> = end["result"]["adjustments"].as_array().unwrap().iter().map(|a| a.as_i64().unwrap()).collect();
            let finals: Vec<i64> = end["seats"].as_array().unwrap().iter().map(|s| s["score"].as_i64().unwrap()).collect();
            let bonus_to = |seat: usize| if seat == out { bonus } else { 0 };
            // A flag in the window: the challenger's clock ran into overtime, whose penalty counts.
            let penalty = |seat: usize| -> i64 {
                if close == Close::Expire && seat != out {
                    end["clock"]["seats"][seat]["overtime_penalty"].as_i64().unwrap_or(0)
                } else {
                    0
                }
            };
            for seat in 0..2 {
                assert_eq!(
                    finals[seat],
                    scores[seat] + bonus_to(seat) + adjustments[seat] - penalty(seat),
                    "{rule} {close:?} seat {seat}: {end}"
                );
            }
            let (_, moves) = app.call(Some(challenger), "GET", &format!("/games/{id}/moves?after=0"), "").await;
            let kinds: Vec<&str> = moves["moves"].as_array().unwrap().iter().filter_map(|m| m["kind"].as_str()).collect();
            assert!(kinds.contains(&entry), "{rule} {close:?}: no {entry} entry in {kinds:?}");
            let best = *finals.iter().max().unwrap();
            let winners: Vec<usize> = (0..2).filter(|&s| finals[s] == best).collect();
            assert_eq!(end["result"]["winners"], json!(winners), "{end}");
            closed = true;
            break;
        }
        assert!(closed, "{rule} {close:?}: no game reached its window in 4");
    }
}
