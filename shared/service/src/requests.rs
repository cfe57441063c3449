//! The requests the use cases take, as the transport hands them over: vocabulary below the use
//! cases, which the idempotency hash reads too.

use games::Move;
use serde::Deserialize;
use uuid::Uuid;

/// Who else sits at a new table: `{"robot": "easy"}` or `{"account": "<uuid>"}`, exactly one.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "OpponentInput")]
pub enum Opponent {
    /// A robot of this level: easy, medium or hard.
    Robot(String),
    /// A human account, by id.
    Account(Uuid),
}

/// The wire form of [`Opponent`]: an object with one of two fields, so that naming both (or
/// neither, or another) is a typed data error rather than a syntax error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpponentInput {
    robot: Option<String>,
    account: Option<Uuid>,
}

impl TryFrom<OpponentInput> for Opponent {
    type Error = String;

    fn try_from(o: OpponentInput) -> Result<Opponent, String> {
        match (o.robot, o.account) {
            (Some(level), None) => Ok(Opponent::Robot(level)),
            (None, Some(id)) => Ok(Opponent::Account(id)),
            (Some(_), Some(_)) => Err("an opponent is a robot or an account, not both".into()),
            (None, None) => Err("an opponent names a robot level or an account id".into()),
        }
    }
}

/// A request to create a game: the caller and the opponents, seated by the draw.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The variant id.
    pub variant: String,
    /// One to three opponents (the chain: exactly one).
    pub opponents: Vec<Opponent>,
    /// Seconds per turn (10 s to 30 days), or untimed.
    #[serde(default)]
    pub turn_seconds: Option<i32>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opponent_is_exactly_one_of_robot_and_account() {
        let id = Uuid::new_v4();
        let parse = |s: String| serde_json::from_str::<Opponent>(&s);
        assert_eq!(parse(r#"{"robot":"easy"}"#.into()).unwrap(), Opponent::Robot("easy".into()));
        assert_eq!(parse(format!(r#"{{"account":"{id}"}}"#)).unwrap(), Opponent::Account(id));
        for bad in [format!(r#"{{"robot":"easy","account":"{id}"}}"#), "{}".into(), r#"{"robot":"easy","x":1}"#.into()] {
            let e = parse(bad.clone()).unwrap_err();
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{bad}: {e}");
        }
    }
}
