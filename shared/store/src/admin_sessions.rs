//! Admin tokens spent before their expiry: a signed-out session and a redeemed one-time sign-in
//! code, each refused from then on until the token would have expired anyway. Kept in the
//! database, so a restart (or another Lambda instance) refuses them too; each new row deletes
//! the expired ones.

use chrono::{DateTime, Utc};

use crate::{Store, StoreError};

/// What kind of admin token a spent one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpentToken {
    /// An admin session, signed out: by a digest of its token.
    Session,
    /// A one-time sign-in code, redeemed: by its `jti`.
    SigninCode,
}

impl SpentToken {
    /// The `kind` column's value.
    const fn kind(self) -> &'static str {
        match self {
            SpentToken::Session => "session",
            SpentToken::SigninCode => "signin_code",
        }
    }
}

impl Store {
    /// Spends token `id` of `kind` until `expires_at`, deleting every spent token expired at
    /// `now`; whether it was unspent (false: spent already, as a replayed sign-in code is).
    ///
    /// # Errors
    /// Database errors.
    pub async fn spend_admin_token(
        &self,
        kind: SpentToken,
        id: &str,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM spent_admin_tokens WHERE expires_at <= $1").bind(now).execute(&mut *tx).await?;
        let spent = sqlx::query("INSERT INTO spent_admin_tokens (kind, token_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(kind.kind())
            .bind(id)
            .bind(expires_at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(spent == 1)
    }

    /// Whether token `id` of `kind` is spent and not yet expired at `now`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn admin_token_spent(&self, kind: SpentToken, id: &str, now: DateTime<Utc>) -> Result<bool, StoreError> {
        Ok(sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM spent_admin_tokens WHERE kind = $1 AND token_id = $2 AND expires_at > $3)")
            .bind(kind.kind())
            .bind(id)
            .bind(now)
            .fetch_one(&self.pool)
            .await?)
    }
}
