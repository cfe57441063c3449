//! The public, unchanging reads, served by one function (`web`) with no identity and no
//! database: the player web app (`GET /`, its files under `GET /web/{id}`) and the variants'
//! tables (`GET /variants`). The app's files are compiled in from the repository's `web/`
//! folder, so what a build serves is what it was built with, in the local gateway and in
//! Lambda alike.
//!
//! The app learns how to sign in from `GET /web/config.json`: in AWS the user pool's hosted UI
//! (`WORDGAME_WEB_SIGNIN_DOMAIN`, `WORDGAME_WEB_CLIENT_ID`) and the WebSocket API's URL
//! (`WORDGAME_WEB_PUSH_URL`); without them (the local gateway) `{"sign_in": "local"}`, and the
//! app offers the development accounts of `wordgame serve`'s local-only `/_dev/*` routes.

use lambda_http::{Body, Request, RequestExt, Response};
use serde::Serialize;

use crate::{ApiError, HttpCode, Route};

/// One file of the app: its name under `/web/`, its media type and its bytes.
struct Asset {
    name: &'static str,
    media_type: &'static str,
    text: &'static str,
}

/// The app's page, served at `/`.
const INDEX: &str = include_str!("../../../web/index.html");

/// The media type of the app's modules.
const JS: &str = "text/javascript; charset=utf-8";

/// The app's files under `/web/`.
const ASSETS: [Asset; 11] = [
    Asset { name: "app.js", media_type: JS, text: include_str!("../../../web/app.js") },
    Asset { name: "core.js", media_type: JS, text: include_str!("../../../web/core.js") },
    Asset { name: "game.js", media_type: JS, text: include_str!("../../../web/game.js") },
    Asset { name: "tile.js", media_type: JS, text: include_str!("../../../web/tile.js") },
    Asset { name: "chain.js", media_type: JS, text: include_str!("../../../web/chain.js") },
    Asset { name: "clock.js", media_type: JS, text: include_str!("../../../web/clock.js") },
    Asset { name: "families.js", media_type: JS, text: include_str!("../../../web/families.js") },
    Asset { name: "ratings.js", media_type: JS, text: include_str!("../../../web/ratings.js") },
    Asset { name: "tournaments.js", media_type: JS, text: include_str!("../../../web/tournaments.js") },
    Asset { name: "i18n.js", media_type: JS, text: include_str!("../../../web/i18n.js") },
    Asset { name: "app.css", media_type: "text/css; charset=utf-8", text: include_str!("../../../web/app.css") },
];

/// How the app signs a player in, as `GET /web/config.json` tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "sign_in", rename_all = "snake_case")]
pub enum WebConfig {
    /// The local gateway: the development accounts (`GET /_dev/accounts`, `POST /_dev/token`).
    Local,
    /// The user pool's hosted UI, authorization code with PKCE, in the browser.
    HostedUi {
        /// The hosted UI's origin, `https://…`.
        domain: String,
        /// The public app client's id (no secret).
        client_id: String,
        /// The WebSocket API's URL (`wss://…/live`), or null when push is off.
        push_url: Option<String>,
    },
}

impl WebConfig {
    /// The configuration from the environment: the hosted UI when both its variables are set.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> WebConfig {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        match (get("WORDGAME_WEB_SIGNIN_DOMAIN"), get("WORDGAME_WEB_CLIENT_ID")) {
            (Some(domain), Some(client_id)) => WebConfig::HostedUi { domain, client_id, push_url: get("WORDGAME_WEB_PUSH_URL") },
            _ => WebConfig::Local,
        }
    }

    /// The origins the page may connect to besides its own: the push socket's and the hosted
    /// UI's (its token endpoint).
    fn connect_sources(&self) -> String {
        match self {
            WebConfig::Local => String::new(),
            WebConfig::HostedUi { domain, push_url, .. } => {
                let origin = |url: &str| url.split('/').take(3).collect::<Vec<_>>().join("/");
                let mut sources = vec![origin(domain)];
                sources.extend(push_url.as_deref().map(origin));
                format!(" {}", sources.join(" "))
            }
        }
    }
}

/// The page's Content-Security-Policy: its own script and style files only, no inline code,
/// connections to its own origin (the API and, locally, the push socket) and `extra`.
fn page_policy(extra: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'{extra}; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
}

/// A public answer: `body` as `media_type`, cacheable for `max_age` seconds (revalidated after).
fn public(media_type: &str, body: String, max_age: u32) -> Response<Body> {
    Response::builder()
        .status(200)
        .header("content-type", media_type)
        .header("cache-control", format!("public, max-age={max_age}"))
        .header("x-content-type-options", "nosniff")
        .body(Body::Text(body))
        .expect("static headers")
}

/// The answer of a public read `route` (the web app, its files, the variants).
///
/// # Errors
/// 404 `no_route` for a file the app does not have.
pub fn answer(route: Route, req: &Request, config: &WebConfig) -> Result<Response<Body>, ApiError> {
    match route {
        Route::WebApp => {
            let mut page = public("text/html; charset=utf-8", INDEX.to_string(), 0);
            let headers = page.headers_mut();
            headers.insert("content-security-policy", page_policy(&config.connect_sources()).parse().expect("ASCII"));
            headers.insert("referrer-policy", "no-referrer".parse().expect("ASCII"));
            headers.insert("x-frame-options", "DENY".parse().expect("ASCII"));
            Ok(page)
        }
        Route::Variants => {
            let body = serde_json::json!({ "variants": games::catalog(), "families": games::families() });
            Ok(public("application/json", body.to_string(), 3600))
        }
        _ => {
            let name = req.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
            if name == "config.json" {
                let body = serde_json::to_string(config).expect("a config serializes");
                return Ok(public("application/json", body, 0));
            }
            let asset = ASSETS
                .iter()
                .find(|a| a.name == name)
                .ok_or_else(|| ApiError::new(HttpCode::NoRoute, format!("the web app has no file {name:?}")))?;
            // No build step fingerprints the names: a short cache, then a revalidation.
            Ok(public(asset.media_type, asset.text.to_string(), 300))
        }
    }
}

/// Serves the `web` function's routes in the Lambda runtime: no database, no identity, the
/// configuration read once at cold start.
///
/// # Errors
/// The runtime's.
pub async fn run() -> Result<(), lambda_http::Error> {
    crate::telemetry::init_json();
    let config = WebConfig::from_env(|name| std::env::var(name).ok());
    let config = &config;
    lambda_http::run(lambda_http::service_fn(move |req: Request| async move {
        let request_id = crate::telemetry::request_id(&req);
        let route = Route::find(req.method().as_str(), req.uri().path()).map(|(r, _)| r).filter(|r| r.function() == "web");
        let mut response = match route {
            Some(route) => answer(route, &req, config).unwrap_or_else(|e| e.response(&request_id)),
            None => ApiError::new(HttpCode::NoRoute, "not a route of the web function").response(&request_id),
        };
        crate::telemetry::answer_headers(response.headers_mut(), &request_id);
        Ok::<_, std::convert::Infallible>(response)
    }))
    .await
}

/// The bytes of every file the app loads, for the size budget's test: the page and its files.
pub fn asset_texts() -> Vec<(&'static str, &'static str)> {
    std::iter::once(("index.html", INDEX)).chain(ASSETS.iter().map(|a| (a.name, a.text))).collect()
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// The budget for everything the app loads, compressed.
    const MAX_COMPRESSED: usize = 150 * 1024;

    #[test]
    fn the_app_is_small_and_names_no_other_host() {
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        for (name, text) in asset_texts() {
            gzip.write_all(text.as_bytes()).unwrap();
            // Nothing is fetched from elsewhere: every URL the app uses is its own origin's or
            // the configuration's (the hosted UI, the push socket).
            assert!(!text.contains("http://") && !text.contains("https://") && !text.contains("wss://"), "{name} names a host");
        }
        let compressed = gzip.finish().unwrap().len();
        assert!(compressed <= MAX_COMPRESSED, "the web app is {compressed} bytes compressed, over {MAX_COMPRESSED}");
    }

    #[test]
    fn the_page_loads_each_file_the_app_serves() {
        // A family's client module is loaded by the name GET /variants gives it.
        let modules: Vec<String> = games::families().into_iter().map(|f| f.module).collect();
        for asset in &ASSETS {
            let referenced = INDEX.contains(&format!("/web/{}", asset.name))
                || ASSETS.iter().any(|a| a.text.contains(&format!("./{}", asset.name)))
                || modules.iter().any(|m| m == asset.name);
            assert!(referenced, "{} is served but nothing loads it", asset.name);
        }
    }

    #[test]
    fn every_family_s_client_module_is_served_and_registers_its_family() {
        for family in games::families() {
            let asset = ASSETS.iter().find(|a| a.name == family.module);
            let asset = asset.unwrap_or_else(|| panic!("family {}: no module {} in the web app", family.id, family.module));
            assert!(asset.text.contains(&format!("register('{}',", family.id)), "{} does not register {}", family.module, family.id);
            assert!(!family.clock_presets.is_empty(), "family {} offers no clock", family.id);
        }
    }

    #[test]
    fn the_hosted_ui_is_configured_only_with_both_its_variables() {
        assert_eq!(WebConfig::from_env(|_| None), WebConfig::Local);
        let only_domain = |n: &str| (n == "WORDGAME_WEB_SIGNIN_DOMAIN").then(|| "https://x.example".to_string());
        assert_eq!(WebConfig::from_env(only_domain), WebConfig::Local);
        let all = |n: &str| match n {
            "WORDGAME_WEB_SIGNIN_DOMAIN" => Some("https://auth.example/".to_string()),
            "WORDGAME_WEB_CLIENT_ID" => Some("abc".to_string()),
            "WORDGAME_WEB_PUSH_URL" => Some("wss://ws.example/live".to_string()),
            _ => None,
        };
        let config = WebConfig::from_env(all);
        assert_eq!(config.connect_sources(), " https://auth.example wss://ws.example");
        let json = serde_json::to_value(&config).unwrap();
        assert_eq!(json["sign_in"], "hosted_ui");
        assert_eq!(serde_json::to_value(WebConfig::Local).unwrap(), serde_json::json!({"sign_in": "local"}));
    }
}
