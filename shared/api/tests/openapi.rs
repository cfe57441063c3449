//! docs/openapi.yaml names exactly the routes the handlers serve, with the same methods; the
//! error codes docs/API.md lists and those the code can return agree, both ways.

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

#[test]
fn every_error_code_the_api_doc_lists_is_one_the_code_can_return() {
    let doc = include_str!("../../../docs/API.md");
    // The codes the rules refuse with, the service's (the push socket's among them) and the
    // HTTP layer's own.
    let known: BTreeSet<&str> = games::codes()
        .into_iter()
        .chain(service::ErrorCode::ALL.iter().map(|c| c.as_str()))
        .chain(api::HttpCode::ALL.iter().map(|c| c.as_str()))
        .collect();
    // The code column of the errors table (`| status | code | when |`, its second) and of the
    // rule rejections' tables (`| code | meaning | details |`, their first).
    let mut listed = BTreeSet::new();
    let mut column = None;
    for line in doc.lines() {
        let cells: Vec<&str> = line
            .trim()
            .strip_prefix('|')
            .and_then(|l| l.strip_suffix('|'))
            .map_or_else(Vec::new, |l| l.split('|').map(str::trim).collect());
        match cells.as_slice() {
            [] => column = None,
            ["status", "code", "when"] => column = Some(1),
            ["code", "meaning", "details"] => column = Some(0),
            _ => {
                if let Some(cell) = column.and_then(|c| cells.get(c)) {
                    // A backquoted code; a row such as "rule codes below" names none.
                    if let Some(code) = cell.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
                        listed.insert(code);
                    }
                }
            }
        }
    }
    assert!(listed.len() >= 50, "the tables were read: {listed:?}");
    let unknown: Vec<&&str> = listed.iter().filter(|c| !known.contains(**c)).collect();
    assert!(unknown.is_empty(), "docs/API.md lists codes the code never returns: {unknown:?}");
}

/// The rows of the first markdown table in `doc` whose header starts `| method | path |`: each
/// row's method and the path before any query or note (the first backquoted text).
fn route_rows(doc: &str) -> BTreeSet<(String, String)> {
    doc.lines()
        .skip_while(|l| !l.starts_with("| method | path |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .flat_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let method = cells[1].to_string();
            // `/` and `/web/{id}`: each backquoted path of the cell.
            cells[2]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|p| p.split('?').next().unwrap().trim_end_matches('/').to_string())
                .map(|p| if p.is_empty() { "/".to_string() } else { p })
                .map(move |p| (method.clone(), p))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_readme_and_the_api_doc_list_every_route() {
    for (name, doc) in [("README.md", include_str!("../../../README.md")), ("docs/API.md", include_str!("../../../docs/API.md"))] {
        let rows = route_rows(doc);
        for route in Route::ALL {
            let path = route.path().trim_end_matches('/');
            let path = if path.is_empty() { "/" } else { path };
            assert!(
                rows.contains(&(route.method().to_string(), path.to_string())),
                "{name}'s route table lacks {} {}",
                route.method(),
                path
            );
        }
    }
}
