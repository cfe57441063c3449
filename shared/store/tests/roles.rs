//! The application role on a real PostgreSQL: after the migrations, the owner's
//! `grant_app_role` (the owner no superuser, as in Amazon RDS) lets it play (read and write rows, tables created later included) and
//! nothing else — no DROP, ALTER, CREATE or TRUNCATE, no migration history, no roles.

use sqlx::postgres::PgPoolOptions;
use sqlx::{Executor, PgPool};
use store::testing::database;
use store::{AppRole, Store, StoreError};
use uuid::Uuid;

/// A role name of its own per run (roles belong to the whole server, not one database).
fn fresh_role() -> AppRole {
    AppRole::new(&format!("app_{}", &Uuid::new_v4().simple().to_string()[..12])).unwrap()
}

/// A new database owned by a new role that may create roles but is no superuser (as Amazon
/// RDS's master user is), migrated by that owner; a pool on it logged in as the owner.
async fn owner_database() -> PgPool {
    let admin = database().await;
    let name = format!("own_{}", &Uuid::new_v4().simple().to_string()[..12]);
    for sql in [format!("CREATE ROLE {name} LOGIN CREATEROLE PASSWORD 'owner-test'"), format!("CREATE DATABASE {name} OWNER {name}")] {
        admin.execute(sql.as_str()).await.unwrap();
    }
    let options = (*admin.connect_options()).clone().username(&name).password("owner-test").database(&name);
    let owner = PgPoolOptions::new().max_connections(4).connect_with(options).await.unwrap();
    let superuser: bool = sqlx::query_scalar("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetch_one(&owner).await.unwrap();
    assert!(!superuser);
    Store::new(owner.clone()).migrate().await.unwrap();
    owner
}

/// A pool on the owner's database, logged in as `role`.
async fn pool_as(owner: &PgPool, role: &AppRole) -> PgPool {
    // A password too, for a DATABASE_URL server that does not trust local logins.
    owner.execute(format!("ALTER ROLE {} PASSWORD 'app-test'", role.name()).as_str()).await.unwrap();
    let options = (*owner.connect_options()).clone().username(role.name()).password("app-test");
    PgPoolOptions::new().max_connections(2).connect_with(options).await.unwrap()
}

/// The SQLSTATE of a refused statement, or a panic naming the statement if it was allowed.
async fn refused(pool: &PgPool, sql: &str) -> String {
    match pool.execute(sql).await {
        Ok(_) => panic!("the application role could run {sql:?}"),
        Err(sqlx::Error::Database(e)) => e.code().map(|c| c.to_string()).unwrap_or_default(),
        Err(e) => panic!("{sql:?}: {e}"),
    }
}

async fn is_member(pool: &PgPool, role: &AppRole, of: &str) -> bool {
    sqlx::query_scalar("SELECT pg_has_role($1, $2, 'MEMBER')").bind(role.name()).bind(of).fetch_one(pool).await.unwrap()
}

#[tokio::test]
async fn the_application_role_plays_but_cannot_change_the_schema() {
    let owner = owner_database().await;
    let role = fresh_role();
    let owner_store = Store::new(owner.clone());
    owner_store.grant_app_role(&role).await.unwrap();
    owner_store.grant_app_role(&role).await.expect("a second run changes nothing and succeeds");
    let app = pool_as(&owner, &role).await;
    let store = Store::new(app.clone());
    // The role's own default carries the statement timeout (RDS Proxy's sessions send none).
    let defaults: Vec<String> = sqlx::query_scalar(
        "SELECT unnest(setconfig) FROM pg_db_role_setting WHERE setrole = (SELECT oid FROM pg_roles WHERE rolname = $1)",
    )
    .bind(role.name())
    .fetch_all(&owner)
    .await
    .unwrap();
    assert_eq!(defaults, [format!("statement_timeout={}ms", store::STATEMENT_TIMEOUT.as_millis())]);

    // It plays: rows in, rows out, rows changed and removed.
    let id = Uuid::new_v4();
    let me = store.ensure_human(id, "Ann").await.unwrap();
    assert_eq!(store.account(id).await.unwrap().display_name, me.display_name);
    assert!(store.account_games(id).await.unwrap().is_empty());
    app.execute(format!("UPDATE accounts SET display_name = 'Anne' WHERE account_id = '{id}'").as_str()).await.unwrap();
    app.execute(format!("DELETE FROM accounts WHERE account_id = '{id}'").as_str()).await.unwrap();
    assert!(matches!(store.account(id).await, Err(StoreError::NotFound)));

    // A table a later migration creates (as the owner) is covered without naming it.
    owner.execute("CREATE TABLE later_table (id bigserial PRIMARY KEY, note text NOT NULL)").await.unwrap();
    app.execute("INSERT INTO later_table (note) VALUES ('new')").await.expect("default privileges cover a new table and its sequence");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM later_table").fetch_one(&app).await.unwrap();
    assert_eq!(n, 1);

    // It cannot change the schema, the migration history, or the roles.
    const DENIED: &str = "42501";
    for sql in [
        "DROP TABLE games",
        "DROP TABLE later_table",
        "ALTER TABLE games ADD COLUMN sneaky int",
        "ALTER TABLE later_table DROP COLUMN note",
        "CREATE TABLE mine (x int)",
        "CREATE INDEX sneaky ON games (game_id)",
        "TRUNCATE games",
        "SELECT * FROM _sqlx_migrations",
        "DELETE FROM _sqlx_migrations",
        "CREATE ROLE sneaky",
    ] {
        assert_eq!(refused(&app, sql).await, DENIED, "{sql}");
    }
    let owned: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = $1")
        .bind(role.name())
        .fetch_one(&owner)
        .await
        .unwrap();
    assert_eq!(owned, 0, "the application role owns nothing");

    // `rds_iam` (Amazon RDS's role for IAM logins) is granted where it exists, and only there.
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rds_iam')").fetch_one(&owner).await.unwrap();
    if !exists {
        // The runs above met no `rds_iam` and did not fail; now it exists, the next run grants
        // it (in RDS the master user may grant it; here the owner gets the admin option).
        let me: String = sqlx::query_scalar("SELECT current_user::text").fetch_one(&owner).await.unwrap();
        owner.execute(format!("CREATE ROLE rds_iam NOLOGIN; GRANT rds_iam TO {me} WITH ADMIN OPTION").as_str()).await.unwrap();
    }
    owner_store.grant_app_role(&role).await.unwrap();
    assert!(is_member(&owner, &role, "rds_iam").await);
    app.close().await;
}

#[tokio::test]
async fn the_owner_or_a_superuser_cannot_be_made_the_application_role() {
    let owner = database().await;
    let me: String = sqlx::query_scalar("SELECT current_user::text").fetch_one(&owner).await.unwrap();
    let store = Store::new(owner.clone());
    let err = store.grant_app_role(&AppRole::new(&me).unwrap()).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict(store::Conflict::RoleIsOwner(_))), "{err}");
    let mighty = fresh_role();
    owner.execute(format!("CREATE ROLE {} LOGIN SUPERUSER CREATEDB", mighty.name()).as_str()).await.unwrap();
    let err = store.grant_app_role(&mighty).await.unwrap_err();
    assert!(format!("{:?}", err).contains("is a superuser"), "{err:?}");
    // The refused run changed nothing: the attribute its first statement took away is back.
    let createdb: bool =
        sqlx::query_scalar("SELECT rolcreatedb FROM pg_roles WHERE rolname = $1").bind(mighty.name()).fetch_one(&owner).await.unwrap();
    assert!(createdb, "one transaction: the refused run left nothing behind");
}
