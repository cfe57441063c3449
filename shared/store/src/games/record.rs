//! A game as stored and read back: its seats, journal and draw, its row version, and what a
//! reader already holds of it.

use chrono::{DateTime, Utc};
use uuid::Uuid;
use vocabulary::{EndReason, TimeControl, Variant};

use crate::GameStatus;
use crate::accounts::Account;

/// A seat and who holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The seat, 0-based.
    pub seat: usize,
    /// The account in it; `None` while the seat is open.
    pub account: Option<Account>,
    /// Whether the account is invited and has not accepted yet.
    pub invited: bool,
    /// Hints the seat has taken (counted only in a game whose hints are rationed).
    pub hints_used: u32,
}

/// A game as stored, with its seats and journal.
#[derive(Debug, Clone, PartialEq)]
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
    /// How it is timed (a game from before time controls: correspondence with no bank when it
    /// had a turn limit, else untimed).
    pub time_control: TimeControl,
    /// When the current turn times out (a real-time clock's flag falls).
    pub turn_deadline: Option<DateTime<Utc>>,
    /// When it became active, its clock starting; `None` before, and for games started before
    /// clocks were kept.
    pub started_at: Option<DateTime<Utc>>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// The finished game this one is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Who invited the other humans, for a game that began as an invitation (the only player
    /// who may withdraw it before it starts).
    pub invited_by: Option<Uuid>,
    /// Why it ended.
    pub end_reason: Option<EndReason>,
    /// Seats in order.
    pub players: Vec<Player>,
    /// The journal's entries in order, as a JSON array of what each family wrote (the family
    /// reads it).
    pub journal: String,
    /// When each journal entry was committed, in order (`None` for entries written before
    /// commit times were kept).
    pub move_times: Vec<Option<DateTime<Utc>>>,
    /// The recorded first-move draw, in order.
    pub draws: Vec<DrawRow>,
    /// Whether the game is rated.
    pub rated: bool,
    /// While it is played, the intervals since it started when the service could not take a
    /// move: its clock stands still inside them.
    pub outages: Vec<crate::Outage>,
    /// Asked rated, played casual: its two players had used up their rated games against each
    /// other for the day.
    pub pair_limited: bool,
    /// A rated open game's acceptable distance of a joiner's rating from its opener's, ± points
    /// (none: anyone may join).
    pub rating_range: Option<u32>,
    /// The tournament whose round it is a game of.
    pub tournament_id: Option<Uuid>,
    /// While its players draw for who moves first: when the server draws for those who have
    /// not.
    pub draw_deadline: Option<DateTime<Utc>>,
    /// Hints each seat may take, pinned at creation; `None`: as many as it likes (every game
    /// created before hints were rationed).
    pub hints_allowed: Option<u32>,
    /// A rated game's seats' ratings: as they are now, and the change the game made once it
    /// ended (empty for a casual game).
    pub ratings: Vec<SeatRating>,
    /// The game row's version when read (its `xmin`): every change to a game rewrites its
    /// row, so an unchanged version means an unchanged game.
    pub version: String,
}

impl GameRecord {
    /// The hints `seat` has left: `None` when they are not rationed.
    pub fn hints_left(&self, seat: usize) -> Option<u32> {
        let used = self.players.get(seat).map_or(0, |p| p.hints_used);
        self.hints_allowed.map(|allowed| allowed.saturating_sub(used))
    }
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
    /// Its commit times, as [`GameRecord::move_times`].
    pub move_times: Vec<Option<DateTime<Utc>>>,
    /// The draw, as [`GameRecord::draws`].
    pub draws: Vec<DrawRow>,
}

impl KnownGame {
    /// What `record` says of its game.
    pub fn of(record: &GameRecord) -> KnownGame {
        KnownGame {
            version: record.version.clone(),
            journal: record.journal.clone(),
            move_times: record.move_times.clone(),
            draws: record.draws.clone(),
        }
    }
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

/// What a game's view shows that can change without the game being loaded: read in one small
/// query for a conditional read (`If-None-Match`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStamp {
    /// Journal length.
    pub move_count: u32,
    /// Lifecycle state.
    pub status: GameStatus,
    /// When the seat to move times out, if the game is timed.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// The seats in order.
    pub seats: Vec<SeatStamp>,
    /// While its players draw by hand (`drawing`): the tiles drawn so far; else 0.
    pub drawn: u32,
    /// The hints the reader's own seat has taken (0 if it has none).
    pub hints_used: u32,
}

/// Who sits in a seat, as the game view shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct SeatStamp {
    /// The account in it; `None` while the seat is open.
    pub account_id: Option<Uuid>,
    /// Its name.
    pub display_name: Option<String>,
    /// Invited and not yet accepted.
    pub invited: bool,
}

/// A seat's rating in a rated game, as read with it.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct SeatRating {
    /// The seat.
    pub seat: usize,
    /// Its player's rating in the game's variant and speed now (none before their first rated
    /// game).
    pub rating: Option<f64>,
    /// Its deviation.
    pub deviation: Option<f64>,
    /// Rated games played.
    pub games: Option<u32>,
    /// When the rating last changed.
    pub rated_at: Option<DateTime<Utc>>,
    /// The rating before this game, once it has ended rated.
    pub rating_before: Option<f64>,
    /// The deviation before.
    pub deviation_before: Option<f64>,
    /// The rating after.
    pub rating_after: Option<f64>,
    /// The deviation after.
    pub deviation_after: Option<f64>,
}
