//! Row decoding: the load statement's row, its seats and journal as JSON text, into a record.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::postgres::PgRow;
use uuid::Uuid;
use vocabulary::{EndReason, TimeControl};

use super::{ClientMove, GameRecord, KnownGame, Player};
use crate::accounts::{Account, AccountKind};
use crate::{GameStatus, StoreError};

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
    #[serde(default)]
    spectating: Option<String>,
    hints_used: i16,
}

/// A move recorded under a client move id, as the load query returns it.
#[derive(serde::Deserialize)]
struct ClientMoveRow {
    move_no: u32,
    seat: u8,
    request_hash: Option<String>,
    response: Option<String>,
}

/// The game in `row` (the load statement's) and the move recorded under the client move id it
/// was read with; the journal and draw from `known` when the row left them out.
pub(super) fn game_from_row(row: &PgRow, id: Uuid, known: Option<&KnownGame>) -> Result<(GameRecord, Option<ClientMove>), StoreError> {
    let client_move: Option<String> = row.try_get("client_move")?;
    let version: String = row.try_get("version")?;
    let variant: String = row.try_get("variant")?;
    let status: String = row.try_get("status")?;
    let seats: i16 = row.try_get("seats")?;
    let move_count: i32 = row.try_get("move_count")?;
    let seed: i64 = row.try_get("seed")?;
    let corrupt = |what: &str, e: serde_json::Error| StoreError::Corrupt(format!("{what}: {e}"));
    let players = players_of(&row.try_get::<String, _>("players")?)?;
    let parts = (
        row.try_get::<Option<String>, _>("journal")?,
        row.try_get::<Option<String>, _>("move_times")?,
        row.try_get::<Option<String>, _>("draws")?,
    );
    let (journal, move_times, draws) = match (parts, known) {
        ((Some(journal), Some(times), Some(draws)), _) => (
            journal,
            serde_json::from_str(&times).map_err(|e| corrupt("move times", e))?,
            serde_json::from_str(&draws).map_err(|e| corrupt("draw", e))?,
        ),
        // Left out: the game is at the known version.
        ((None, None, None), Some(known)) if known.version == version => {
            (known.journal.clone(), known.move_times.clone(), known.draws.clone())
        }
        _ => return Err(StoreError::Corrupt(format!("game {id}: journal or draw missing at version {version}"))),
    };
    let time_control = time_control_of(row)?;
    let record = GameRecord {
        game_id: row.try_get("game_id")?,
        variant: variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))?,
        seed: seed as u64,
        seats: seats as usize,
        no_repeat_words: row.try_get("no_repeat_words")?,
        status: GameStatus::parse(&status)?,
        move_count: move_count as u32,
        time_control,
        turn_deadline: row.try_get("turn_deadline")?,
        started_at: row.try_get("started_at")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get("finished_at")?,
        rematch_of: row.try_get("rematch_of")?,
        invited_by: row.try_get("invited_by")?,
        end_reason: row
            .try_get::<Option<String>, _>("end_reason")?
            .map(|r| EndReason::parse(&r).ok_or_else(|| StoreError::Corrupt(format!("end reason {r:?}"))))
            .transpose()?,
        setup: row.try_get("setup")?,
        rated: row.try_get("rated")?,
        pair_limited: row.try_get("pair_limited")?,
        outages: match row.try_get::<Option<String>, _>("outages")? {
            Some(text) => serde_json::from_str(&text).map_err(|e| corrupt("outages", e))?,
            None => Vec::new(),
        },
        rating_range: row.try_get::<Option<i32>, _>("rating_range")?.and_then(|r| u32::try_from(r).ok()),
        tournament_id: row.try_get("tournament_id")?,
        draw_deadline: row.try_get("draw_deadline")?,
        hints_allowed: row.try_get::<Option<i16>, _>("hints_allowed")?.and_then(|h| u32::try_from(h).ok()),
        ratings: match row.try_get::<Option<String>, _>("ratings")? {
            Some(text) => serde_json::from_str(&text).map_err(|e| corrupt("ratings", e))?,
            None => Vec::new(),
        },
        players,
        journal,
        move_times,
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

/// The variant of a row with a `variant` column.
pub(crate) fn variant_of(row: &PgRow) -> Result<vocabulary::Variant, StoreError> {
    let variant: String = row.try_get("variant")?;
    variant.parse().map_err(|_| StoreError::Corrupt(format!("variant {variant:?}")))
}

/// The time control of a row with `time_control` (as text) and `turn_seconds` columns: a game
/// from before controls reads as what it was (correspondence with no bank, or untimed).
pub(crate) fn time_control_of(row: &PgRow) -> Result<TimeControl, StoreError> {
    match row.try_get::<Option<String>, _>("time_control")? {
        Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt(format!("time control: {e}"))),
        None => Ok(TimeControl::from_turn_seconds(row.try_get::<Option<i32>, _>("turn_seconds")?.and_then(|t| u32::try_from(t).ok()))),
    }
}

/// The SQL of a game row's challenge rule (`g` the games row): pinned in its setup, absent
/// (void) in a game from before the rules and in every chain game.
pub(crate) const CHALLENGE_SQL: &str = "coalesce(g.setup->>'challenge', 'void') AS challenge_rule";

/// A game row's challenge rule, as [`CHALLENGE_SQL`] selects it.
pub(crate) fn challenge_of(row: &PgRow) -> Result<vocabulary::ChallengeRule, StoreError> {
    let id: String = row.try_get("challenge_rule")?;
    vocabulary::ChallengeRule::from_id(&id).ok_or_else(|| StoreError::Corrupt(format!("challenge rule {id:?}")))
}

/// The SQL of a game row's rating speed (`g` the games row): real time for a real-time control,
/// correspondence for the rest.
pub(crate) const SPEED_SQL: &str =
    "CASE WHEN coalesce(g.time_control->>'kind', 'none') = 'realtime' THEN 'realtime' ELSE 'correspondence' END";

/// The SQL of a game row's control kind (`g` the games row), games from before controls
/// included: what the lobby filters on.
pub(crate) const CONTROL_KIND_SQL: &str =
    "coalesce(g.time_control->>'kind', CASE WHEN g.turn_seconds IS NULL THEN 'none' ELSE 'correspondence' END)";

/// Bytes from lower-case hex, as PostgreSQL's `encode(…, 'hex')` writes them.
fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect()
}

/// The SQL of a game's seats (`g` the games row), as the `players` column [`players_of`] reads.
pub(crate) const PLAYERS_SQL: &str = "(SELECT coalesce(json_agg(s), '[]'::json)::text
           FROM (SELECT p.seat, p.invited, p.hints_used, a.account_id, a.display_name, a.kind, a.robot_level, a.created_at, a.spectating
                 FROM game_players p LEFT JOIN accounts a ON a.account_id = p.account_id
                 WHERE p.game_id = g.game_id ORDER BY p.seat) s) AS players";

/// The seats in `json` (the load statement's `players` column: a JSON array of seat rows).
pub(crate) fn players_of(json: &str) -> Result<Vec<Player>, StoreError> {
    serde_json::from_str::<Vec<SeatRow>>(json)
        .map_err(|e| StoreError::Corrupt(format!("seats: {e}")))?
        .into_iter()
        .map(|r| {
            let account = match (r.account_id, r.display_name, r.kind, r.created_at) {
                (Some(account_id), Some(display_name), Some(kind), Some(created_at)) => Some(Account {
                    account_id,
                    display_name,
                    kind: AccountKind::parse(&kind)?,
                    robot_level: crate::accounts::parse_stored_level(r.robot_level.as_deref())?,
                    created_at,
                    spectating: crate::accounts::Spectating::stored(r.spectating.as_deref())?,
                }),
                _ => None,
            };
            Ok(Player { seat: r.seat as usize, account, invited: r.invited, hints_used: u32::try_from(r.hints_used).unwrap_or(0) })
        })
        .collect()
}
