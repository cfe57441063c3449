//! Tracing: JSON lines in Lambda (one object per event, with the request's span fields),
//! readable text locally. The level comes from `RUST_LOG` (default `info`).

use tracing_subscriber::EnvFilter;

/// JSON output, for Lambda (CloudWatch).
pub fn init_json() {
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_current_span(true)
        .with_span_list(false)
        .without_time()
        .try_init();
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
