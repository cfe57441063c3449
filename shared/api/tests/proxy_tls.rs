//! The options the functions reach RDS Proxy with verify the server's certificate in full, on a
//! real PostgreSQL serving TLS with certificates made here (openssl): a certificate from the
//! trusted CA for the host connected to is accepted; one the compiled-in roots did not sign, or
//! one for another name, is refused. (With `sslmode=require`, all three would connect.)

use std::path::Path;
use std::process::Command;

use api::config::proxy_options;
use sqlx::Connection;
use sqlx::postgres::{PgConnection, PgSslMode};
use store::local::LocalPostgres;

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl runs");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A test CA, and two server certificates it signs: one for 127.0.0.1, one for another name.
fn certificates(dir: &Path) {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=wordgame test CA",
        ],
    );
    for (name, san) in [("right", "IP:127.0.0.1"), ("wrong", "DNS:elsewhere.example")] {
        std::fs::write(
            dir.join(format!("{name}.ext")),
            format!(
                "subjectAltName={san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
            ),
        )
        .unwrap();
        openssl(
            dir,
            &[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.csr"),
                "-subj",
                "/CN=server",
            ],
        );
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-out",
                &format!("{name}.pem"),
                "-extfile",
                &format!("{name}.ext"),
            ],
        );
    }
}

/// Serves TLS with the `name` certificate (copied into the data directory, owned as the data is).
async fn serve_tls(pg: &LocalPostgres, certs: &Path, name: &str) {
    let data = pg.data_dir();
    for ext in ["pem", "key"] {
        let to = data.join(format!("tls-{name}.{ext}"));
        std::fs::copy(certs.join(format!("{name}.{ext}")), &to).unwrap();
        let chown = Command::new("chown").arg("--reference").arg(data.join("PG_VERSION")).arg(&to).status().unwrap();
        assert!(chown.success());
        std::fs::set_permissions(&to, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    }
    let mut admin = PgConnection::connect(&pg.url("postgres")).await.unwrap();
    for setting in [
        format!("ALTER SYSTEM SET ssl_cert_file = '{}'", data.join(format!("tls-{name}.pem")).display()),
        format!("ALTER SYSTEM SET ssl_key_file = '{}'", data.join(format!("tls-{name}.key")).display()),
        "ALTER SYSTEM SET ssl = on".to_string(),
        "SELECT pg_reload_conf()".to_string(),
    ] {
        sqlx::raw_sql(&setting).execute(&mut admin).await.unwrap();
    }
    // The reload is asynchronous: wait until a new session sees it.
    for _ in 0..100 {
        let mut c = PgConnection::connect(&pg.url("postgres")).await.unwrap();
        let file: String = sqlx::query_scalar("SHOW ssl_cert_file").fetch_one(&mut c).await.unwrap();
        if file.ends_with(&format!("tls-{name}.pem")) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the server did not load the {name} certificate");
}

async fn connects(pg: &LocalPostgres, roots: &[u8]) -> Result<(), String> {
    let options = proxy_options("127.0.0.1", pg.port(), "postgres", "postgres", "a-token", roots);
    assert!(matches!(options.get_ssl_mode(), PgSslMode::VerifyFull));
    let mut c = PgConnection::connect_with(&options).await.map_err(|e| e.to_string())?;
    let tls: bool = sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").fetch_one(&mut c).await.unwrap();
    assert!(tls, "the session is encrypted");
    Ok(())
}

#[tokio::test]
async fn only_a_certificate_from_a_trusted_root_for_the_host_is_accepted() {
    let base = std::env::temp_dir().join(format!("wordgame-proxy-tls-{}", std::process::id()));
    let certs = base.join("certs");
    std::fs::create_dir_all(&certs).unwrap();
    certificates(&certs);
    let pg = LocalPostgres::start(&base.join("pg"), true).unwrap();
    let test_ca = std::fs::read(certs.join("ca.pem")).unwrap();

    serve_tls(&pg, &certs, "right").await;
    connects(&pg, &test_ca).await.expect("the trusted CA's certificate for 127.0.0.1 is accepted");
    let err = connects(&pg, api::tls::PROXY_ROOTS_PEM).await.expect_err("a certificate the proxy's roots did not sign");
    assert!(err.contains("UnknownIssuer"), "{err}");

    serve_tls(&pg, &certs, "wrong").await;
    let err = connects(&pg, &test_ca).await.expect_err("a certificate for another name");
    assert!(err.contains("not valid for name"), "{err}");

    pg.stop();
    let _ = std::fs::remove_dir_all(&base);
}
