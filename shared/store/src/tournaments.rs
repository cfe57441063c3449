//! Tournaments: the director's settings, the registered players, each round's pairings and the
//! results of their games, read in one statement; the director's changes in a transaction that
//! holds the tournament's row ([`TournamentTx`]), so two changes to one tournament apply in turn.
//! The players are those who entered (themselves, or by accepting an invitation); a director's
//! invitations wait apart (`tournament_invitations`) until answered, and nothing pairs them.

use chrono::{DateTime, Utc};
use tournament::PairingSystem;
use uuid::Uuid;
use vocabulary::{ChallengeRule, TimeControl, Variant};

use crate::games::insert_game;
use crate::{NewGame, Store, StoreError};

/// A tournament's lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking registrations; no round paired.
    Registering,
    /// Its rounds are being paired and played.
    Running,
    /// Over: nothing more changes.
    Closed,
}

impl TournamentStatus {
    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            TournamentStatus::Registering => "registering",
            TournamentStatus::Running => "running",
            TournamentStatus::Closed => "closed",
        }
    }

    fn parse(s: &str) -> Result<TournamentStatus, StoreError> {
        [TournamentStatus::Registering, TournamentStatus::Running, TournamentStatus::Closed]
            .into_iter()
            .find(|t| t.id() == s)
            .ok_or_else(|| StoreError::Corrupt(format!("tournament status {s:?}")))
    }
}

/// What a director chooses for a tournament, pinned for every game of it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TournamentSettings {
    /// Its name.
    pub name: String,
    /// The variant of its games.
    pub variant: Variant,
    /// Its games' time control.
    pub time_control: TimeControl,
    /// Its games' challenge rule.
    pub challenge_rule: ChallengeRule,
    /// Whether its games are rated.
    pub rated: bool,
    /// The pairing system.
    pub pairing: PairingSystem,
    /// Whether the final round is paired King of the Hill.
    pub king_of_the_hill: bool,
    /// How many rounds.
    pub rounds: u32,
    /// How long a new game's players have to draw before the server draws for them, seconds.
    pub draw_seconds: u32,
    /// How many moves behind spectators see a live game of it (0: live).
    pub spectator_delay: u32,
}

/// A tournament to create.
#[derive(Debug, Clone)]
pub struct NewTournament {
    /// Its id.
    pub tournament_id: Uuid,
    /// Its settings.
    pub settings: TournamentSettings,
    /// Its director.
    pub director_id: Uuid,
    /// When it is created.
    pub created_at: DateTime<Utc>,
}

/// A tournament as stored, with its players and pairings.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRecord {
    /// Its id.
    pub tournament_id: Uuid,
    /// Its settings.
    pub settings: TournamentSettings,
    /// Its lifecycle.
    pub status: TournamentStatus,
    /// The latest round paired (0 before the first).
    pub round: u32,
    /// Whether that round's games were created.
    pub round_started: bool,
    /// Its director.
    pub director_id: Uuid,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// Its players, by number.
    pub players: Vec<TournamentPlayer>,
    /// Every pairing of every round, by round and table.
    pub pairings: Vec<PairingRow>,
    /// The director's invitations, answered or not, oldest first.
    pub invitations: Vec<TournamentInvitation>,
}

/// A director's invitation to a tournament, and the player's answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TournamentInvitation {
    /// The invited account.
    pub account_id: Uuid,
    /// Its display name.
    pub display_name: String,
    /// `invited` (no answer yet), `accepted` (they entered) or `declined`.
    pub state: String,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TournamentPlayer {
    /// The player's number, from 1 in registration order.
    pub player_no: u32,
    /// The account.
    pub account_id: Uuid,
    /// Its display name.
    pub display_name: String,
    /// The seeding rating taken at registration.
    pub rating: i32,
    /// Withdrawn: paired no more.
    pub withdrawn: bool,
}

/// One pairing of a round, with its game's result once known.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct PairingRow {
    /// The round, from 1.
    pub round: u32,
    /// The table, from 1.
    pub table_no: u32,
    /// The first player's number.
    pub first_no: u32,
    /// The second player's number; none for a bye.
    pub second_no: Option<u32>,
    /// The game, once the round has started.
    pub game_id: Option<Uuid>,
    /// A forfeit the director recorded: `first`, `second` or `both`.
    pub forfeit: Option<String>,
    /// The game's lifecycle state.
    pub game_status: Option<String>,
    /// The first player's final score, once the game is finished.
    pub first_score: Option<i32>,
    /// The second player's final score.
    pub second_score: Option<i32>,
    /// Whether the first player won the finished game (a tie: both won), as the game's
    /// recorded winners say; none until the game is finished and its winners recorded.
    pub first_won: Option<bool>,
    /// Whether the second player won it.
    pub second_won: Option<bool>,
}

/// A tournament in a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    /// Its id.
    pub tournament_id: Uuid,
    /// Its name.
    pub name: String,
    /// The variant.
    pub variant: Variant,
    /// Its lifecycle.
    pub status: TournamentStatus,
    /// The latest round paired.
    pub round: u32,
    /// How many rounds.
    pub rounds: u32,
    /// Registered players (withdrawn ones included).
    pub players: u32,
    /// When it was created.
    pub created_at: DateTime<Utc>,
}

const RECORD_SQL: &str = "SELECT t.tournament_id, t.name, t.variant, t.time_control::text AS time_control, t.challenge_rule, t.rated,
        t.pairing, t.king_of_the_hill, t.rounds, t.draw_seconds, t.spectator_delay, t.status, t.round, t.round_started, t.director_id,
        t.created_at, t.updated_at,
        (SELECT coalesce(json_agg(s), '[]'::json)::text FROM
           (SELECT p.player_no, p.account_id, a.display_name, p.rating, p.withdrawn
            FROM tournament_players p JOIN accounts a ON a.account_id = p.account_id
            WHERE p.tournament_id = t.tournament_id ORDER BY p.player_no) s) AS players,
        (SELECT coalesce(json_agg(s), '[]'::json)::text FROM
           (SELECT x.round, x.table_no, x.first_no, x.second_no, x.game_id, x.forfeit, g.status AS game_status,
                   CASE WHEN g.status = 'finished' THEN f.score END AS first_score,
                   CASE WHEN g.status = 'finished' THEN s.score END AS second_score,
                   CASE WHEN g.status = 'finished' THEN f.seat = ANY(g.winners) END AS first_won,
                   CASE WHEN g.status = 'finished' THEN s.seat = ANY(g.winners) END AS second_won
            FROM tournament_pairings x
            JOIN tournament_players fp ON fp.tournament_id = x.tournament_id AND fp.player_no = x.first_no
            LEFT JOIN tournament_players sp ON sp.tournament_id = x.tournament_id AND sp.player_no = x.second_no
            LEFT JOIN games g ON g.game_id = x.game_id
            LEFT JOIN game_players f ON f.game_id = g.game_id AND f.account_id = fp.account_id
            LEFT JOIN game_players s ON s.game_id = g.game_id AND s.account_id = sp.account_id
            WHERE x.tournament_id = t.tournament_id ORDER BY x.round, x.table_no) s) AS pairings,
        (SELECT coalesce(json_agg(s), '[]'::json)::text FROM
           (SELECT i.account_id, a.display_name, i.state
            FROM tournament_invitations i JOIN accounts a ON a.account_id = i.account_id
            WHERE i.tournament_id = t.tournament_id ORDER BY i.invited_at, i.account_id) s) AS invitations
     FROM tournaments t WHERE t.tournament_id = $1";

impl Store {
    /// Creates a tournament, registering nobody.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists; database errors.
    pub async fn create_tournament(&self, t: &NewTournament) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (tournament_id, name, variant, time_control, challenge_rule, rated, pairing, king_of_the_hill,
                 rounds, draw_seconds, status, director_id, created_at, updated_at, spectator_delay)
             VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, 'registering', $11, $12, $12, $13)",
        )
        .bind(t.tournament_id)
        .bind(&t.settings.name)
        .bind(t.settings.variant.id())
        .bind(serde_json::to_string(&t.settings.time_control).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .bind(t.settings.challenge_rule.id())
        .bind(t.settings.rated)
        .bind(t.settings.pairing.id())
        .bind(t.settings.king_of_the_hill)
        .bind(i16::try_from(t.settings.rounds).unwrap_or(i16::MAX))
        .bind(i32::try_from(t.settings.draw_seconds).unwrap_or(i32::MAX))
        .bind(t.director_id)
        .bind(t.created_at)
        .bind(i16::try_from(t.settings.spectator_delay).unwrap_or(i16::MAX))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The tournament, with its players and pairings.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn tournament(&self, id: Uuid) -> Result<TournamentRecord, StoreError> {
        let mut conn = self.pool.acquire().await?;
        record(&mut conn, id).await
    }

    /// Tournaments, newest first: all, or those `account` is registered in or invited to (an
    /// invitation not yet answered); at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn tournaments(&self, account: Option<Uuid>, limit: u32) -> Result<Vec<TournamentSummary>, StoreError> {
        use sqlx::Row;
        let rows = sqlx::query(
            "SELECT t.tournament_id, t.name, t.variant, t.status, t.round, t.rounds,
                    (SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.tournament_id) AS players, t.created_at
             FROM tournaments t
             WHERE $1::uuid IS NULL OR EXISTS (SELECT 1 FROM tournament_players p WHERE p.tournament_id = t.tournament_id AND p.account_id = $1)
                OR EXISTS (SELECT 1 FROM tournament_invitations i WHERE i.tournament_id = t.tournament_id AND i.account_id = $1 AND i.state = 'invited')
             ORDER BY t.created_at DESC, t.tournament_id DESC LIMIT $2",
        )
        .bind(account)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let variant: String = row.try_get("variant")?;
                Ok(TournamentSummary {
                    tournament_id: row.try_get("tournament_id")?,
                    name: row.try_get("name")?,
                    variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
                    status: TournamentStatus::parse(&row.try_get::<String, _>("status")?)?,
                    round: row.try_get::<i16, _>("round")? as u32,
                    rounds: row.try_get::<i16, _>("rounds")? as u32,
                    players: row.try_get::<i64, _>("players")? as u32,
                    created_at: row.try_get("created_at")?,
                })
            })
            .collect()
    }

    /// The tournament read for a change, its row locked until the change commits or is dropped.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn tournament_for_change(&self, id: Uuid) -> Result<TournamentTx, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT 1 FROM tournaments WHERE tournament_id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        let tournament = record(&mut tx, id).await?;
        Ok(TournamentTx { tx, tournament })
    }

    /// The tournament games still drawing past their deadline, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn overdue_draws(&self, now: DateTime<Utc>, limit: u32) -> Result<Vec<Uuid>, StoreError> {
        Ok(sqlx::query_scalar("SELECT game_id FROM games WHERE status = 'drawing' AND draw_deadline <= $1 ORDER BY draw_deadline LIMIT $2")
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?)
    }
}

async fn record(conn: &mut sqlx::PgConnection, id: Uuid) -> Result<TournamentRecord, StoreError> {
    use sqlx::Row;
    let row = sqlx::query(RECORD_SQL).bind(id).fetch_optional(&mut *conn).await?.ok_or(StoreError::NotFound)?;
    let corrupt = |what: &str, e: &dyn std::fmt::Display| StoreError::Corrupt(format!("tournament {id}: {what}: {e}"));
    let variant: String = row.try_get("variant")?;
    let control: String = row.try_get("time_control")?;
    let challenge: String = row.try_get("challenge_rule")?;
    let players: String = row.try_get("players")?;
    let pairings: String = row.try_get("pairings")?;
    let pairing: String = row.try_get("pairing")?;
    let invitations: String = row.try_get("invitations")?;
    Ok(TournamentRecord {
        tournament_id: row.try_get("tournament_id")?,
        settings: TournamentSettings {
            name: row.try_get("name")?,
            variant: variant.parse().map_err(|e| corrupt("variant", &e))?,
            time_control: serde_json::from_str(&control).map_err(|e| corrupt("time control", &e))?,
            challenge_rule: ChallengeRule::from_id(&challenge).ok_or_else(|| corrupt("challenge rule", &challenge))?,
            rated: row.try_get("rated")?,
            pairing: PairingSystem::from_id(&pairing).ok_or_else(|| corrupt("pairing", &pairing))?,
            king_of_the_hill: row.try_get("king_of_the_hill")?,
            rounds: row.try_get::<i16, _>("rounds")? as u32,
            draw_seconds: row.try_get::<i32, _>("draw_seconds")? as u32,
            spectator_delay: row.try_get::<i16, _>("spectator_delay")? as u32,
        },
        status: TournamentStatus::parse(&row.try_get::<String, _>("status")?)?,
        round: row.try_get::<i16, _>("round")? as u32,
        round_started: row.try_get("round_started")?,
        director_id: row.try_get("director_id")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        players: serde_json::from_str(&players).map_err(|e| corrupt("players", &e))?,
        pairings: serde_json::from_str(&pairings).map_err(|e| corrupt("pairings", &e))?,
        invitations: serde_json::from_str(&invitations).map_err(|e| corrupt("invitations", &e))?,
    })
}

/// A tournament read for a change, its row locked: the director's changes, then
/// [`TournamentTx::commit`]. Dropped without committing, nothing is written.
pub struct TournamentTx {
    tx: sqlx::Transaction<'static, sqlx::Postgres>,
    /// The tournament as read.
    pub tournament: TournamentRecord,
}

impl TournamentTx {
    /// Registers `account` as the next player, seeded at `rating`.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if it is registered already; database errors.
    pub async fn register(&mut self, account: Uuid, rating: i32, now: DateTime<Utc>) -> Result<u32, StoreError> {
        let no = self.tournament.players.len() as i16 + 1;
        sqlx::query(
            "INSERT INTO tournament_players (tournament_id, player_no, account_id, rating, registered_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(self.tournament.tournament_id)
        .bind(no)
        .bind(account)
        .bind(rating)
        .bind(now)
        .execute(&mut *self.tx)
        .await?;
        Ok(no as u32)
    }

    /// Invites `account` (the director's registration): a new invitation, or one the player
    /// declined asked again.
    ///
    /// # Errors
    /// Database errors.
    pub async fn invite(&mut self, account: Uuid, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournament_invitations (tournament_id, account_id, invited_at) VALUES ($1, $2, $3)
             ON CONFLICT (tournament_id, account_id) DO UPDATE SET state = 'invited', invited_at = $3, answered_at = NULL",
        )
        .bind(self.tournament.tournament_id)
        .bind(account)
        .bind(now)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Records the player's answer to their invitation: `accepted` (the caller registers them
    /// in the same transaction) or `declined`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn answer_invitation(&mut self, account: Uuid, accepted: bool, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournament_invitations SET state = $3, answered_at = $4 WHERE tournament_id = $1 AND account_id = $2")
            .bind(self.tournament.tournament_id)
            .bind(account)
            .bind(if accepted { "accepted" } else { "declined" })
            .bind(now)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Takes player `player_no` back after a withdrawal (an entry renewed before round 1).
    ///
    /// # Errors
    /// Database errors.
    pub async fn reenter(&mut self, player_no: u32) -> Result<(), StoreError> {
        self.set_withdrawn(player_no, false).await
    }

    /// Withdraws player `player_no`: paired no more, results kept.
    ///
    /// # Errors
    /// Database errors.
    pub async fn withdraw(&mut self, player_no: u32) -> Result<(), StoreError> {
        self.set_withdrawn(player_no, true).await
    }

    async fn set_withdrawn(&mut self, player_no: u32, withdrawn: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournament_players SET withdrawn = $3 WHERE tournament_id = $1 AND player_no = $2")
            .bind(self.tournament.tournament_id)
            .bind(player_no as i16)
            .bind(withdrawn)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Records round `round`'s pairings (`(first, second)`, a bye without a second), table by
    /// table, and makes it the tournament's latest round, running.
    ///
    /// # Errors
    /// Database errors.
    pub async fn pair(&mut self, round: u32, pairings: &[(u32, Option<u32>)], now: DateTime<Utc>) -> Result<(), StoreError> {
        let id = self.tournament.tournament_id;
        let tables: Vec<i16> = (1..=pairings.len() as i16).collect();
        sqlx::query(
            "INSERT INTO tournament_pairings (tournament_id, round, table_no, first_no, second_no)
             SELECT $1, $2, t, f, s FROM UNNEST($3::smallint[], $4::smallint[], $5::smallint[]) AS x(t, f, s)",
        )
        .bind(id)
        .bind(round as i16)
        .bind(&tables)
        .bind(pairings.iter().map(|p| p.0 as i16).collect::<Vec<_>>())
        .bind(pairings.iter().map(|p| p.1.map(|s| s as i16)).collect::<Vec<_>>())
        .execute(&mut *self.tx)
        .await?;
        sqlx::query(
            "UPDATE tournaments SET round = $2, round_started = false, status = 'running', updated_at = $3 WHERE tournament_id = $1",
        )
        .bind(id)
        .bind(round as i16)
        .bind(now)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Starts the latest round: creates its games (each `(table, game)`), links them to their
    /// tables, and marks the round started.
    ///
    /// # Errors
    /// Database errors.
    pub async fn start_round(&mut self, games: &[(u32, NewGame)], now: DateTime<Utc>) -> Result<(), StoreError> {
        let id = self.tournament.tournament_id;
        for (table, game) in games {
            insert_game(&mut self.tx, game).await?;
            sqlx::query("UPDATE tournament_pairings SET game_id = $4 WHERE tournament_id = $1 AND round = $2 AND table_no = $3")
                .bind(id)
                .bind(self.tournament.round as i16)
                .bind(*table as i16)
                .bind(game.game_id)
                .execute(&mut *self.tx)
                .await?;
        }
        sqlx::query("UPDATE tournaments SET round_started = true, updated_at = $2 WHERE tournament_id = $1")
            .bind(id)
            .bind(now)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Records a forfeit at a table of the latest round (`side`: `first`, `second` or `both`),
    /// withdrawing its game if it was not over: the game ends with no result of its own.
    ///
    /// # Errors
    /// Database errors.
    pub async fn forfeit(&mut self, round: u32, table: u32, side: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        let game: Option<Option<Uuid>> = sqlx::query_scalar(
            "UPDATE tournament_pairings SET forfeit = $4 WHERE tournament_id = $1 AND round = $2 AND table_no = $3 RETURNING game_id",
        )
        .bind(self.tournament.tournament_id)
        .bind(round as i16)
        .bind(table as i16)
        .bind(side)
        .fetch_optional(&mut *self.tx)
        .await?;
        if let Some(Some(game)) = game {
            sqlx::query(
                "WITH g AS (UPDATE games SET status = 'withdrawn', turn_deadline = NULL, draw_deadline = NULL, updated_at = $2
                            WHERE game_id = $1 AND status IN ('drawing', 'active') RETURNING game_id)
                 UPDATE game_players p SET game_status = 'withdrawn', my_turn = false, last_activity = $2 FROM g WHERE p.game_id = g.game_id",
            )
            .bind(game)
            .bind(now)
            .execute(&mut *self.tx)
            .await?;
        }
        Ok(())
    }

    /// Closes the tournament.
    ///
    /// # Errors
    /// Database errors.
    pub async fn close(&mut self, now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournaments SET status = 'closed', updated_at = $2 WHERE tournament_id = $1")
            .bind(self.tournament.tournament_id)
            .bind(now)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Commits the changes and reads the tournament again.
    ///
    /// # Errors
    /// Database errors.
    pub async fn commit(mut self) -> Result<TournamentRecord, StoreError> {
        let record = record(&mut self.tx, self.tournament.tournament_id).await?;
        self.tx.commit().await?;
        Ok(record)
    }
}
