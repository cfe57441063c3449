//! The application's database role: what the API functions log in as. The migration runner,
//! connected as the schema's owner, creates it (or brings it up to date) after applying the
//! migrations. It may read and write rows — SELECT, INSERT, UPDATE and DELETE on every table,
//! USAGE on every sequence — and nothing else: no DDL, it owns nothing, it cannot create in the
//! schema, and it cannot touch the migration history. The grants name no table: they cover every
//! table in the schema now (`ALL TABLES IN SCHEMA`) and every table the owner creates later
//! (`ALTER DEFAULT PRIVILEGES`), so a new migration's tables need no grant of their own.

use sqlx::Acquire;

use crate::{Conflict, Store, StoreError};

/// A role name the runner will create: a lowercase identifier (`[a-z][a-z0-9_]{2,30}`, the
/// template's pattern), so it needs no quoting and cannot carry SQL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppRole(String);

/// A role name that is not a plain lowercase identifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a role name: expected [a-z][a-z0-9_]{{2,30}}")]
pub struct RoleNameError(pub String);

impl AppRole {
    /// The role called `name`.
    ///
    /// # Errors
    /// [`RoleNameError`] unless `name` is `[a-z][a-z0-9_]{2,30}`.
    pub fn new(name: &str) -> Result<AppRole, RoleNameError> {
        let mut chars = name.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        let rest_ok = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if first_ok && rest_ok && (3..=31).contains(&name.len()) {
            Ok(AppRole(name.to_string()))
        } else {
            Err(RoleNameError(name.to_string()))
        }
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

/// The statements that make `role` the application's role in the current database, run by the
/// owner. Idempotent: each run brings an existing role back to exactly these rights.
fn grants(role: &str) -> Vec<String> {
    [
        // Create it if missing; either way it may log in and has no special powers.
        format!("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') THEN CREATE ROLE {role} LOGIN; END IF; END $$"),
        // Only a superuser may change the superuser, replication and bypass-RLS attributes (RDS's
        // master user is none), and only a superuser can have set them: refuse such a role.
        format!("ALTER ROLE {role} LOGIN NOCREATEDB NOCREATEROLE"),
        format!(
            "DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}' AND (rolsuper OR rolreplication OR rolbypassrls)) THEN \
             RAISE EXCEPTION 'the application role {role} is a superuser, a replication role or bypasses row security'; END IF; END $$"
        ),
        "DO $$ BEGIN EXECUTE format('GRANT CONNECT ON DATABASE %I TO ROLE_NAME', current_database()); END $$".replace("ROLE_NAME", role),
        // Use the schema, never create in it (PostgreSQL before 15 let every role create there).
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC".to_string(),
        format!("REVOKE CREATE ON SCHEMA public FROM {role}"),
        format!("GRANT USAGE ON SCHEMA public TO {role}"),
        // Rows of every table there is, and of every table the owner creates from now on.
        format!("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}"),
        format!("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"),
        format!("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}"),
        format!("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}"),
        format!("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE ON SEQUENCES TO {role}"),
        // Every session of the role has the statement timeout by default, whatever its startup
        // message carries (RDS Proxy's sessions carry none).
        format!("ALTER ROLE {role} SET statement_timeout = '{}ms'", crate::STATEMENT_TIMEOUT.as_millis()),
        // The migration history is the owner's alone.
        format!("REVOKE ALL ON TABLE _sqlx_migrations FROM {role}"),
        // In Amazon RDS (where the role `rds_iam` exists), log in with IAM tokens only.
        format!("DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'rds_iam') THEN GRANT rds_iam TO {role}; END IF; END $$"),
    ]
    .into()
}

impl Store {
    /// Creates `role` or brings it back to the application's rights (see the module's note), in
    /// one transaction. Run it as the schema's owner, after [`Store::migrate`].
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if `role` is the user connected (the owner would lose its own
    /// rights); database errors (say, the connected user may not create roles).
    pub async fn grant_app_role(&self, role: &AppRole) -> Result<(), StoreError> {
        let mut conn = self.pool().acquire().await?;
        let current: String = sqlx::query_scalar("SELECT current_user::text").fetch_one(&mut *conn).await?;
        if current == role.name() {
            return Err(StoreError::Conflict(Conflict::RoleIsOwner(role.name().to_string())));
        }
        let mut tx = conn.begin().await?;
        for statement in grants(role.name()) {
            sqlx::raw_sql(&statement).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_name_is_a_plain_lowercase_identifier() {
        assert_eq!(AppRole::new("wordgame_app").unwrap().name(), "wordgame_app");
        for bad in ["", "ab", "App", "1app", "app-x", "app; DROP TABLE games", "a'b", "wordgame_app_with_a_very_long_name"] {
            assert_eq!(AppRole::new(bad), Err(RoleNameError(bad.to_string())), "{bad:?}");
        }
    }

    #[test]
    fn the_grants_give_rows_only_and_name_no_table() {
        let all = grants("app").join(";\n");
        assert!(!all.contains("ALL PRIVILEGES") && !all.contains("OWNER") && !all.contains("TRUNCATE"), "{all}");
        for table in ["games", "accounts", "game_moves", "game_players"] {
            assert!(!all.contains(table), "{table} is named: a new table must be covered without it");
        }
    }
}
