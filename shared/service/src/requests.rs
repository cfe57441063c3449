//! The requests the use cases take, typed: a variant is a [`Variant`] and a robot's level a
//! [`Level`], parsed where the request arrived (the HTTP edge parses their text and answers
//! an unknown one itself). Vocabulary below the use cases, which the idempotency hash reads too.

use games::{ChallengeRule, Move, TimeControl, Variant};
use serde::Deserialize;
use store::Level;
use uuid::Uuid;

/// Who else sits at a new table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableOpponent {
    /// A robot of this level.
    Robot(Level),
    /// A human account, by id.
    Account(Uuid),
}

/// A request to create a game: the caller and the opponents, seated by the draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateGame {
    /// The variant.
    pub variant: Variant,
    /// One to three opponents (the chain: exactly one).
    pub opponents: Vec<TableOpponent>,
    /// How the game is timed (checked against its family's controls); untimed when neither
    /// this nor `turn_seconds` is given.
    pub time_control: Option<TimeControl>,
    /// Seconds per turn (10 s to 30 days), the older form of a correspondence control.
    pub turn_seconds: Option<i32>,
    /// How a word not in the list is settled (tile games; void when not given).
    pub challenge_rule: Option<ChallengeRule>,
    /// Whether the game is rated (one human opponent only; casual when not given).
    pub rated: bool,
    /// Hints each seat may take, 0 to 20 (a rated game has none, whatever is asked); the
    /// family's default when not given ([`crate::hints`]).
    pub hints: Option<i32>,
}

/// A request to open a game for auto-match: the caller against whoever joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenGame {
    /// The variant.
    pub variant: Variant,
    /// How the game is timed, as [`CreateGame::time_control`].
    pub time_control: Option<TimeControl>,
    /// Seconds per turn, as [`CreateGame::turn_seconds`].
    pub turn_seconds: Option<i32>,
    /// The challenge rule, as [`CreateGame::challenge_rule`].
    pub challenge_rule: Option<ChallengeRule>,
    /// Whether the game is rated (then only a human may join it).
    pub rated: bool,
    /// A rated game's acceptable distance of a joiner's rating from the opener's, ± points
    /// (25 to 1000; none: anyone).
    pub rating_range: Option<u32>,
    /// Hints each seat may take, as [`CreateGame::hints`].
    pub hints: Option<i32>,
}

/// A move submission.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitMove {
    /// The game's `move_count` the move was built on.
    pub expected_move_no: u32,
    /// The client's id for this move: a retry with the same id, by the same player, with the
    /// same body gets the first answer again; with another body or by another player it is
    /// refused.
    pub client_move_id: Option<Uuid>,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
}
