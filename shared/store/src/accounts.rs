//! Accounts: humans (created on first sight of their identity) and the three robots.

use chrono::{DateTime, Utc};
use sqlx::Row;
use uuid::Uuid;

use crate::{Conflict, Store, StoreError};
pub use vocabulary::Level;

/// Human or robot (serialized as `human` or `robot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// A person.
    Human,
    /// A robot player.
    Robot,
}

/// Who may watch an account's games (serialized `standard`, `always` or `never`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spectating {
    /// Tournament, lobby and robot games are watchable; invitations and rematches are private.
    #[default]
    Standard,
    /// Every game is watchable.
    Always,
    /// No game is watchable.
    Never,
}

impl Spectating {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Spectating::Standard => "standard",
            Spectating::Always => "always",
            Spectating::Never => "never",
        }
    }

    /// The setting named `name`, if it is one.
    pub fn parse(name: &str) -> Option<Spectating> {
        [Spectating::Standard, Spectating::Always, Spectating::Never].into_iter().find(|s| s.as_str() == name)
    }

    /// A stored setting, checked (an unknown one is a corrupt row); absent reads as standard.
    pub(crate) fn stored(name: Option<&str>) -> Result<Spectating, StoreError> {
        name.map_or(Ok(Spectating::Standard), |n| Spectating::parse(n).ok_or_else(|| StoreError::Corrupt(format!("spectating {n:?}"))))
    }
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id (for humans, the identity provider's `sub`).
    pub account_id: Uuid,
    /// The name shown to other players.
    pub display_name: String,
    /// Human or robot.
    pub kind: AccountKind,
    /// A robot's level.
    pub robot_level: Option<Level>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// Who may watch its games.
    pub spectating: Spectating,
}

impl AccountKind {
    pub(crate) fn parse(kind: &str) -> Result<AccountKind, StoreError> {
        match kind {
            "human" => Ok(AccountKind::Human),
            "robot" => Ok(AccountKind::Robot),
            other => Err(StoreError::Corrupt(format!("account kind {other:?}"))),
        }
    }
}

/// A stored robot level, checked (an unknown id is a corrupt row).
pub(crate) fn parse_stored_level(level: Option<&str>) -> Result<Option<Level>, StoreError> {
    level.map(|l| Level::parse(l).ok_or_else(|| StoreError::Corrupt(format!("robot level {l:?}")))).transpose()
}

/// The account id of the robot that plays at `level` (seeded by the first migration).
pub const fn robot_account(level: Level) -> Uuid {
    match level {
        Level::Easy => Uuid::from_u128(0x00000000_0000_4000_8000_00000000000e),
        Level::Medium => Uuid::from_u128(0x00000000_0000_4000_8000_00000000000d),
        Level::Hard => Uuid::from_u128(0x00000000_0000_4000_8000_00000000000a),
    }
}

pub(crate) fn account_from_row(row: &sqlx::postgres::PgRow) -> Result<Account, StoreError> {
    let kind: String = row.try_get("kind")?;
    let level: Option<String> = row.try_get("robot_level")?;
    Ok(Account {
        account_id: row.try_get("account_id")?,
        display_name: row.try_get("display_name")?,
        kind: AccountKind::parse(&kind)?,
        robot_level: parse_stored_level(level.as_deref())?,
        created_at: row.try_get("created_at")?,
        spectating: Spectating::stored(row.try_get::<Option<String>, _>("spectating")?.as_deref())?,
    })
}

/// A game an account sits in, for its profile page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountGame {
    /// The game.
    pub game_id: Uuid,
    /// Its variant.
    pub variant: vocabulary::Variant,
    /// Its lifecycle state.
    pub status: crate::GameStatus,
    /// The account's seat.
    pub seat: usize,
    /// Moves so far.
    pub move_count: i32,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

impl Store {
    /// The games `account_id` sits in, most recently changed first (at most 200).
    ///
    /// # Errors
    /// Database errors.
    pub async fn account_games(&self, account_id: Uuid) -> Result<Vec<AccountGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.game_id, g.variant, g.status, p.seat, g.move_count, g.updated_at
             FROM game_players p JOIN games g ON g.game_id = p.game_id
             WHERE p.account_id = $1 ORDER BY g.updated_at DESC LIMIT 200",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let variant: String = r.try_get("variant")?;
                let status: String = r.try_get("status")?;
                Ok(AccountGame {
                    game_id: r.try_get("game_id")?,
                    variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
                    status: crate::GameStatus::parse(&status)?,
                    seat: r.try_get::<i16, _>("seat")? as usize,
                    move_count: r.try_get("move_count")?,
                    updated_at: r.try_get("updated_at")?,
                })
            })
            .collect()
    }

    /// The human account `id`, created with `display_name` if it does not exist yet and renamed
    /// to it if it does (the identity provider's name is the current one); a robot's id is
    /// refused.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if `id` belongs to a robot; database errors.
    pub async fn ensure_human(&self, id: Uuid, display_name: &str) -> Result<Account, StoreError> {
        let row = sqlx::query(
            "INSERT INTO accounts (account_id, display_name, kind) VALUES ($1, $2, 'human')
             ON CONFLICT (account_id) DO UPDATE SET display_name =
                 CASE WHEN accounts.kind = 'human' THEN EXCLUDED.display_name ELSE accounts.display_name END
             RETURNING account_id, display_name, kind, robot_level, created_at, spectating",
        )
        .bind(id)
        .bind(display_name)
        .fetch_one(&self.pool)
        .await?;
        let account = account_from_row(&row)?;
        if account.kind == AccountKind::Robot {
            return Err(StoreError::Conflict(Conflict::RobotIdentity));
        }
        Ok(account)
    }

    /// The account `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn account(&self, id: Uuid) -> Result<Account, StoreError> {
        let row =
            sqlx::query("SELECT account_id, display_name, kind, robot_level, created_at, spectating FROM accounts WHERE account_id = $1")
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        account_from_row(&row)
    }

    /// Sets who may watch `id`'s games; the account as it is then.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown account; database errors.
    pub async fn set_spectating(&self, id: Uuid, spectating: Spectating) -> Result<Account, StoreError> {
        let row = sqlx::query(
            "UPDATE accounts SET spectating = $2 WHERE account_id = $1 AND kind = 'human'
             RETURNING account_id, display_name, kind, robot_level, created_at, spectating",
        )
        .bind(id)
        .bind(spectating.as_str())
        .fetch_one(&self.pool)
        .await?;
        account_from_row(&row)
    }
}
