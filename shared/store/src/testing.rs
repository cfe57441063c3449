//! A fresh, migrated database per test, on `DATABASE_URL`'s server or on one private server per
//! test process (see [`crate::local`]).

use std::sync::OnceLock;

use sqlx::{Connection, PgPool};

use crate::local::LocalPostgres;
use crate::{MIGRATOR, StoreError};

/// The server's base URL (without a database name) for this process.
fn server() -> &'static Result<String, String> {
    static SERVER: OnceLock<Result<String, String>> = OnceLock::new();
    static LOCAL: OnceLock<LocalPostgres> = OnceLock::new();
    SERVER.get_or_init(|| {
        if let Ok(url) = std::env::var("DATABASE_URL") {
            return Ok(url);
        }
        let dir = std::env::temp_dir().join(format!("wordgame-pg-test-{}", std::process::id()));
        let pg = LocalPostgres::start(&dir, true).map_err(|e| e.to_string())?;
        let url = pg.url("postgres");
        let _ = LOCAL.set(pg);
        Ok(url)
    })
}

/// A new empty database with every migration applied, and a pool on it.
///
/// # Panics
/// If no server can be had: tests cannot run without one, and the message says why.
pub async fn database() -> PgPool {
    try_database().await.unwrap_or_else(|e| panic!("no test database: {e}"))
}

/// A new empty database with the migrations up to `version` applied as plain SQL (no history
/// table): for a test of a later migration over rows an earlier schema held. Apply the rest with
/// [`migrate_past`].
///
/// # Panics
/// As [`database`], or if a migration fails.
pub async fn database_at(version: i64) -> PgPool {
    let pool = empty_database(8).await.unwrap_or_else(|e| panic!("no test database: {e}"));
    apply(&pool, |v| v <= version).await;
    pool
}

/// Applies, as plain SQL, the migrations after `version` to a database [`database_at`] made.
///
/// # Panics
/// If a migration fails.
pub async fn migrate_past(pool: &PgPool, version: i64) {
    apply(pool, |v| v > version).await;
}

/// Adds `variant`'s row to the variants table, as the migration that ships its family would:
/// for a family written in a test, whose games the store then keeps like any other.
///
/// # Panics
/// If the row cannot be written.
pub async fn add_variant(pool: &PgPool, variant: vocabulary::Variant) {
    let seats = variant.seats();
    sqlx::query("INSERT INTO variants (variant, family, min_seats, max_seats) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
        .bind(variant.id())
        .bind(variant.family().id())
        .bind(i16::try_from(*seats.start()).unwrap_or(i16::MAX))
        .bind(i16::try_from(*seats.end()).unwrap_or(i16::MAX))
        .execute(pool)
        .await
        .unwrap_or_else(|e| panic!("variant {variant}: {e}"));
}

async fn apply(pool: &PgPool, which: impl Fn(i64) -> bool) {
    for m in MIGRATOR.iter().filter(|m| which(m.version) && m.migration_type.is_up_migration()) {
        sqlx::raw_sql(&m.sql).execute(pool).await.unwrap_or_else(|e| panic!("migration {}: {e}", m.version));
    }
}

async fn empty_database(connections: u32) -> Result<PgPool, String> {
    let base = server().as_ref().map_err(Clone::clone)?;
    let name = format!("test_{}", uuid::Uuid::new_v4().simple());
    let mut admin = sqlx::PgConnection::connect(base).await.map_err(|e| e.to_string())?;
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.map_err(|e| e.to_string())?;
    let _ = admin.close().await;
    let options = crate::connect_options(&with_database(base, &name)).map_err(|e| e.to_string())?;
    crate::pool_options(connections, crate::PING_AFTER_IDLE).connect_with(options).await.map_err(|e| e.to_string())
}

async fn try_database() -> Result<PgPool, String> {
    let pool = empty_database(24).await?;
    MIGRATOR.run(&pool).await.map_err(|e| StoreError::from(e).to_string())?;
    Ok(pool)
}

/// `url` pointing at database `name` instead.
fn with_database(url: &str, name: &str) -> String {
    let (head, query) = url.split_once('?').map_or((url, None), |(h, q)| (h, Some(q)));
    let base = match head.rfind('/') {
        Some(i) if head[..i].contains("//") && i > head.find("//").unwrap_or(0) + 1 => &head[..i],
        _ => head,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn database_names_replace_the_path() {
        assert_eq!(with_database("postgres://u@h:5/postgres", "t1"), "postgres://u@h:5/t1");
        assert_eq!(with_database("postgres://u@h:5/db?sslmode=disable", "t1"), "postgres://u@h:5/t1?sslmode=disable");
        assert_eq!(with_database("postgres://u@h:5", "t1"), "postgres://u@h:5/t1");
    }
}
