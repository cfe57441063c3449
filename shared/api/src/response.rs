//! The JSON response every answer and every error is written as, the caching headers of an
//! answer that depends on the caller, and the `If-None-Match` comparison.

use http::header::{CACHE_CONTROL, HeaderMap, HeaderValue, IF_NONE_MATCH, VARY};
use lambda_http::{Body, Response};

/// A JSON response with `status`.
pub(crate) fn json_response(status: u16, body: &impl serde::Serialize) -> Response<Body> {
    let text = serde_json::to_string(body)
        .unwrap_or_else(|_| r#"{"error":{"code":"internal","message":"internal error","details":null}}"#.to_string());
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::Text(text))
        .expect("a static header and a valid status")
}

/// A plain-text answer (UTF-8) with `status`.
pub(crate) fn text_response(status: u16, text: String) -> Response<Body> {
    Response::builder()
        .status(status)
        .header("content-type", "text/plain; charset=utf-8")
        .body(Body::Text(text))
        .expect("a static header and a valid status")
}

/// Marks an answer that depends on who asks: no shared cache may keep it
/// (`Cache-Control: private`), the caller's own cache must revalidate it before each reuse
/// (`no-cache`, which is what makes its `ETag` useful), and it varies with the token that
/// names the caller (`Vary: Authorization`). A `Cache-Control` already set (the admin pages'
/// `no-store`) is kept.
pub(crate) fn per_caller(response: &mut Response<Body>) {
    let headers = response.headers_mut();
    headers.entry(CACHE_CONTROL).or_insert(HeaderValue::from_static("private, no-cache"));
    headers.append(VARY, HeaderValue::from_static("Authorization"));
}

/// Whether the request's `If-None-Match` matches `etag` as RFC 9110 §13.1.2 says: `*`
/// matches any current representation; otherwise any tag of the list (over one or more header
/// lines) matches by the weak comparison, so `W/"x"` matches `"x"`. Without the header, false.
pub(crate) fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    let ours = opaque(etag);
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || (!tag.is_empty() && opaque(tag) == ours))
}

/// An entity tag without its weakness indicator: `W/"x"` and `"x"` compare alike.
fn opaque(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
        }
        headers
    }

    #[test]
    fn a_weak_tag_matches_by_the_weak_comparison() {
        assert!(if_none_match(&asking(&[r#"W/"3-active-ab""#]), r#""3-active-ab""#));
        assert!(if_none_match(&asking(&[r#""3-active-ab""#]), r#"W/"3-active-ab""#));
        assert!(!if_none_match(&asking(&[r#"W/"3-active-ac""#]), r#""3-active-ab""#));
    }

    #[test]
    fn any_tag_of_a_list_or_of_several_lines_matches() {
        let ours = r#""2-active-ff""#;
        assert!(if_none_match(&asking(&[r#""1-active-aa", W/"2-active-ff""#]), ours));
        assert!(if_none_match(&asking(&[r#""1-active-aa""#, r#""2-active-ff""#]), ours));
        assert!(!if_none_match(&asking(&[r#""1-active-aa",,  "0-open-bb""#]), ours));
    }

    #[test]
    fn a_star_matches_and_no_header_does_not() {
        assert!(if_none_match(&asking(&["*"]), r#""0-open-00""#));
        assert!(!if_none_match(&HeaderMap::new(), r#""0-open-00""#));
        assert!(!if_none_match(&asking(&[r#""2-active-f""#]), r#""2-active-ff""#), "no prefix matching");
    }
}
