//! What is derived from the route table as text: the template's function rows
//! (`infra/routes.json`, which `infra/generate.py` reads), the route tables of README.md and
//! docs/API.md, and the API document's path skeleton with the shipped variant and family lists.

use std::fmt::Write;

use games::{Family, Variant};

use super::ROUTES;

/// The template's function rows as JSON, one function a line in the table's order:
/// `[logical id, binary, method, path (or the paths of a function serving several), memory MB,
/// timeout s, reserved concurrency, [rate, burst], authoriser]`.
pub fn sam_functions() -> String {
    let mut rows = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for spec in &ROUTES {
        if done.contains(&spec.function) {
            continue;
        }
        done.push(spec.function);
        let routes: Vec<_> = ROUTES.iter().filter(|s| s.function == spec.function).collect();
        // A function serving one route is named as the route; one serving several, as itself.
        let logical = if routes.len() == 1 { format!("{:?}", spec.route) } else { capitalised(spec.function) };
        let paths = if routes.len() == 1 {
            quoted(spec.path)
        } else {
            format!("[{}]", routes.iter().map(|s| quoted(s.path)).collect::<Vec<_>>().join(", "))
        };
        let l = spec.lambda;
        rows.push(format!(
            "  [{}, {}, {}, {paths}, {}, {}, {}, [{}, {}], {}]",
            quoted(&logical),
            quoted(spec.function),
            quoted(spec.method),
            l.memory_mb,
            l.timeout_s,
            l.reserved,
            l.rate,
            l.burst,
            quoted(spec.access.authoriser()),
        ));
    }
    format!("[\n{}\n]\n", rows.join(",\n"))
}

/// The route table of README.md and docs/API.md (markdown, between their `routes` markers).
pub fn route_table() -> String {
    let mut out = String::from("| method | path | function | what it does |\n|---|---|---|---|\n");
    for spec in &ROUTES {
        let _ = writeln!(out, "| {} | `{}{}` | {} | {} |", spec.method, spec.path, spec.query, spec.function, spec.summary);
    }
    out
}

/// The API document's skeleton: every path with its methods' operation ids, in the table's
/// order, and the variant and family lists its enums must equal (`x-variants`: every shipped
/// variant; `x-tile-variants`: those of the tile family, which tournaments play;
/// `x-families`).
pub fn openapi_paths() -> String {
    let mut out = String::from("paths:\n");
    let mut done: Vec<&str> = Vec::new();
    for spec in &ROUTES {
        if done.contains(&spec.path) {
            continue;
        }
        done.push(spec.path);
        let _ = writeln!(out, "  {}:", spec.path);
        for same in ROUTES.iter().filter(|s| s.path == spec.path) {
            let _ = writeln!(out, "    {}: {{ operationId: {} }}", same.method.to_lowercase(), same.operation);
        }
    }
    let ids =
        |keep: &dyn Fn(Variant) -> bool| Variant::SHIPPED.into_iter().filter(|v| keep(*v)).map(Variant::id).collect::<Vec<_>>().join(", ");
    let mut families: Vec<&str> = Vec::new();
    for v in Variant::SHIPPED {
        if !families.contains(&v.family().id()) {
            families.push(v.family().id());
        }
    }
    let _ = writeln!(out, "x-variants: [{}]", ids(&|_| true));
    let _ = writeln!(out, "x-tile-variants: [{}]", ids(&|v| v.family() == Family::TILE));
    let _ = writeln!(out, "x-families: [{}]", families.join(", "));
    out
}

/// `s` as a JSON string.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// `web` → `Web`.
fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_in_each_emitted_text() {
        let (sam, table, paths) = (sam_functions(), route_table(), openapi_paths());
        let rows: Vec<serde_json::Value> = serde_json::from_str(&sam).unwrap();
        assert_eq!(rows.len(), ROUTES.iter().map(|s| s.function).collect::<std::collections::BTreeSet<_>>().len());
        for spec in &ROUTES {
            assert!(sam.contains(&format!("\"{}\"", spec.function)), "{}", spec.function);
            assert!(table.contains(&format!("| {} | `{}{}` |", spec.method, spec.path, spec.query)), "{}", spec.path);
            assert!(paths.contains(&format!("{}: {{ operationId: {} }}", spec.method.to_lowercase(), spec.operation)));
        }
        assert!(paths.contains("x-variants: [scrabble-en, scrabble-ru, erudit, noi-tu]"), "{paths}");
        assert!(paths.contains("x-tile-variants: [scrabble-en, scrabble-ru, erudit]"), "{paths}");
        assert!(paths.contains("x-families: [tile, chain]"), "{paths}");
    }
}
