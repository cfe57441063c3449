//! What can go wrong in the store.

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness or concurrency conflict (e.g. a move number already taken).
    #[error("conflict: {0}")]
    Conflict(String),
    /// A stored value that the code cannot read (a bug or a hand-edited row).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The database failed.
    #[error("database error")]
    Database(#[source] sqlx::Error),
    /// A migration failed.
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(db.constraint().unwrap_or("unique").to_string()),
            _ => StoreError::Database(e),
        }
    }
}
