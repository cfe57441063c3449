//! docs/openapi.yaml names exactly the routes the handlers serve, with the same methods.

use std::collections::BTreeSet;

use api::Route;

#[test]
fn the_openapi_document_matches_the_route_table() {
    let doc: serde_yaml::Value = serde_yaml::from_str(include_str!("../../../docs/openapi.yaml")).unwrap();
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_mapping().unwrap() {
        for (method, _) in item.as_mapping().unwrap() {
            documented.insert((method.as_str().unwrap().to_uppercase(), path.as_str().unwrap().to_string()));
        }
    }
    let served: BTreeSet<(String, String)> = Route::ALL.iter().map(|r| (r.method().to_string(), r.path().to_string())).collect();
    assert_eq!(documented, served);
}

#[test]
fn every_error_code_the_code_can_return_is_in_the_api_doc() {
    let doc = include_str!("../../../docs/API.md");
    let codes = engine::Rejection::CODES.iter().copied().chain([
        "malformed_json",
        "invalid_body",
        "invalid_game_id",
        "invalid_query",
        "unauthenticated",
        "not_your_game",
        "not_found",
        "no_route",
        "stale_move",
        "conflict",
        "body_too_large",
        "internal",
        "unknown_variant",
        "bad_opponents",
        "unknown_robot_level",
        "bad_turn_seconds",
        "robot_identity",
        "placeholder_identity",
        "account_not_found",
        "too_many_open_games",
        "idempotency_key_reused",
        "not_started",
        "game_withdrawn",
        "unavailable",
        "bad_cursor",
        "not_open",
        "already_seated",
        "forbidden",
    ]);
    for code in codes {
        assert!(doc.contains(&format!("`{code}`")), "docs/API.md does not list `{code}`");
    }
}
