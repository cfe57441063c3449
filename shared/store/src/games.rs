//! Games, their seats and their journal; the locked read-modify-write of a move.

use chrono::{DateTime, Utc};
use games::{EndReason, Variant};
use sqlx::pool::PoolConnection;
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use crate::accounts::{Account, AccountKind, RobotLevel};
use crate::{Conflict, Store, StoreError};

/// A game's lifecycle (serialized as its stored name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players to fill its seats.
    Open,
    /// Being played.
    Active,
    /// Over.
    Finished,
    /// Withdrawn by its opener before anyone joined: no result.
    Withdrawn,
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl GameStatus {
    /// The stored name.
    pub const fn id(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Withdrawn => "withdrawn",
        }
    }

    /// Every status.
    pub const ALL: [GameStatus; 4] = [GameStatus::Open, GameStatus::Active, GameStatus::Finished, GameStatus::Withdrawn];

    /// The status with this stored name.
    pub fn from_id(id: &str) -> Option<GameStatus> {
        GameStatus::ALL.into_iter().find(|s| s.id() == id)
    }

    pub(crate) fn parse(s: &str) -> Result<GameStatus, StoreError> {
        GameStatus::from_id(s).ok_or_else(|| StoreError::Corrupt(format!("game status {s:?}")))
    }
}

/// A seat and who holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The seat, 0-based.
    pub seat: usize,
    /// The account in it; `None` while the seat is open.
    pub account: Option<Account>,
    /// Whether the account is invited (a rematch) and has not accepted yet.
    pub invited: bool,
}

/// A game as stored, with its seats and journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The bag's seed.
    pub seed: u64,
    /// Number of seats.
    pub seats: usize,
    /// Tile family: whether the no-repeat-words rule applies, pinned at creation.
    pub no_repeat_words: Option<bool>,
    /// The family's setup as it wrote it (JSON), if stored (tile games from before 0006 have
    /// none: their columns are their setup).
    pub setup: Option<String>,
    /// Lifecycle state.
    pub status: GameStatus,
    /// Journal length.
    pub move_count: u32,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// When the current turn times out.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Seats in order.
    pub players: Vec<Player>,
    /// The journal's entries in order, as a JSON array of what each family wrote (the family
    /// reads it).
    pub journal: String,
    /// The recorded first-move draw, in order.
    pub draws: Vec<DrawRow>,
    /// The game row's version when read (its `xmin`): every change to a game rewrites its
    /// row, so an unchanged version means an unchanged game.
    pub version: String,
}

/// What a reader already holds of a game: its row version and the parts of its record that
/// change only with the version (the journal and the draw). A read that names it leaves those
/// parts out of its statement and takes them from it while the game is still at that version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownGame {
    /// The game row's version.
    pub version: String,
    /// The journal, as [`GameRecord::journal`].
    pub journal: String,
    /// The draw, as [`GameRecord::draws`].
    pub draws: Vec<DrawRow>,
}

impl KnownGame {
    /// What `record` says of its game.
    pub fn of(record: &GameRecord) -> KnownGame {
        KnownGame { version: record.version.clone(), journal: record.journal.clone(), draws: record.draws.clone() }
    }
}

impl GameRecord {
    /// The game as its family reads it back: the setup columns, the setup as data and the
    /// journal.
    pub fn stored(&self) -> games::Stored<'_> {
        games::Stored {
            variant: self.variant,
            seats: self.seats,
            seed: self.seed,
            no_repeat_words: self.no_repeat_words,
            setup: self.setup.as_deref(),
            journal: &self.journal,
        }
    }
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The bag's seed.
    pub seed: u64,
    /// Tile family: whether the no-repeat-words rule applies.
    pub no_repeat_words: Option<bool>,
    /// The family's setup as data (JSON).
    pub setup: String,
    /// Initial status.
    pub status: GameStatus,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// The first turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it is created, by the service's clock (the sweep expires open games by it).
    pub created_at: DateTime<Utc>,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Seats whose account is invited (a rematch's other humans): seated, but the game waits
    /// for them to accept.
    pub invited: Vec<bool>,
    /// The account in each seat, seat 0 first (`None` = open).
    pub seats: Vec<Option<Uuid>>,
    /// The first-move draw, every tile drawn.
    pub draws: Vec<DrawRow>,
    /// For an open game: how many open games of the variant its opener (seated in the game) may
    /// have at once, this one included; checked under a lock on the opener's account.
    pub open_limit: Option<u32>,
}

/// One tile of the recorded first-move draw.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct DrawRow {
    /// Round, from 1.
    pub round: i16,
    /// Pick within the round, from 1.
    pub pick_no: i16,
    /// Who drew (`None` for an auto-match placeholder not yet replaced).
    pub account_id: Option<Uuid>,
    /// The tile drawn, upper case, `?` for a blank; none for a lot (the chain's draw).
    pub letter: Option<String>,
    /// Whether it was a blank.
    pub is_blank: bool,
    /// The rank drawn, lowest leads: −1 for a blank, else the letter's alphabet index; a lot's
    /// number.
    pub rank: i16,
}

/// A game waiting for an opponent, as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenGameSummary {
    /// Its id.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// When it was opened.
    pub created_at: DateTime<Utc>,
    /// Seconds per turn, if timed.
    pub turn_seconds: Option<i32>,
    /// Who opened it.
    pub opener: Account,
}

/// The columns of `games` a move changes.
#[derive(Debug, Clone)]
pub struct GameUpdate {
    /// New journal length.
    pub move_count: u32,
    /// New status.
    pub status: GameStatus,
    /// The next turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// Why the game ended, if it just did.
    pub end_reason: Option<EndReason>,
    /// The seat to move next (none once over).
    pub to_move: Option<u8>,
    /// Every seat's score, seat 0 first.
    pub scores: Vec<i32>,
}

impl Store {
    /// Begins a new game: inserts it with its seats and draw in a transaction that stays open,
    /// so the moves that follow at once (a robot that won the draw) commit with it
    /// ([`GameTx::finish`]); dropped without finishing, nothing is written.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id exists or an account is seated twice;
    /// [`StoreError::TooManyOpenGames`] past [`NewGame::open_limit`]; database errors.
    pub async fn create_game(&self, game: &NewGame) -> Result<GameTx, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let (Some(limit), Some(opener)) = (game.open_limit, game.seats.iter().flatten().next()) {
            // The account row is the lock: two concurrent opens by one account run in turn.
            sqlx::query("SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE").bind(opener).fetch_one(&mut *tx).await?;
            let open: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM game_players p JOIN games g ON g.game_id = p.game_id
                 WHERE p.account_id = $1 AND g.status = 'open' AND g.variant = $2",
            )
            .bind(opener)
            .bind(game.variant.id())
            .fetch_one(&mut *tx)
            .await?;
            if open >= i64::from(limit) {
                return Err(StoreError::TooManyOpenGames { limit });
            }
        }
        sqlx::query(
            "INSERT INTO games (game_id, variant, seed, seats, no_repeat_words, status, turn_seconds, turn_deadline, setup, created_at, updated_at, rematch_of)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json, $10, $10, $11)",
        )
        .bind(game.game_id)
        .bind(game.variant.id())
        .bind(game.seed as i64)
        .bind(game.seats.len() as i16)
        .bind(game.no_repeat_words)
        .bind(game.status.id())
        .bind(game.turn_seconds)
        .bind(game.turn_deadline)
        .bind(&game.setup)
        .bind(game.created_at)
        .bind(game.rematch_of)
        .execute(&mut *tx)
        .await?;
        let seats: Vec<i16> = (0..game.seats.len() as i16).collect();
        sqlx::query(
            "INSERT INTO game_players (game_id, seat, account_id, game_status, invited)
             SELECT $1, s, a, $4, coalesce(($5::bool[])[s + 1], false) FROM UNNEST($2::smallint[], $3::uuid[]) AS x(s, a)",
        )
        .bind(game.game_id)
        .bind(&seats)
        .bind(&game.seats)
        .bind(game.status.id())
        .bind(&game.invited)
        .execute(&mut *tx)
        .await?;
        let d = &game.draws;
        sqlx::query(
            "INSERT INTO game_setup_draws (game_id, round, pick_no, account_id, letter, is_blank, rank)
             SELECT $1, r, p, a, l, b, k FROM UNNEST($2::smallint[], $3::smallint[], $4::uuid[], $5::text[], $6::bool[], $7::smallint[]) AS x(r, p, a, l, b, k)",
        )
        .bind(game.game_id)
        .bind(d.iter().map(|d| d.round).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.pick_no).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.account_id).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.letter.clone()).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.is_blank).collect::<Vec<_>>())
        .bind(d.iter().map(|d| d.rank).collect::<Vec<_>>())
        .execute(&mut *tx)
        .await?;
        let (game, _) = load(&mut tx, game.game_id, None, None).await?;
        Ok(GameTx { conn: Held::Locked(tx), game, client_move: None })
    }

    /// Open games (of `variant`, if given) that `caller` is not seated in, oldest first, from
    /// just after `after` (the creation time and id of the last game of the previous page).
    ///
    /// # Errors
    /// Database errors; [`StoreError::Corrupt`] for an unreadable row.
    pub async fn open_games(
        &self,
        variant: Option<Variant>,
        caller: Uuid,
        after: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> Result<Vec<OpenGameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.game_id, g.variant, g.created_at AS game_created_at, g.turn_seconds,
                    a.account_id, a.display_name, a.kind, a.robot_level, a.created_at
             FROM games g
             JOIN game_players p ON p.game_id = g.game_id
             JOIN accounts a ON a.account_id = p.account_id
             WHERE g.status = 'open' AND ($1::text IS NULL OR g.variant = $1)
               AND NOT EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.game_id AND (q.account_id = $2 OR q.invited))
               AND ($4::timestamptz IS NULL OR (g.created_at, g.game_id) > ($4, $5))
             ORDER BY g.created_at, g.game_id
             LIMIT $3",
        )
        .bind(variant.map(Variant::id))
        .bind(caller)
        .bind(limit)
        .bind(after.map(|a| a.0))
        .bind(after.map(|a| a.1))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let variant: String = r.try_get("variant")?;
                Ok(OpenGameSummary {
                    game_id: r.try_get("game_id")?,
                    variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
                    created_at: r.try_get("game_created_at")?,
                    turn_seconds: r.try_get("turn_seconds")?,
                    opener: crate::accounts::account_from_row(r)?,
                })
            })
            .collect()
    }

    /// The game `id` with its seats and journal.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Corrupt`] for an unreadable journal row.
    pub async fn game(&self, id: Uuid) -> Result<GameRecord, StoreError> {
        self.game_since(id, None).await
    }

    /// The game `id`, as [`Store::game`]; its journal and draw come from `known` when the game
    /// is still at `known`'s version.
    ///
    /// # Errors
    /// As [`Store::game`].
    pub async fn game_since(&self, id: Uuid, known: Option<&KnownGame>) -> Result<GameRecord, StoreError> {
        let mut conn = self.pool.acquire().await?;
        Ok(load(&mut conn, id, None, known).await?.0)
    }

    /// The rematch of the finished game `id`, if one was made.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rematch_of(&self, id: Uuid) -> Result<Option<Uuid>, StoreError> {
        Ok(sqlx::query_scalar("SELECT game_id FROM games WHERE rematch_of = $1").bind(id).fetch_optional(&self.pool).await?)
    }

    /// The game's move count and status, and whether `account_id` sits in it (invited or not),
    /// in one small query: for a conditional read that must not load the game.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn game_version(&self, id: Uuid, account_id: Uuid) -> Result<(u32, GameStatus, bool), StoreError> {
        let row = sqlx::query(
            "SELECT g.move_count, g.status,
                    EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.game_id AND p.account_id = $2) AS seated
             FROM games g WHERE g.game_id = $1",
        )
        .bind(id)
        .bind(account_id)
        .fetch_one(&self.pool)
        .await?;
        let status: String = row.try_get("status")?;
        Ok((row.try_get::<i32, _>("move_count")? as u32, GameStatus::parse(&status)?, row.try_get("seated")?))
    }

    /// Begins a change: locks the game row (`SELECT … FOR UPDATE`) and loads it, so concurrent
    /// changes to one game run one after another (a submit read without the lock waits for it
    /// at its write, then finds the game changed). With `client_move_id`, also finds the move
    /// already recorded under that id, if any ([`GameTx::client_move`]).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn lock_game(&self, id: Uuid, client_move_id: Option<Uuid>) -> Result<GameTx, StoreError> {
        self.lock_game_since(id, client_move_id, None).await
    }

    /// [`Store::lock_game`], with the journal and draw taken from `known` when the game is
    /// still at its version.
    ///
    /// # Errors
    /// As [`Store::lock_game`].
    pub async fn lock_game_since(&self, id: Uuid, client_move_id: Option<Uuid>, known: Option<&KnownGame>) -> Result<GameTx, StoreError> {
        // BEGIN and the lock go in one simple query, one round trip; the id is a UUID, printed
        // as hex and dashes only. Lock first, then load in a new statement: under READ COMMITTED
        // a statement that waited for the lock re-reads only the locked row, so the journal must
        // be read after it. An unknown id locks nothing and the load reports it.
        let mut tx = begin_locked(&self.pool, id).await?;
        let (game, client_move) = load(&mut tx, id, client_move_id, known).await?;
        Ok(GameTx { conn: Held::Locked(tx), game, client_move })
    }

    /// Begins a move without a lock: loads the game on a connection that the move's write then
    /// uses, in one statement that applies only if the game is still as loaded (its row
    /// version); otherwise [`GameTx::finish`] writes nothing and reports a conflict, and the
    /// caller reads the game again. Two round trips for a move in all, against four with
    /// [`Store::lock_game`]; the lock is for writers that change several statements' worth.
    /// The journal and draw come from `known` when the game is still at its version.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; database errors.
    pub async fn read_game_for_move(
        &self,
        id: Uuid,
        client_move_id: Option<Uuid>,
        known: Option<&KnownGame>,
    ) -> Result<GameTx, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let (game, client_move) = load(&mut conn, id, client_move_id, known).await?;
        Ok(GameTx { conn: Held::Unlocked { conn, pool: self.pool.clone() }, game, client_move })
    }
}

/// Seats and journal come back in the same statement as the game row, as JSON text parsed
/// straight into their types: one round trip per load. Each list is ordered in a subquery and
/// aggregated without an ORDER BY of its own, which PostgreSQL would run as a separate sort per
/// aggregate: about a third of the statement's time. The journal and draw are left out (NULL)
/// when the game row is still at the version `$3` the caller already holds them for.
const LOAD_SQL: &str = "SELECT g.game_id, g.variant, g.seed, g.seats, g.no_repeat_words, g.status, g.move_count, g.turn_seconds,
        g.turn_deadline, g.created_at, g.updated_at, g.finished_at, g.end_reason, g.setup::text AS setup, g.rematch_of,
        g.xmin::text AS version,
        (SELECT coalesce(json_agg(s), '[]'::json)::text
           FROM (SELECT p.seat, p.invited, a.account_id, a.display_name, a.kind, a.robot_level, a.created_at
                 FROM game_players p LEFT JOIN accounts a ON a.account_id = p.account_id
                 WHERE p.game_id = g.game_id ORDER BY p.seat) s) AS players,
        CASE WHEN g.xmin::text = $3::text THEN NULL ELSE
          (SELECT coalesce(json_agg(s.entry), '[]'::json)::text
             FROM (SELECT m.entry FROM game_moves m WHERE m.game_id = g.game_id ORDER BY m.move_no) s) END AS journal,
        (SELECT json_build_object('move_no', m.move_no, 'seat', m.seat, 'request_hash', encode(m.request_hash, 'hex'),
                 'response', m.response)::text
           FROM game_moves m WHERE m.game_id = g.game_id AND m.client_move_id = $2) AS client_move,
        CASE WHEN g.xmin::text = $3::text THEN NULL ELSE
          (SELECT coalesce(json_agg(s), '[]'::json)::text
             FROM (SELECT d.round, d.pick_no, d.account_id, d.letter, d.is_blank, d.rank
                   FROM game_setup_draws d WHERE d.game_id = g.game_id ORDER BY d.round, d.pick_no) s) END AS draws
     FROM games g WHERE g.game_id = $1";

/// A seat as the load query returns it.
#[derive(serde::Deserialize)]
struct SeatRow {
    seat: i16,
    invited: bool,
    account_id: Option<Uuid>,
    display_name: Option<String>,
    kind: Option<String>,
    robot_level: Option<String>,
    created_at: Option<DateTime<Utc>>,
}

/// A move recorded under a client move id, as the load query returns it.
#[derive(serde::Deserialize)]
struct ClientMoveRow {
    move_no: u32,
    seat: u8,
    request_hash: Option<String>,
    response: Option<String>,
}

/// The game and the move recorded with `client_move_id` if one is given; the journal and draw
/// from `known` if the game is still at its version.
async fn load(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    client_move_id: Option<Uuid>,
    known: Option<&KnownGame>,
) -> Result<(GameRecord, Option<ClientMove>), StoreError> {
    let row = sqlx::query(LOAD_SQL).bind(id).bind(client_move_id).bind(known.map(|k| k.version.as_str())).fetch_one(&mut *conn).await?;
    let client_move: Option<String> = row.try_get("client_move")?;
    let version: String = row.try_get("version")?;
    let variant: String = row.try_get("variant")?;
    let status: String = row.try_get("status")?;
    let seats: i16 = row.try_get("seats")?;
    let move_count: i32 = row.try_get("move_count")?;
    let seed: i64 = row.try_get("seed")?;
    let corrupt = |what: &str, e: serde_json::Error| StoreError::Corrupt(format!("{what}: {e}"));
    let players: String = row.try_get("players")?;
    let players = serde_json::from_str::<Vec<SeatRow>>(&players)
        .map_err(|e| corrupt("seats", e))?
        .into_iter()
        .map(|r| {
            let account = match (r.account_id, r.display_name, r.kind, r.created_at) {
                (Some(account_id), Some(display_name), Some(kind), Some(created_at)) => Some(Account {
                    account_id,
                    display_name,
                    kind: AccountKind::parse(&kind)?,
                    robot_level: RobotLevel::parse_stored(r.robot_level.as_deref())?,
                    created_at,
                }),
                _ => None,
            };
            Ok(Player { seat: r.seat as usize, account, invited: r.invited })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let (journal, draws) = match (row.try_get::<Option<String>, _>("journal")?, row.try_get::<Option<String>, _>("draws")?, known) {
        (Some(journal), Some(draws), _) => (journal, serde_json::from_str(&draws).map_err(|e| corrupt("draw", e))?),
        // Left out: the game is at the known version.
        (None, None, Some(known)) if known.version == version => (known.journal.clone(), known.draws.clone()),
        _ => return Err(StoreError::Corrupt(format!("game {id}: journal or draw missing at version {version}"))),
    };
    let record = GameRecord {
        game_id: row.try_get("game_id")?,
        variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
        seed: seed as u64,
        seats: seats as usize,
        no_repeat_words: row.try_get("no_repeat_words")?,
        status: GameStatus::parse(&status)?,
        move_count: move_count as u32,
        turn_seconds: row.try_get("turn_seconds")?,
        turn_deadline: row.try_get("turn_deadline")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get("finished_at")?,
        rematch_of: row.try_get("rematch_of")?,
        end_reason: row
            .try_get::<Option<String>, _>("end_reason")?
            .map(|r| EndReason::parse(&r).ok_or_else(|| StoreError::Corrupt(format!("end reason {r:?}"))))
            .transpose()?,
        setup: row.try_get("setup")?,
        players,
        journal,
        draws,
        version,
    };
    let client_move = client_move
        .map(|text| {
            let r: ClientMoveRow = serde_json::from_str(&text).map_err(|e| corrupt("client move", e))?;
            let request_hash =
                r.request_hash.map(|h| decode_hex(&h).ok_or_else(|| StoreError::Corrupt(format!("request hash {h:?}")))).transpose()?;
            Ok::<_, StoreError>(ClientMove { move_no: r.move_no, seat: r.seat, request_hash, response: r.response })
        })
        .transpose()?;
    Ok((record, client_move))
}

/// Bytes from lower-case hex, as PostgreSQL's `encode(…, 'hex')` writes them.
fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect()
}

/// A move already recorded under the client move id a request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientMove {
    /// Its number in the journal.
    pub move_no: u32,
    /// The seat that made it.
    pub seat: u8,
    /// The hash of the request that made it (absent for moves recorded before requests were
    /// bound to their key).
    pub request_hash: Option<Vec<u8>>,
    /// The answer that request got, as sent.
    pub response: Option<String>,
}

/// A move to append: what every family's journal row has (the entry as its family wrote it,
/// and the facts queries need) and, for a client's own move, its key, the hash of its request
/// and the answer to return to a retry of it.
#[derive(Debug, Clone)]
pub struct NewMove {
    /// Its number in the journal.
    pub move_no: u32,
    /// The seat that moved.
    pub seat: u8,
    /// Its kind.
    pub kind: games::MoveKind,
    /// Its points.
    pub score: i32,
    /// The entry, as JSON.
    pub entry: String,
    /// The client's idempotency key.
    pub client_move_id: Option<Uuid>,
    /// The hash of the request, with the key.
    pub request_hash: Option<[u8; 32]>,
    /// The answer, with the key.
    pub response: Option<String>,
}

/// A game read for a change: read it, append moves, update it, commit. Dropped without
/// [`GameTx::finish`] (or [`GameTx::withdraw`]), nothing is written.
pub struct GameTx {
    conn: Held,
    /// The game as loaded.
    pub game: GameRecord,
    /// The move already recorded under the client move id the game was read with.
    pub client_move: Option<ClientMove>,
}

/// How a [`GameTx`] holds its connection.
enum Held {
    /// In a transaction holding the game row's lock.
    Locked(Transaction<'static, Postgres>),
    /// Without a transaction: the write checks the version instead.
    Unlocked {
        /// The connection the game was read on.
        conn: PoolConnection<Postgres>,
        /// Its pool, to begin a transaction from.
        pool: sqlx::PgPool,
    },
}

impl GameTx {
    /// The transaction with the game row locked, begun now if the game was read without a lock
    /// (then [`StoreError::Conflict`] if the game has changed since).
    async fn locked(&mut self) -> Result<&mut Transaction<'static, Postgres>, StoreError> {
        if let Held::Unlocked { pool, .. } = &self.conn {
            let pool = pool.clone();
            let id = self.game.game_id;
            let mut tx = begin_locked(&pool, id).await?;
            let version: Option<String> =
                sqlx::query_scalar("SELECT xmin::text FROM games WHERE game_id = $1").bind(id).fetch_optional(&mut *tx).await?;
            if version.as_ref() != Some(&self.game.version) {
                return Err(changed());
            }
            self.conn = Held::Locked(tx);
        }
        match &mut self.conn {
            Held::Locked(tx) => Ok(tx),
            Held::Unlocked { .. } => unreachable!("locked above"),
        }
    }

    /// Seats `account` in the first empty seat and back-fills the placeholder's draw rows with
    /// it; the loaded record follows. Returns the seat.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if no seat is empty or the account is already seated.
    pub async fn fill_open_seat(&mut self, account: &Account) -> Result<usize, StoreError> {
        let seat = self
            .game
            .players
            .iter()
            .find(|p| p.account.is_none())
            .map(|p| p.seat)
            .ok_or_else(|| StoreError::Conflict(Conflict::NoEmptySeat))?;
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query("UPDATE game_players SET account_id = $3 WHERE game_id = $1 AND seat = $2 AND account_id IS NULL")
            .bind(game_id)
            .bind(seat as i16)
            .bind(account.account_id)
            .execute(&mut **tx)
            .await?;
        sqlx::query("UPDATE game_setup_draws SET account_id = $2 WHERE game_id = $1 AND account_id IS NULL")
            .bind(game_id)
            .bind(account.account_id)
            .execute(&mut **tx)
            .await?;
        self.game.players[seat].account = Some(account.clone());
        for d in self.game.draws.iter_mut().filter(|d| d.account_id.is_none()) {
            d.account_id = Some(account.account_id);
        }
        Ok(seat)
    }

    /// Records that the invited account in `seat` accepted; the loaded record follows.
    ///
    /// # Errors
    /// Database errors.
    pub async fn accept_invitation(&mut self, seat: usize) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        sqlx::query("UPDATE game_players SET invited = false WHERE game_id = $1 AND seat = $2")
            .bind(game_id)
            .bind(seat as i16)
            .execute(&mut **tx)
            .await?;
        self.game.players[seat].invited = false;
        Ok(())
    }

    /// Marks the open game withdrawn (no result, nobody's loss) and commits.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game is no longer open; database errors.
    pub async fn withdraw(mut self) -> Result<(), StoreError> {
        let game_id = self.game.game_id;
        let tx = self.locked().await?;
        let done = sqlx::query(
            "UPDATE games SET status = 'withdrawn', turn_deadline = NULL, updated_at = now() WHERE game_id = $1 AND status = 'open'",
        )
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict(Conflict::NotOpen));
        }
        mark_players(tx, game_id, GameStatus::Withdrawn).await?;
        if let Held::Locked(tx) = self.conn {
            tx.commit().await?;
        }
        Ok(())
    }

    /// Appends `moves` (each at its own `move_no`, with its client move id) and updates the game
    /// and its seats in one statement, applied only while the game row is as it was loaded,
    /// then commits: four round trips for a locked game (begin with the lock, load, this,
    /// commit), two for one read without a lock (load, this). Returns the game as now known:
    /// its new version, its journal with `moves` appended, its draw.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game changed since it was read or a move number or
    /// client move id is taken (nothing is then written); database errors.
    pub async fn finish(mut self, moves: &[NewMove], update: &GameUpdate) -> Result<KnownGame, StoreError> {
        let entries: Vec<&str> = moves.iter().map(|m| m.entry.as_str()).collect();
        let journal = appended(&self.game.journal, &entries)
            .ok_or_else(|| StoreError::Corrupt(format!("game {}: the journal is not a JSON array", self.game.game_id)))?;
        let mut cols = MoveColumns::default();
        for m in moves {
            cols.move_no.push(m.move_no as i32);
            cols.seat.push(i16::from(m.seat));
            cols.kind.push(m.kind.id().to_string());
            cols.score.push(m.score);
            cols.entry.push(m.entry.clone());
            cols.client_move_id.push(m.client_move_id);
            cols.request_hash.push(m.request_hash.map(|h| h.to_vec()));
            cols.response.push(m.response.clone());
        }
        let conn: &mut sqlx::PgConnection = match &mut self.conn {
            Held::Locked(tx) => tx,
            Held::Unlocked { conn, .. } => conn,
        };
        // The game row's update comes first and the other writes read its result: a game
        // changed since it was loaded (another request's move committed in between) is left
        // as it is, and so are its journal and seats.
        let version: Option<String> = sqlx::query_scalar(
            "WITH game AS (
                 UPDATE games SET move_count = $8, status = $9, turn_deadline = $10, end_reason = $11, updated_at = now(),
                     finished_at = CASE WHEN $9 = 'finished' THEN coalesce(finished_at, now()) ELSE NULL END
                 WHERE game_id = $1 AND xmin::text = $12
                 RETURNING xmin::text AS version)
             , appended AS (
                 INSERT INTO game_moves (game_id, move_no, seat, kind, score, entry, client_move_id, request_hash, response)
                 SELECT $1, n, s, k, sc, e::json, c, h, r
                 FROM UNNEST($2::int[], $3::smallint[], $4::text[], $5::int[], $6::text[], $7::uuid[], $13::bytea[], $14::text[])
                      AS x(n, s, k, sc, e, c, h, r)
                 WHERE EXISTS (SELECT 1 FROM game)
                 RETURNING 1)
             , seats AS (
                 UPDATE game_players SET game_status = $9, last_activity = now(), my_turn = coalesce(seat = $15, false),
                     score = coalesce(($16::int[])[seat + 1], 0)
                 WHERE game_id = $1 AND EXISTS (SELECT 1 FROM game)
                 RETURNING 1)
             SELECT (SELECT version FROM game)",
        )
        .bind(self.game.game_id)
        .bind(&cols.move_no)
        .bind(&cols.seat)
        .bind(&cols.kind)
        .bind(&cols.score)
        .bind(&cols.entry)
        .bind(&cols.client_move_id)
        .bind(update.move_count as i32)
        .bind(update.status.id())
        .bind(update.turn_deadline)
        .bind(update.end_reason.map(EndReason::id))
        .bind(&self.game.version)
        .bind(&cols.request_hash)
        .bind(&cols.response)
        .bind(update.to_move.map(i16::from))
        .bind(&update.scores)
        .fetch_one(&mut *conn)
        .await?;
        let Some(version) = version else {
            return Err(changed());
        };
        if let Held::Locked(tx) = self.conn {
            tx.commit().await?;
        }
        Ok(KnownGame { version, journal, draws: std::mem::take(&mut self.game.draws) })
    }
}

/// The JSON array `journal` with `entries` (each a JSON value) appended, in the layout
/// `json_agg` writes; `None` if `journal` is not an array.
fn appended(journal: &str, entries: &[&str]) -> Option<String> {
    let items = journal.trim().strip_prefix('[')?.strip_suffix(']')?.trim_end();
    let mut out = String::with_capacity(journal.len() + entries.iter().map(|e| e.len() + 4).sum::<usize>());
    out.push('[');
    out.push_str(items);
    for e in entries {
        if out.len() > 1 {
            out.push_str(", ");
        }
        out.push_str(e);
    }
    out.push(']');
    Some(out)
}

/// A transaction holding the lock on game `id`'s row: `BEGIN` and the lock in one simple query,
/// one round trip (the id is a UUID, printed as hex and dashes only).
async fn begin_locked(pool: &sqlx::PgPool, id: Uuid) -> Result<Transaction<'static, Postgres>, StoreError> {
    Ok(pool.begin_with(format!("BEGIN; SELECT 1 FROM games WHERE game_id = '{id}' FOR UPDATE")).await?)
}

/// The conflict of a write to a game that changed since it was read.
fn changed() -> StoreError {
    StoreError::Conflict(Conflict::Changed)
}

/// Sets the status every seat row of `game_id` lists and marks it as just changed, nobody's turn.
pub(crate) async fn mark_players(conn: &mut sqlx::PgConnection, game_id: Uuid, status: GameStatus) -> Result<(), StoreError> {
    sqlx::query("UPDATE game_players SET game_status = $2, last_activity = now(), my_turn = false WHERE game_id = $1")
        .bind(game_id)
        .bind(status.id())
        .execute(conn)
        .await?;
    Ok(())
}

/// Journal rows as column arrays, for one multi-row insert.
#[derive(Default)]
struct MoveColumns {
    move_no: Vec<i32>,
    seat: Vec<i16>,
    kind: Vec<String>,
    score: Vec<i32>,
    entry: Vec<String>,
    client_move_id: Vec<Option<Uuid>>,
    request_hash: Vec<Option<Vec<u8>>>,
    response: Vec<Option<String>>,
}

#[cfg(test)]
mod tests {
    use super::appended;

    #[test]
    fn entries_are_appended_to_a_journal_as_json_agg_lays_it_out() {
        assert_eq!(appended("[]", &[]).as_deref(), Some("[]"));
        assert_eq!(appended("[]", &["{\"a\":1}", "2"]).as_deref(), Some("[{\"a\":1}, 2]"));
        assert_eq!(appended("[{\"a\":1}, \n {\"b\":2}]", &["3"]).as_deref(), Some("[{\"a\":1}, \n {\"b\":2}, 3]"));
        assert_eq!(appended("[1]", &[]).as_deref(), Some("[1]"));
        for bad in ["", "{}", "[1", "1]"] {
            assert_eq!(appended(bad, &["2"]), None, "{bad:?}");
        }
    }
}
