//! Tournament entry by consent: players enter an announced tournament themselves and may take
//! the entry back before it starts (refused after, typed); a director's registration is an
//! invitation the player accepts or declines; an invitation not accepted is never paired; nobody
//! enters, accepts or declines for another; every refusal writes nothing.

use crate::common::{App, Player};
use crate::tournaments::{count, direct, directing, players};
use serde_json::{Value, json};

/// A new tournament directed by `director` with nobody in it: its id.
async fn announced(app: &App, director: Player) -> String {
    let body = json!({"name": "Open night", "variant": "scrabble-en", "pairing": "swiss", "rounds": 3}).to_string();
    direct(app, director, "POST", "/tournaments", &body, 201).await["tournament_id"].as_str().unwrap().to_string()
}

/// `who`'s call expected to answer `status` (and, for a refusal, `code`).
async fn expect(app: &App, who: Player, path: &str, body: &str, status: u16, code: Option<&str>) -> Value {
    let (got, answer) = app.call(Some(who), "POST", path, body).await;
    assert_eq!((got, answer["error"]["code"].as_str()), (status, code), "{path}: {answer}");
    answer
}

/// Every entry-related row, to show that a refusal writes nothing.
async fn rows(app: &App) -> (i64, i64, i64) {
    (
        count(app, "tournament_players").await,
        count(app, "tournament_players WHERE withdrawn").await,
        count(app, "tournament_invitations WHERE state = 'invited'").await + 100 * count(app, "tournament_invitations").await,
    )
}

fn player_ids(t: &Value) -> Vec<String> {
    t["players"].as_array().unwrap().iter().map(|p| p["account_id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn players_enter_an_announced_tournament_themselves_and_may_withdraw_until_it_starts() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 3).await;
    let id = announced(&app, director).await;
    let (enter, leave) = (format!("/tournaments/{id}/enter"), format!("/tournaments/{id}/leave"));
    // The tournament's page offers entry to anyone signed in.
    let (_, t) = app.call(Some(field[0]), "GET", &format!("/tournaments/{id}"), "").await;
    assert_eq!((t["entries_open"].as_bool(), t["your_entry"].is_null()), (Some(true), true), "{t}");
    for p in &field {
        let t = expect(&app, *p, &enter, "", 200, None).await;
        assert_eq!(t["your_entry"], "entered", "{t}");
    }
    // Entering twice is refused, typed, nothing written.
    let before = rows(&app).await;
    expect(&app, field[0], &enter, "", 409, Some("already_registered")).await;
    assert_eq!(rows(&app).await, before);
    // Taking the entry back before the start, then entering again, is the player's choice.
    let t = expect(&app, field[2], &leave, "", 200, None).await;
    assert_eq!((t["your_entry"].as_str(), t["players"][2]["withdrawn"].as_bool()), (Some("withdrawn"), Some(true)), "{t}");
    let t = expect(&app, field[2], &enter, "{}", 200, None).await;
    assert_eq!((t["your_entry"].as_str(), t["players"][2]["withdrawn"].as_bool()), (Some("entered"), Some(false)), "{t}");
    expect(&app, field[2], &leave, "", 200, None).await;
    // Round 1 pairs the two entered players only; then entries are closed.
    let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
    let table = &t["pairings"][0]["tables"][0];
    assert_eq!((table["first"].as_u64().unwrap().min(table["second"].as_u64().unwrap()), t["entries_open"].as_bool()), (1, Some(false)));
    assert_eq!(t["pairings"][0]["tables"].as_array().unwrap().len(), 1, "{t}");
    let before = rows(&app).await;
    expect(&app, field[0], &leave, "", 409, Some("tournament_started")).await;
    expect(&app, field[2], &enter, "", 409, Some("tournament_started")).await;
    let stranger = players(&app, 1).await[0];
    expect(&app, stranger, &enter, "", 409, Some("tournament_started")).await;
    expect(&app, stranger, &leave, "", 409, Some("not_registered")).await;
    assert_eq!(rows(&app).await, before, "refusals write nothing");
    // Once started, a player leaves by withdrawing (their results kept).
    let t = expect(&app, field[0], &format!("/tournaments/{id}/withdraw"), &json!({"account_id": field[0].0}).to_string(), 200, None).await;
    assert_eq!(t["your_entry"], "withdrawn", "{t}");
}

#[tokio::test]
async fn a_directors_registration_is_an_invitation_paired_only_once_accepted() {
    let app = App::new().await;
    let director = Player::new();
    let field = players(&app, 4).await;
    let id = announced(&app, director).await;
    let invite = |p: Player| json!({"account_id": p.0}).to_string();
    for p in &field {
        let t = direct(&app, director, "POST", &format!("/tournaments/{id}/players"), &invite(*p), 200).await;
        assert!(player_ids(&t).is_empty(), "an invitation enters nobody: {t}");
    }
    let t = direct(&app, director, "GET", &format!("/tournaments/{id}"), "", 200).await;
    assert_eq!(t["invitations"].as_array().unwrap().len(), 4, "the director sees the invitations: {t}");
    let (_, seen) = app.call(Some(field[0]), "GET", &format!("/tournaments/{id}"), "").await;
    assert_eq!((seen["your_entry"].as_str(), seen["invitations"].as_array().unwrap().len()), (Some("invited"), 0), "{seen}");
    // The invitation is on the player's list of their tournaments.
    let (_, mine) = app.call(Some(field[0]), "GET", "/tournaments?mine=true", "").await;
    assert_eq!(mine["tournaments"][0]["tournament_id"], id.as_str(), "{mine}");
    // Nobody accepts or declines for another: not a stranger, not the director; nothing written.
    let before = rows(&app).await;
    for path in ["enter", "leave"] {
        let path = format!("/tournaments/{id}/{path}");
        expect(&app, field[3], &path, &invite(field[0]), 403, Some("not_your_entry")).await;
        let (status, refused) = directing(&app, director, "POST", &path, &invite(field[0])).await;
        assert_eq!((status, refused["error"]["code"].as_str()), (403, Some("not_your_entry")), "{refused}");
    }
    assert_eq!(rows(&app).await, before, "refusals write nothing");
    // Two accept (one naming themselves), one declines, one never answers.
    expect(&app, field[0], &format!("/tournaments/{id}/enter"), "", 200, None).await;
    expect(&app, field[1], &format!("/tournaments/{id}/enter"), &invite(field[1]), 200, None).await;
    let t = expect(&app, field[2], &format!("/tournaments/{id}/leave"), "", 200, None).await;
    assert_eq!(t["your_entry"], "declined", "{t}");
    // Inviting one in again is refused; one who declined may be asked again.
    let (status, refused) = directing(&app, director, "POST", &format!("/tournaments/{id}/players"), &invite(field[3])).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (409, Some("already_registered")), "{refused}");
    let t = direct(&app, director, "POST", &format!("/tournaments/{id}/players"), &invite(field[2]), 200).await;
    let states: Vec<&str> = t["invitations"].as_array().unwrap().iter().map(|i| i["state"].as_str().unwrap()).collect();
    assert_eq!(states.iter().filter(|s| **s == "invited").count(), 2, "{t}");
    // Round 1 pairs the two who accepted; the two who did not are nowhere in it.
    let t = direct(&app, director, "POST", &format!("/tournaments/{id}/rounds"), "", 200).await;
    let accepted = vec![field[0].0.to_string(), field[1].0.to_string()];
    assert_eq!(player_ids(&t), accepted, "{t}");
    let tables = t["pairings"][0]["tables"].as_array().unwrap();
    assert_eq!((tables.len(), tables[0]["second"].is_null()), (1, false), "{t}");
    // An invitation accepted late enters a running tournament (no results yet); it is paired
    // from the next round on.
    let t = expect(&app, field[3], &format!("/tournaments/{id}/enter"), "", 200, None).await;
    assert_eq!((t["your_entry"].as_str(), player_ids(&t).len()), (Some("entered"), 3), "{t}");
    let (_, seen) = app.call(Some(field[2]), "GET", &format!("/tournaments/{id}"), "").await;
    assert_eq!(seen["your_entry"], "invited", "{seen}");
}
