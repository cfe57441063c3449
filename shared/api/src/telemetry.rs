//! Tracing: JSON lines in Lambda (one object per event, with its time and the request's span
//! fields), readable text locally. The level comes from `RUST_LOG` (default `info`).
//!
//! Each request runs in one span, `request`, whose fields every line logged for it carries: the
//! route, the request id (the Lambda request id in AWS, the one the local gateway made up
//! locally: the id every response's `x-request-id` header and error body give back), the X-Ray
//! trace id where there is one, and the game id.

use lambda_http::request::RequestContext;
use lambda_http::{Request, RequestExt};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// The response header naming the request, to find its log lines by.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// JSON output, for Lambda (CloudWatch).
pub fn init_json() {
    use tracing_subscriber::util::SubscriberInitExt;
    let _ = json_subscriber(std::io::stdout).try_init();
}

/// The JSON subscriber [`init_json`] installs, writing to `writer`: one object per event with its
/// timestamp, level, message and fields, and the current span's fields (the request's).
pub fn json_subscriber<W>(writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .json()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_current_span(true)
        .with_span_list(false)
        .with_writer(writer)
        .finish()
}

/// Human-readable output on standard output, for the local gateway: coloured only when standard
/// output is a terminal, so a file or a pipe gets no escape codes.
pub fn init_text() {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_ansi(std::io::stdout().is_terminal())
        .try_init();
}

/// The id a request is answered and logged under: the Lambda request id in AWS; else (the local
/// gateway, the tests) the id of the event's request context, which the local gateway makes up
/// per request; else a fresh one.
pub fn request_id(req: &Request) -> String {
    if let Some(context) = req.lambda_context_ref().filter(|c| !c.request_id.is_empty()) {
        return context.request_id.clone();
    }
    match req.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(ctx)) => ctx.request_id.clone().filter(|id| !id.is_empty()),
        _ => None,
    }
    .unwrap_or_else(|| uuid::Uuid::new_v4().to_string())
}

/// The request's X-Ray trace id, if traced: the Lambda context's, else `_X_AMZN_TRACE_ID` (which
/// the runtime sets per invocation).
pub fn trace_id(req: &Request) -> Option<String> {
    req.lambda_context_ref()
        .and_then(|c| c.xray_trace_id.clone())
        .or_else(|| std::env::var("_X_AMZN_TRACE_ID").ok())
        .filter(|t| !t.is_empty())
}

/// The span a request of function `function` with id `request_id` runs in; it also names API
/// Gateway's own id of the request (`apigw_request_id`, the access log's `requestId`).
pub fn request_span(function: &str, request_id: &str, req: &Request) -> tracing::Span {
    let game_id = req.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
    let trace_id = trace_id(req).unwrap_or_default();
    let gateway_id = match req.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(ctx)) => ctx.request_id.as_deref().unwrap_or_default(),
        _ => "",
    };
    tracing::info_span!(
        "request",
        route = function,
        request_id = %request_id,
        apigw_request_id = %gateway_id,
        trace_id = %trace_id,
        game_id = %game_id
    )
}

/// The headers every answer carries: request `request_id` named in `x-request-id` (an id that
/// cannot be a header value, which no id made here is, is left out) and
/// `x-content-type-options: nosniff`, so no browser reads a JSON or text answer as another type.
pub fn answer_headers(headers: &mut http::HeaderMap, request_id: &str) {
    if let Ok(value) = http::HeaderValue::from_str(request_id) {
        headers.insert(REQUEST_ID_HEADER, value);
    }
    headers.insert(http::header::X_CONTENT_TYPE_OPTIONS, http::HeaderValue::from_static("nosniff"));
}
