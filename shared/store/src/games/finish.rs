//! The write of a change: the moves appended and the game's new state, in one statement applied
//! only while the game is as it was read.

use chrono::{DateTime, SubsecRound, Utc};
use uuid::Uuid;
use vocabulary::EndReason;

use super::KnownGame;
use super::transaction::{GameTx, Held, changed};
use crate::ratings::RatingWrite;
use crate::{GameStatus, StoreError};

/// The columns of `games` a move changes.
#[derive(Debug, Clone)]
pub struct GameUpdate {
    /// New journal length.
    pub move_count: u32,
    /// New status.
    pub status: GameStatus,
    /// The next turn's deadline.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When the game started, if it starts now (kept once set).
    pub started_at: Option<DateTime<Utc>>,
    /// When it ended, if it just did (a flag fall: when the flag fell, whoever noticed it).
    pub finished_at: Option<DateTime<Utc>>,
    /// Why the game ended, if it just did.
    pub end_reason: Option<EndReason>,
    /// The winning seats, if it just ended (its family's outcome; more than one on a tie).
    pub winners: Option<Vec<u8>>,
    /// The seat to move next (none once over).
    pub to_move: Option<u8>,
    /// Every seat's score, seat 0 first.
    pub scores: Vec<i32>,
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
    pub kind: vocabulary::MoveKind,
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
    /// When it was made, by the service's clock.
    pub played_at: DateTime<Utc>,
}

impl GameTx {
    /// Appends `moves` (each at its own `move_no`, with its client move id) and updates the game
    /// and its seats in one statement, applied only while the game row is as it was loaded,
    /// then commits: four round trips for a locked game (begin with the lock, load, this,
    /// commit), two for one read without a lock (load, this). Returns the game as now known:
    /// its new version, its journal with `moves` appended, its draw.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game changed since it was read or a move number or
    /// client move id is taken (nothing is then written); database errors.
    pub async fn finish(self, moves: &[NewMove], update: &GameUpdate) -> Result<KnownGame, StoreError> {
        self.finish_rated(moves, update, &[]).await
    }

    /// As [`GameTx::finish`], with the ratings a rated game's end writes (read first with
    /// [`GameTx::lock_ratings`]) and the change each made, in the same statement.
    ///
    /// # Errors
    /// As [`GameTx::finish`].
    pub async fn finish_rated(mut self, moves: &[NewMove], update: &GameUpdate, ratings: &[RatingWrite]) -> Result<KnownGame, StoreError> {
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
            // PostgreSQL keeps microseconds: the time written is the time known.
            cols.played_at.push(m.played_at.trunc_subsecs(6));
        }
        let mut acquired;
        let conn: &mut sqlx::PgConnection = match &mut self.conn {
            Held::Locked(tx) => tx,
            Held::Unlocked { pool } => {
                acquired = pool.acquire().await?;
                &mut acquired
            }
        };
        // The game row's update comes first and the other writes read its result: a game
        // changed since it was loaded (another request's move committed in between) is left
        // as it is, and so are its journal and seats.
        let version: Option<String> = sqlx::query_scalar(
            "WITH game AS (
                 UPDATE games SET move_count = $8, status = $9, turn_deadline = $10, end_reason = $11, updated_at = now(),
                     finished_at = CASE WHEN $9 = 'finished' THEN coalesce(finished_at, $17, now()) ELSE NULL END,
                     started_at = coalesce(started_at, $18), winners = CASE WHEN $9 = 'finished' THEN coalesce($30::smallint[], winners) END
                 WHERE game_id = $1 AND xmin::text = $12
                 RETURNING xmin::text AS version)
             , appended AS (
                 INSERT INTO game_moves (game_id, move_no, seat, kind, score, entry, client_move_id, request_hash, response, played_at)
                 SELECT $1, n, s, k, sc, e::json, c, h, r, t
                 FROM UNNEST($2::int[], $3::smallint[], $4::text[], $5::int[], $6::text[], $7::uuid[], $13::bytea[], $14::text[],
                             $19::timestamptz[])
                      AS x(n, s, k, sc, e, c, h, r, t)
                 WHERE EXISTS (SELECT 1 FROM game)
                 RETURNING 1)
             , seats AS (
                 UPDATE game_players SET game_status = $9, last_activity = now(), my_turn = coalesce(seat = $15, false),
                     score = coalesce(($16::int[])[seat + 1], 0)
                 WHERE game_id = $1 AND EXISTS (SELECT 1 FROM game)
                 RETURNING 1)
             , rated AS (
                 UPDATE ratings r SET rating = x.ra, deviation = x.da, volatility = x.va, games = x.n, rated_at = x.t
                 FROM UNNEST($20::uuid[], $21::float8[], $22::float8[], $23::float8[], $24::int[], $25::timestamptz[])
                      AS x(a, ra, da, va, n, t)
                 WHERE r.account_id = x.a AND r.variant = $26 AND r.speed = $27 AND EXISTS (SELECT 1 FROM game)
                 RETURNING 1)
             , changes AS (
                 INSERT INTO rating_changes (game_id, account_id, variant, speed, rating_before, deviation_before, rating_after,
                                             deviation_after, rated_at)
                 SELECT $1, x.a, $26, $27, x.rb, x.db, x.ra, x.da, x.t
                 FROM UNNEST($20::uuid[], $28::float8[], $29::float8[], $21::float8[], $22::float8[], $25::timestamptz[])
                      AS x(a, rb, db, ra, da, t)
                 WHERE EXISTS (SELECT 1 FROM game)
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
        .bind(update.finished_at)
        .bind(update.started_at)
        .bind(&cols.played_at)
        .bind(ratings.iter().map(|r| r.after.account_id).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| r.after.rating).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| r.after.deviation).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| r.after.volatility).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| i32::try_from(r.after.games).unwrap_or(i32::MAX)).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| r.after.rated_at).collect::<Vec<_>>())
        .bind(ratings.first().map_or("", |r| r.after.variant.id()))
        .bind(ratings.first().map_or("", |r| r.after.speed.id()))
        .bind(ratings.iter().map(|r| r.change.rating_before).collect::<Vec<_>>())
        .bind(ratings.iter().map(|r| r.change.deviation_before).collect::<Vec<_>>())
        .bind(update.winners.as_ref().map(|w| w.iter().map(|&s| i16::from(s)).collect::<Vec<_>>()))
        .fetch_one(&mut *conn)
        .await?;
        let Some(version) = version else {
            return Err(changed());
        };
        if let Held::Locked(tx) = self.conn {
            tx.commit().await?;
        }
        let mut move_times = std::mem::take(&mut self.game.move_times);
        move_times.extend(cols.played_at.iter().map(|t| Some(*t)));
        Ok(KnownGame { version, journal, move_times, draws: std::mem::take(&mut self.game.draws) })
    }
}

/// The JSON array `journal` with `entries` (each a JSON value) appended, in the layout
/// `json_agg` writes; `None` if `journal` is not an array.
pub fn appended(journal: &str, entries: &[&str]) -> Option<String> {
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
    played_at: Vec<DateTime<Utc>>,
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
