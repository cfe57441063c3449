//! The post-game analysis through the API: refused while the game is on (nothing about a
//! position in play leaks), computed once for a finished game of either family and served from
//! storage after, the same on every computation, for its players only.

use crate::common::{App, Player};
use serde_json::{Value, json};

/// A game of `variant` between `ann` and the medium robot, played to its end with ann's best
/// moves; its id.
async fn finished(app: &App, ann: Player, variant: &str) -> String {
    let game = app.create(ann, variant, r#"[{"robot":"medium"}]"#).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    // Before the end: refused, typed, for the player and for anyone else alike.
    let (status, refused) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("not_finished")), "{refused}");
    for _ in 0..200 {
        let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
        if view["status"] == "finished" {
            return id;
        }
        let body = if variant == "noi-tu" {
            // The best word while the game's hints last, then one from the dictionary.
            let (_, hints) = app.call(Some(ann), "GET", &format!("/games/{id}/hint?limit=1"), "").await;
            let word = match hints["hints"].get(0) {
                Some(h) => h["word"].clone(),
                None => crate::common::chain_word(&view).map_or(Value::Null, Value::from),
            };
            json!({"expected_move_no": view["move_count"], "move": {"kind": "word", "word": word}}).to_string()
        } else {
            app.best_move(ann, &id).await
        };
        let (status, answer) = app.call(Some(ann), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{answer}");
    }
    panic!("game {id} did not end");
}

/// `m` names a tile move: its kind; a play its coordinate, main word and score; an exchange its
/// count; a pass and an exchange score nothing.
fn assert_named(m: &Value, what: &str) {
    match m["kind"].as_str() {
        Some("play") => {
            assert!(m["coord"].as_str().is_some_and(|c| !c.is_empty()) && m["word"].as_str().is_some_and(|w| !w.is_empty()), "{what}: {m}");
            assert!(m["score"].is_i64(), "{what}: {m}");
        }
        Some("exchange") => assert!(m["count"].as_u64().is_some_and(|n| n > 0) && m["score"] == 0, "{what}: {m}"),
        Some("pass") => assert_eq!(m["score"], 0, "{what}: {m}"),
        _ => panic!("{what}: {m}"),
    }
}

async fn stored(app: &App) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM game_analyses").fetch_one(app.pool()).await.unwrap()
}

#[tokio::test]
async fn a_finished_tile_game_is_analysed_once_the_same_every_time_and_for_its_players_only() {
    let app = App::new().await;
    let ann = Player::new();
    let id = finished(&app, ann, "scrabble-en").await;
    assert_eq!(stored(&app).await, 0, "nothing computed before it was asked for");
    let (status, other) = app.call(Some(Player::new()), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!((status, other["error"]["code"].as_str()), (403, Some("not_your_game")), "{other}");
    let (status, a) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!(status, 200, "{a}");
    assert_eq!((a["family"].as_str(), a["game_id"].as_str()), (Some("tile"), Some(id.as_str())));
    let moves = a["moves"].as_array().unwrap();
    let (_, history) = app.call(Some(ann), "GET", &format!("/games/{id}/moves"), "").await;
    let reviewable =
        history["moves"].as_array().unwrap().iter().filter(|m| ["play", "pass", "exchange"].contains(&m["kind"].as_str().unwrap())).count();
    assert_eq!(moves.len(), reviewable, "every play, pass and exchange");
    let entries = history["moves"].as_array().unwrap();
    for m in moves {
        let lost = m["equity_lost"].as_f64().unwrap();
        assert!(lost >= 0.0, "{m}");
        let (played_equity, best_equity) = (m["played_equity"].as_f64().unwrap(), m["best_equity"].as_f64().unwrap());
        assert!((lost - (best_equity - played_equity).max(0.0)).abs() < 0.01, "{m}");
        assert_eq!(m["best_kind"] == "play", m["best_play"].is_object(), "{m}");
        // Each row names both moves; as good exactly when the move made held at least the
        // suggestion's equity, as shown, and then nothing was lost.
        assert_eq!(m["played_as_good"], json!(played_equity >= best_equity), "{m}");
        assert_eq!(m["played_as_good"], json!(lost == 0.0), "{m}");
        let entry = entries.iter().find(|e| e["move_no"] == m["move_no"]).expect("the move in the history");
        assert_named(&m["played"], "the move played");
        assert_eq!((&m["played"]["kind"], &m["played"]["score"]), (&entry["kind"], &entry["score"]), "{m} {entry}");
        if entry["kind"] == "exchange" {
            assert_eq!(m["played"]["count"], entry["count"], "{m} {entry}");
        }
        assert_named(&m["suggested"], "the suggestion");
        assert_eq!(m["suggested"]["kind"], m["best_kind"], "{m}");
        match m["best_kind"].as_str() {
            Some("play") => {
                let p = &m["best_play"];
                assert_eq!(
                    (&m["suggested"]["coord"], &m["suggested"]["word"], &m["suggested"]["score"]),
                    (&p["coord"], &p["word"], &p["score"]),
                    "{m}"
                );
            }
            Some("exchange") => assert_eq!(m["suggested"]["count"], json!(m["best_exchange"].as_array().unwrap().len()), "{m}"),
            _ => assert_eq!(m["suggested"]["score"], 0, "{m}"),
        }
    }
    // A play's row spells the main word its history records (`.` for a tile already down).
    for m in moves.iter().filter(|m| m["played"]["kind"] == "play") {
        let entry = entries.iter().find(|e| e["move_no"] == m["move_no"]).unwrap();
        let main = entry["words"].as_array().unwrap().iter().find(|w| w["main"] == true).unwrap_or(&entry["words"][0]);
        let (shown, recorded) = (m["played"]["word"].as_str().unwrap(), main["word"].as_str().unwrap());
        assert_eq!(shown.chars().count(), recorded.chars().count(), "{m} {entry}");
        assert!(shown.chars().zip(recorded.chars()).all(|(a, b)| a == '.' || a.to_uppercase().eq(b.to_uppercase())), "{m} {entry}");
    }
    // The medium robot and ann's best-by-equity moves: the hard level agrees with many.
    assert!(moves.iter().any(|m| m["equity_lost"] == 0.0), "{a}");
    let players = a["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    let counted: u64 = players.iter().map(|p| p["moves"].as_u64().unwrap()).sum();
    assert_eq!(counted as usize, moves.len());
    // Stored once; read again, the same answer; computed again from nothing, the same analysis.
    assert_eq!(stored(&app).await, 1);
    let (_, again) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!(again, a);
    sqlx::query("DELETE FROM game_analyses").execute(app.pool()).await.unwrap();
    let (_, fresh) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!(fresh, a, "deterministic: the same seeds and budgets");
    // An analysis stored by an older version (rows without the moves named) is computed again.
    let mut old = a.clone();
    for m in old["moves"].as_array_mut().unwrap() {
        for field in ["played", "suggested", "played_as_good"] {
            m.as_object_mut().unwrap().remove(field);
        }
    }
    old["version"] = json!(1);
    sqlx::query("UPDATE game_analyses SET version = 1, analysis = $1::jsonb").bind(old.to_string()).execute(app.pool()).await.unwrap();
    let (_, renewed) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!(renewed, a, "an older version's analysis is not served");
    assert_eq!(a["version"], 3, "{a}");
    assert_eq!(a["judge"], json!({"level": "hard", "rounds": 8}), "the analysis says who judged its moves");
    // The admin replay shows it beside the log.
    let (status, _, page) = app.raw(Some(Player::new()), true, "GET", &format!("/_gm/games/{id}"), "").await;
    assert_eq!(status, 200);
    let section = page.split("<ol id=\"analysis\">").nth(1).expect("the analysis section").split("</ol>").next().unwrap();
    assert_eq!(section.matches("<li>").count(), moves.len(), "{section}");
    let ms: i32 = sqlx::query_scalar("SELECT computed_ms FROM game_analyses").fetch_one(app.pool()).await.unwrap();
    eprintln!("analysis of a {}-move game: {ms} ms", moves.len());
}

#[tokio::test]
async fn a_finished_chain_game_says_where_a_winning_word_existed() {
    let app = App::new().await;
    let ann = Player::new();
    let id = finished(&app, ann, "noi-tu").await;
    let (status, a) = app.call(Some(ann), "GET", &format!("/games/{id}/analysis"), "").await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["family"], "chain");
    assert_eq!(a["judge"], json!({"level": "hard", "nodes": 20_000}), "the analysis says who judged its words");
    let words = a["words"].as_array().unwrap();
    assert!(!words.is_empty());
    for w in words {
        // A word that wins needs no other; one that does not may name one that would have.
        assert!(w["wins"] != true || w["winning_word"].is_null(), "{w}");
    }
    // A game whose last word left the loser without an answer: that word won (a robot with no
    // familiar word concedes instead, and then it need not have).
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    let last = words.last().unwrap();
    if view["result"]["reason"] == "no_legal_move" {
        assert_eq!(last["wins"], true, "{a}");
    } else {
        assert_eq!(view["result"]["reason"], "resigned", "{view}");
    }
    let summary: Vec<Value> = a["players"].as_array().unwrap().clone();
    assert!(summary.iter().all(|p| p["missed_wins"].is_u64()), "{summary:?}");
    assert_eq!(json!(words.len()), json!(summary.iter().map(|p| p["moves"].as_u64().unwrap()).sum::<u64>()));
}
