//! What can go wrong in the store.

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness or concurrency conflict: which one.
    #[error("conflict: {0}")]
    Conflict(Conflict),
    /// The account already has as many open games of the variant as it may.
    #[error("the account already has {limit} open games of this variant")]
    TooManyOpenGames {
        /// How many it may have.
        limit: u32,
    },
    /// The inviter already has as many pending invitations to this account as one may.
    #[error("{limit} invitations to account {invitee} are already waiting")]
    TooManyInvitations {
        /// How many one may have.
        limit: u32,
        /// The invited account.
        invitee: uuid::Uuid,
    },
    /// The account already has as many unfinished games (open or being played) as it may.
    #[error("the account already has {limit} unfinished games")]
    TooManyGames {
        /// How many it may have.
        limit: u32,
    },
    /// The account already holds as many live push connections as it may.
    #[error("the account already holds {limit} push connections")]
    TooManyConnections {
        /// How many it may hold.
        limit: u32,
    },
    /// A stored value that the code cannot read (a bug or a hand-edited row).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// No connection could be had in time (the database is down, restarting or overloaded), or
    /// a statement ran past [`crate::STATEMENT_TIMEOUT`] and was cancelled: nothing was
    /// written; the caller may retry later.
    #[error("the database is unavailable")]
    Unavailable(#[source] sqlx::Error),
    /// The connection broke under the request (the server restarted or was killed). A
    /// transaction that was not committed wrote nothing; a retry on a fresh connection may
    /// succeed at once.
    #[error("the database connection was lost")]
    ConnectionLost(#[source] sqlx::Error),
    /// The database failed.
    #[error("database error")]
    Database(#[source] sqlx::Error),
    /// A migration failed.
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// The kinds of [`StoreError::Conflict`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// The game changed between the unlocked read and the write (another move, a withdrawal).
    #[error("the game changed since it was read")]
    Changed,
    /// Every seat of the open game is taken.
    #[error("no empty seat")]
    NoEmptySeat,
    /// The game is no longer open (joined, withdrawn or over).
    #[error("the game is not open")]
    NotOpen,
    /// A human account would take a robot's identity.
    #[error("a robot's identity")]
    RobotIdentity,
    /// The application role named is the role connected (the owner), which cannot be narrowed.
    #[error("the application role {0:?} is the owner connected")]
    RoleIsOwner(String),
    /// A unique constraint refused the row (a move number or a rematch already taken): its name.
    #[error("unique constraint {0}")]
    Unique(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(Conflict::Unique(db.constraint().unwrap_or("unique").to_string()))
            }
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => StoreError::Unavailable(e),
            sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::Protocol(_) | sqlx::Error::WorkerCrashed => {
                crate::note_connection_lost();
                StoreError::ConnectionLost(e)
            }
            sqlx::Error::Database(db) if db.code().is_some_and(|c| is_connection_state(&c)) => {
                crate::note_connection_lost();
                StoreError::ConnectionLost(e)
            }
            sqlx::Error::Database(db) if db.code().as_deref() == Some(QUERY_CANCELED) => StoreError::Unavailable(e),
            _ => StoreError::Database(e),
        }
    }
}

/// The SQLSTATE of a statement cancelled by `statement_timeout` (or by an operator).
const QUERY_CANCELED: &str = "57014";

/// SQLSTATEs of a server going away under a session: class 08 (connection exception),
/// 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now.
fn is_connection_state(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_failures_are_told_apart_from_other_errors() {
        assert!(matches!(StoreError::from(sqlx::Error::PoolTimedOut), StoreError::Unavailable(_)));
        assert!(matches!(StoreError::from(sqlx::Error::Io(std::io::ErrorKind::ConnectionReset.into())), StoreError::ConnectionLost(_)));
        assert!(matches!(StoreError::from(sqlx::Error::RowNotFound), StoreError::NotFound));
        assert!(matches!(StoreError::from(sqlx::Error::ColumnNotFound("x".into())), StoreError::Database(_)));
        assert!(is_connection_state("57P01") && is_connection_state("08006") && !is_connection_state("23505"));
    }
}
