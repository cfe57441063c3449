//! The one outbound HTTP client of the AWS-facing code: push's posts to the management API and
//! EventBridge ([`crate::aws_push`]) and the sign-in's calls to the identity provider (token
//! endpoint, signing keys; [`crate::oidc`]). One request per fresh HTTP/1.1 connection, TLS
//! over rustls with the web's root certificates for `https` (plain `http` for the tests' local
//! stand-ins), bounded by a timeout.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

/// A response: its status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body, as text.
    pub body: String,
}

/// Sends `request` to `uri` and reads the whole answer; an error when the host cannot be
/// reached, TLS fails, or nothing complete arrives within `timeout`.
///
/// # Errors
/// What went wrong, as text (callers log it or wrap it in their own error).
pub async fn send(uri: &hyper::Uri, request: hyper::Request<Full<Bytes>>, timeout: Duration) -> Result<Answer, String> {
    tokio::time::timeout(timeout, send_now(uri, request)).await.map_err(|_| format!("no answer within {timeout:?}"))?
}

/// The TLS settings, made once: ring, the safe default versions, the web's roots.
fn tls_config() -> Result<Arc<rustls::ClientConfig>, String> {
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(|e| e.to_string())?
                .with_root_certificates(roots)
                .with_no_client_auth();
            Ok(Arc::new(config))
        })
        .clone()
}

async fn send_now(uri: &hyper::Uri, request: hyper::Request<Full<Bytes>>) -> Result<Answer, String> {
    let tls = uri.scheme_str() == Some("https");
    let host = uri.host().ok_or("no host")?.to_string();
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let tcp = tokio::net::TcpStream::connect((host.as_str(), port)).await.map_err(|e| e.to_string())?;
    if tls {
        let name = rustls::pki_types::ServerName::try_from(host).map_err(|e| e.to_string())?;
        let stream = tokio_rustls::TlsConnector::from(tls_config()?).connect(name, tcp).await.map_err(|e| e.to_string())?;
        exchange(TokioIo::new(stream), request).await
    } else {
        exchange(TokioIo::new(tcp), request).await
    }
}

async fn exchange<T>(io: T, request: hyper::Request<Full<Bytes>>) -> Result<Answer, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let response = sender.send_request(request).await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    Ok(Answer { status, body: String::from_utf8_lossy(&body).into_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// One connection on a free port answered with `raw`; the URL.
    async fn answering(raw: &'static str) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut buf = [0; 1024];
            let _ = stream.read(&mut buf).await.unwrap();
            stream.write_all(raw.as_bytes()).await.unwrap();
        });
        format!("http://127.0.0.1:{port}/keys")
    }

    fn get(url: &str) -> (hyper::Uri, hyper::Request<Full<Bytes>>) {
        let uri: hyper::Uri = url.parse().unwrap();
        let request = hyper::Request::get("/keys").header("host", uri.authority().unwrap().as_str()).body(Full::new(Bytes::new())).unwrap();
        (uri, request)
    }

    #[tokio::test]
    async fn a_chunked_answer_is_read_whole_and_silence_times_out() {
        let url = answering("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"k\"\r\n3\r\n:1}\r\n0\r\n\r\n").await;
        let (uri, request) = get(&url);
        assert_eq!(send(&uri, request, Duration::from_secs(5)).await, Ok(Answer { status: 200, body: "{\"k\":1}".into() }));
        let url = answering("HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n").await;
        let (uri, request) = get(&url);
        assert_eq!(send(&uri, request, Duration::from_secs(5)).await.map(|a| a.status), Ok(410));
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (uri, request) = get(&format!("http://{}/keys", silent.local_addr().unwrap()));
        assert!(send(&uri, request, Duration::from_millis(200)).await.unwrap_err().contains("no answer within"));
    }
}
