//! The hint route in the endgame, against a real PostgreSQL: once the bag is empty, hints rank
//! by the endgame value (a leave worth nothing, going out gains twice the opponent's rack), so
//! the top hint goes out whenever going out is worth most.

use crate::common::{App, Player};
use engine::TileVariant;
use serde_json::Value;

/// Points of the tiles in a view's `your_rack`.
fn rack_points(rack: &Value) -> i32 {
    let rules = TileVariant::ScrabbleEn.rules();
    rack.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().chars().next().unwrap())
        .map(|c| if c == '?' { 0 } else { rules.value(rules.letter(c).unwrap()) })
        .sum()
}

#[tokio::test]
async fn with_the_bag_empty_the_top_hint_goes_out_when_that_is_best() {
    let app = App::new().await;
    let (ann, bob) = (Player::new(), Player::new());
    app.create(bob, "scrabble-en", r#"[{"robot":"easy"}]"#).await;
    let game = app.create(ann, "scrabble-en", &format!(r#"[{{"account":"{}"}}]"#, bob.0)).await;
    let id = game["game_id"].as_str().unwrap().to_string();
    let ann_seat = game["your_seat"].as_u64().unwrap();
    let (mut endgame_turns, mut top_went_out) = (0, 0);
    for _ in 0..200 {
        let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
        if view["status"] == "finished" {
            break;
        }
        let (who, other) = if view["to_move"].as_u64() == Some(ann_seat) { (ann, bob) } else { (bob, ann) };
        let (_, mine) = app.call(Some(who), "GET", &format!("/games/{id}"), "").await;
        if mine["bag_size"] == 0 {
            endgame_turns += 1;
            let (_, theirs) = app.call(Some(other), "GET", &format!("/games/{id}"), "").await;
            let opponent = rack_points(&theirs["your_rack"]);
            let rack_len = mine["your_rack"].as_array().unwrap().len();
            let (status, hints) = app.call(Some(who), "GET", &format!("/games/{id}/hint?limit=20"), "").await;
            assert_eq!(status, 200, "{hints}");
            let hints = hints["hints"].as_array().unwrap();
            let goes_out = |h: &Value| h["placements"].as_array().unwrap().len() == rack_len;
            for h in hints {
                let score = h["score"].as_i64().unwrap() as i32;
                let equity = h["equity"].as_i64().unwrap() as i32;
                if goes_out(h) {
                    assert_eq!(equity, 1000 * (score + 2 * opponent), "going out gains twice the opponent's rack: {h}");
                } else {
                    assert!(equity <= 1000 * score, "a leave is worth nothing, and what is kept costs: {h}");
                }
            }
            assert!(hints.windows(2).all(|w| w[0]["equity"].as_i64() >= w[1]["equity"].as_i64()), "ranked by the endgame value");
            let best_out = hints.iter().filter(|h| goes_out(h)).map(|h| h["equity"].as_i64().unwrap()).max();
            let best_kept = hints.iter().filter(|h| !goes_out(h)).map(|h| h["equity"].as_i64().unwrap()).max();
            if best_out.is_some() && best_out > best_kept {
                assert!(goes_out(&hints[0]), "{}", hints[0]);
                top_went_out += 1;
            }
        }
        let body = app.best_move(who, &id).await;
        let (status, outcome) = app.call(Some(who), "POST", &format!("/games/{id}/moves"), &body).await;
        assert_eq!(status, 200, "{outcome}");
    }
    let (_, view) = app.call(Some(ann), "GET", &format!("/games/{id}"), "").await;
    assert_eq!(view["status"], "finished", "{view}");
    assert!(endgame_turns >= 1 && top_went_out >= 1, "{endgame_turns} endgame turns, {top_went_out} with the top hint going out");
}
