//! How a time is written where a client reads it: RFC 3339 in UTC with exactly three decimals
//! and `Z` (`2025-01-02T03:04:05.678Z`). chrono's own serde writes as many decimals as the value
//! has (none, 3, 6 or 9), so a deadline computed in nanoseconds and one read back in
//! microseconds would look different; a fixed width also sorts as text.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serializer;

/// `at` as RFC 3339, milliseconds, `Z`.
pub fn text(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Serializes a time as [`text`]; for `#[serde(serialize_with = "store::timestamp::millis")]`.
///
/// # Errors
/// Only the serializer's own.
pub fn millis<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&text(at))
}

/// Serializes an optional time as [`text`], or null; for
/// `#[serde(serialize_with = "store::timestamp::millis_opt")]`.
///
/// # Errors
/// Only the serializer's own.
pub fn millis_opt<S: Serializer>(at: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => millis(at, s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_precision_is_written_with_three_decimals() {
        for (nanos, written) in [
            (0, "2025-01-02T03:04:05.000Z"),
            (678_000_000, "2025-01-02T03:04:05.678Z"),
            (678_901_000, "2025-01-02T03:04:05.678Z"),
            (678_901_234, "2025-01-02T03:04:05.678Z"),
        ] {
            let at = DateTime::from_timestamp(1_735_787_045, nanos).unwrap();
            assert_eq!(text(&at), written);
            let mut out = Vec::new();
            millis_opt(&Some(at), &mut serde_json::Serializer::new(&mut out)).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), format!("\"{written}\""));
        }
        let mut out = Vec::new();
        millis_opt(&None, &mut serde_json::Serializer::new(&mut out)).unwrap();
        assert_eq!(out, b"null");
    }
}
