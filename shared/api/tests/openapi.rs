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
    let codes = games::codes()
        .into_iter()
        .chain(service::ErrorCode::ALL.iter().map(|c| c.as_str()))
        .chain(api::HttpCode::ALL.iter().map(|c| c.as_str()));
    for code in codes {
        assert!(doc.contains(&format!("`{code}`")), "docs/API.md does not list `{code}`");
    }
}
