//! A check of real answers against docs/openapi.yaml: the response the document gives for the
//! route's method, path and status, and a validator of the JSON Schema subset the document uses
//! (type, nullable, enum, required, properties, additionalProperties: false, items, oneOf,
//! anyOf, allOf, $ref, minimum/maximum, min/maxItems, min/maxLength, format uuid and date-time).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

/// The document, as JSON.
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let yaml: serde_yaml::Value = serde_yaml::from_str(include_str!("../../../../docs/openapi.yaml")).unwrap();
        serde_json::to_value(yaml).unwrap()
    })
}

fn resolve<'a>(doc: &'a Value, node: &'a Value) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let target = r.strip_prefix("#/").unwrap_or_else(|| panic!("only local refs: {r}"));
            let found = target.split('/').fold(doc, |at, key| &at[key]);
            assert!(!found.is_null(), "dangling $ref {r}");
            resolve(doc, found)
        }
        None => node,
    }
}

thread_local! {
    static CHECKED: std::cell::RefCell<BTreeSet<(String, String, u16)>> = std::cell::RefCell::default();
}

/// Every (method, path, status) checked so far on this thread: by the test running on it, as
/// each test has a thread of its own and a `#[tokio::test]` runs its handlers there.
pub fn checked() -> BTreeSet<(String, String, u16)> {
    CHECKED.with(|c| c.borrow().clone())
}

/// Checks one answer of `method path` (the route's template) with `status` and `body`
/// against the document; the failure names the route, the status and where it differs.
pub fn check_response(method: &str, path: &str, status: u16, content_type: &str, body: &str) -> Result<(), String> {
    let doc = document();
    let operation = &doc["paths"][path][method.to_ascii_lowercase()];
    if operation.is_null() {
        return Err(format!("{method} {path} is not in docs/openapi.yaml"));
    }
    let response = &operation["responses"][status.to_string()];
    if response.is_null() {
        return Err(format!("{method} {path}: status {status} is not documented"));
    }
    CHECKED.with(|c| c.borrow_mut().insert((method.to_string(), path.to_string(), status)));
    let response = resolve(doc, response);
    let content = &response["content"];
    if content.is_null() {
        return if body.is_empty() { Ok(()) } else { Err(format!("{method} {path} {status}: a body where the document has none")) };
    }
    let Some(schema) = content.get(content_type.split(';').next().unwrap_or_default().trim()).map(|c| &c["schema"]) else {
        return Err(format!("{method} {path} {status}: content type {content_type:?} is not documented"));
    };
    if !content_type.starts_with("application/json") {
        return Ok(());
    }
    let value: Value = serde_json::from_str(body).map_err(|e| format!("{method} {path} {status}: not JSON: {e}"))?;
    validate(doc, schema, &value, "$").map_err(|e| format!("{method} {path} {status}: {e}\n{value}"))
}

/// Validates `value` at `at` against `schema`.
pub fn validate(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let schema = resolve(doc, schema);
    if value.is_null() {
        let typed = schema.get("type").is_some() || schema.get("oneOf").is_some() || schema.get("allOf").is_some();
        return if schema["nullable"] == true || !typed { Ok(()) } else { Err(format!("{at}: null where the schema is not nullable")) };
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for s in all {
            validate(doc, s, value, at)?;
        }
    }
    if let Some(one) = schema.get("oneOf").and_then(Value::as_array) {
        let matched = one.iter().filter(|s| validate(doc, s, value, at).is_ok()).count();
        if matched != 1 {
            return Err(format!("{at}: matches {matched} of oneOf's {} schemas", one.len()));
        }
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array)
        && !any.iter().any(|s| validate(doc, s, value, at).is_ok())
    {
        return Err(format!("{at}: matches none of anyOf"));
    }
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        let ok = match ty {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            other => return Err(format!("{at}: the validator does not know type {other}")),
        };
        if !ok {
            return Err(format!("{at}: {value} is not of type {ty}"));
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(value)
    {
        return Err(format!("{at}: {value} is none of {options:?}"));
    }
    if let Some(n) = value.as_f64()
        && outside(schema, "minimum", "maximum", n)
    {
        return Err(format!("{at}: {n} out of range"));
    }
    if let Some(s) = value.as_str() {
        let chars = s.chars().count() as u64;
        if outside(schema, "minLength", "maxLength", chars as f64) {
            return Err(format!("{at}: length {chars} out of range"));
        }
        match schema.get("format").and_then(Value::as_str) {
            Some("uuid") if uuid::Uuid::parse_str(s).is_err() => return Err(format!("{at}: {s:?} is not a uuid")),
            Some("date-time") if chrono::DateTime::parse_from_rfc3339(s).is_err() => return Err(format!("{at}: {s:?} is not a date-time")),
            _ => {}
        }
    }
    if let Some(items) = value.as_array() {
        let n = items.len() as u64;
        if outside(schema, "minItems", "maxItems", n as f64) {
            return Err(format!("{at}: {n} items out of range"));
        }
        if let Some(item) = schema.get("items") {
            for (i, v) in items.iter().enumerate() {
                validate(doc, item, v, &format!("{at}[{i}]"))?;
            }
        }
    }
    if let Some(object) = value.as_object() {
        for key in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if !object.contains_key(key) {
                return Err(format!("{at}: required field {key:?} missing"));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (key, v) in object {
            match properties.and_then(|p| p.get(key)) {
                Some(s) => validate(doc, s, v, &format!("{at}.{key}"))?,
                None if schema["additionalProperties"] == false => return Err(format!("{at}: field {key:?} is not in the schema")),
                None => {}
            }
        }
    }
    Ok(())
}

/// Whether `n` is below the schema's `lo` keyword or above its `hi` keyword.
fn outside(schema: &Value, lo: &str, hi: &str, n: f64) -> bool {
    schema.get(lo).and_then(Value::as_f64).is_some_and(|m| n < m) || schema.get(hi).and_then(Value::as_f64).is_some_and(|m| n > m)
}
