//! What a request carries as it arrives (a JSON body, a query value) and its parse into the
//! service's typed requests: the one place where a variant or a robot level given as text
//! becomes the enum. An unknown one is answered here, `400 unknown_variant` or `400
//! unknown_robot_level`, after a body of the wrong shape (`400 invalid_body`) and before the use
//! case.

use serde::Deserialize;
use service::{
    ChallengeRule, CreateGame, CreateTournament, ErrorCode, ForfeitSide, Level, Move, OpenGame, PairingSystem, ServiceError, SubmitMove,
    TableOpponent, TimeControl, TimeControlKind, Variant,
};
use uuid::Uuid;

use crate::ApiError;

/// The variant named `id`.
///
/// # Errors
/// `400 unknown_variant`.
pub(crate) fn variant(id: &str) -> Result<Variant, ApiError> {
    Ok(id.parse::<Variant>()?)
}

/// The robot level named `id`.
///
/// # Errors
/// `400 unknown_robot_level`.
pub(crate) fn robot_level(id: &str) -> Result<Level, ApiError> {
    Ok(id.parse::<Level>()?)
}

/// A time control as sent (`{"kind": …, …}`), read into its type here so that a malformed one
/// is `400 bad_time_control` rather than a body of the wrong shape.
///
/// # Errors
/// `400 bad_time_control`.
fn time_control(value: Option<serde_json::Value>) -> Result<Option<TimeControl>, ApiError> {
    value
        .map(|v| {
            serde_json::from_value::<TimeControl>(v)
                .map_err(|e| ServiceError::Invalid { reason: ErrorCode::BadTimeControl, message: format!("time_control: {e}") }.into())
        })
        .transpose()
}

/// A challenge rule as sent (`"single"`, …), read here so that an unknown one is `400
/// bad_challenge_rule` rather than a body of the wrong shape.
///
/// # Errors
/// `400 bad_challenge_rule`.
fn challenge_rule(value: Option<serde_json::Value>) -> Result<Option<ChallengeRule>, ApiError> {
    value
        .map(|v| {
            serde_json::from_value::<ChallengeRule>(v).map_err(|_| {
                ServiceError::Invalid {
                    reason: ErrorCode::BadChallengeRule,
                    message: "challenge_rule: one of void, single, double, five_point, ten_point".into(),
                }
                .into()
            })
        })
        .transpose()
}

/// The lobby's `time_control` filter: `none`, `correspondence` or `realtime`.
///
/// # Errors
/// `400 bad_time_control`.
pub(crate) fn time_control_kind(id: &str) -> Result<TimeControlKind, ApiError> {
    serde_json::from_value(serde_json::Value::String(id.to_string())).map_err(|_| {
        ServiceError::Invalid {
            reason: ErrorCode::BadTimeControl,
            message: format!("time_control {id:?}: one of none, correspondence, realtime"),
        }
        .into()
    })
}

/// The body of `POST /games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateGameBody {
    variant: String,
    opponents: Vec<OpponentBody>,
    #[serde(default)]
    time_control: Option<serde_json::Value>,
    #[serde(default)]
    turn_seconds: Option<i32>,
    #[serde(default)]
    challenge_rule: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    hints: Option<i32>,
}

impl CreateGameBody {
    /// The request: the variant, then each robot's level in the opponents' order.
    ///
    /// # Errors
    /// `400 unknown_variant`, `400 unknown_robot_level`, `400 bad_time_control`, `400
    /// bad_challenge_rule`.
    pub(crate) fn parse(self) -> Result<CreateGame, ApiError> {
        let variant = variant(&self.variant)?;
        let opponents = self
            .opponents
            .into_iter()
            .map(|o| match o {
                OpponentBody::Robot(level) => robot_level(&level).map(TableOpponent::Robot),
                OpponentBody::Account(id) => Ok(TableOpponent::Account(id)),
            })
            .collect::<Result<_, _>>()?;
        Ok(CreateGame {
            variant,
            opponents,
            time_control: time_control(self.time_control)?,
            turn_seconds: self.turn_seconds,
            challenge_rule: challenge_rule(self.challenge_rule)?,
            rated: self.rated,
            hints: self.hints,
        })
    }
}

/// An opponent as sent: `{"robot": "easy"}` or `{"account": "<uuid>"}`, exactly one.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "OpponentInput")]
enum OpponentBody {
    /// A robot, by the name of its level.
    Robot(String),
    /// A human account, by id.
    Account(Uuid),
}

/// The wire form of [`OpponentBody`]: an object with one of two fields, so that naming both (or
/// neither, or another) is a typed data error rather than a syntax error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpponentInput {
    robot: Option<String>,
    account: Option<Uuid>,
}

impl TryFrom<OpponentInput> for OpponentBody {
    type Error = String;

    fn try_from(o: OpponentInput) -> Result<OpponentBody, String> {
        match (o.robot, o.account) {
            (Some(level), None) => Ok(OpponentBody::Robot(level)),
            (None, Some(id)) => Ok(OpponentBody::Account(id)),
            (Some(_), Some(_)) => Err("an opponent is a robot or an account, not both".into()),
            (None, None) => Err("an opponent names a robot level or an account id".into()),
        }
    }
}

/// The body of `POST /games/open`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpenGameBody {
    variant: String,
    #[serde(default)]
    time_control: Option<serde_json::Value>,
    #[serde(default)]
    turn_seconds: Option<i32>,
    #[serde(default)]
    challenge_rule: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    rating_range: Option<u32>,
    #[serde(default)]
    hints: Option<i32>,
}

impl OpenGameBody {
    /// The request.
    ///
    /// # Errors
    /// `400 unknown_variant`, `400 bad_time_control`, `400 bad_challenge_rule`.
    pub(crate) fn parse(self) -> Result<OpenGame, ApiError> {
        let variant = variant(&self.variant)?;
        Ok(OpenGame {
            variant,
            time_control: time_control(self.time_control)?,
            turn_seconds: self.turn_seconds,
            challenge_rule: challenge_rule(self.challenge_rule)?,
            rated: self.rated,
            rating_range: self.rating_range,
            hints: self.hints,
        })
    }
}

/// The body of `POST /games/{id}/challenge`: the move number the challenge answers and the
/// client's id for it, as a submit's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengeBody {
    expected_move_no: u32,
    #[serde(default)]
    client_move_id: Option<Uuid>,
}

impl ChallengeBody {
    /// The challenge as the submit it is.
    pub(crate) fn into_submit(self) -> SubmitMove {
        SubmitMove { expected_move_no: self.expected_move_no, client_move_id: self.client_move_id, mv: Move::Challenge }
    }
}

/// The body of `POST /games/{id}/robot`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RobotBody {
    level: String,
}

impl RobotBody {
    /// The level asked for.
    ///
    /// # Errors
    /// `400 unknown_robot_level`.
    pub(crate) fn parse(self) -> Result<Level, ApiError> {
        robot_level(&self.level)
    }
}

/// The body of `PUT /me/settings`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SettingsBody {
    /// Who may watch the caller's games: `standard`, `always` or `never`.
    pub(crate) spectating: String,
}

/// The body of `POST /games/{id}/preview`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PreviewBody {
    /// The move to score.
    #[serde(rename = "move")]
    pub(crate) mv: Move,
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn an_opponent_is_exactly_one_of_robot_and_account() {
        let id = Uuid::new_v4();
        let parse = |s: String| serde_json::from_str::<OpponentBody>(&s);
        assert_eq!(parse(r#"{"robot":"easy"}"#.into()).unwrap(), OpponentBody::Robot("easy".into()));
        assert_eq!(parse(format!(r#"{{"account":"{id}"}}"#)).unwrap(), OpponentBody::Account(id));
        for bad in [format!(r#"{{"robot":"easy","account":"{id}"}}"#), "{}".into(), r#"{"robot":"easy","x":1}"#.into()] {
            let e = parse(bad.clone()).unwrap_err();
            assert_eq!(e.classify(), serde_json::error::Category::Data, "{bad}: {e}");
        }
    }

    #[test]
    fn an_unknown_variant_or_robot_level_is_answered_as_the_service_answered_it() {
        let answer = |e: ApiError| (e.status, e.code, e.message, e.details);
        let unknown_variant = (
            400,
            "unknown_variant",
            r#"unknown variant "chess": one of scrabble-en, scrabble-ru, erudit, noi-tu"#.to_string(),
            Value::Null,
        );
        assert_eq!(answer(variant("chess").unwrap_err()), unknown_variant);
        let body: OpenGameBody = serde_json::from_str(r#"{"variant":"chess"}"#).unwrap();
        assert_eq!(answer(body.parse().unwrap_err()), unknown_variant);
        let unknown_level = (400, "unknown_robot_level", r#"unknown robot level "genius""#.to_string(), Value::Null);
        assert_eq!(answer(robot_level("genius").unwrap_err()), unknown_level);
        let body: RobotBody = serde_json::from_str(r#"{"level":"genius"}"#).unwrap();
        assert_eq!(answer(body.parse().unwrap_err()), unknown_level);
        let body: CreateGameBody =
            serde_json::from_str(r#"{"variant":"erudit","opponents":[{"robot":"hard"},{"robot":"genius"}]}"#).unwrap();
        assert_eq!(answer(body.parse().unwrap_err()), unknown_level);
    }

    #[test]
    fn a_body_parses_into_the_typed_request() {
        let id = Uuid::new_v4();
        let body: CreateGameBody = serde_json::from_str(&format!(
            r#"{{"variant":"noi-tu","opponents":[{{"robot":"medium"}},{{"account":"{id}"}}],"turn_seconds":60,"hints":5}}"#
        ))
        .unwrap();
        let want = CreateGame {
            variant: Variant::NOI_TU,
            opponents: vec![TableOpponent::Robot(Level::Medium), TableOpponent::Account(id)],
            time_control: None,
            turn_seconds: Some(60),
            challenge_rule: None,
            rated: false,
            hints: Some(5),
        };
        assert_eq!(body.parse().unwrap(), want);
        let body: OpenGameBody = serde_json::from_str(r#"{"variant":"erudit"}"#).unwrap();
        assert_eq!(
            body.parse().unwrap(),
            OpenGame {
                variant: "erudit".parse().unwrap(),
                time_control: None,
                turn_seconds: None,
                challenge_rule: None,
                rated: false,
                rating_range: None,
                hints: None
            }
        );
        let body: OpenGameBody =
            serde_json::from_str(r#"{"variant":"erudit","time_control":{"kind":"realtime","initial_seconds":600}}"#).unwrap();
        let clock = TimeControl::Realtime { initial_seconds: 600, increment_seconds: 0, max_overtime_minutes: 0 };
        assert_eq!(body.parse().unwrap().time_control, Some(clock));
        let body: OpenGameBody = serde_json::from_str(r#"{"variant":"erudit","time_control":{"kind":"blitz"}}"#).unwrap();
        let e = body.parse().unwrap_err();
        assert_eq!((e.status, e.code), (400, "bad_time_control"));
        assert_eq!(time_control_kind("realtime").unwrap(), TimeControlKind::Realtime);
        assert_eq!(time_control_kind("fast").unwrap_err().code, "bad_time_control");
        assert_eq!(variant("").unwrap_err().code, "unknown_variant", "an empty id names no variant");
    }
}

/// The body of `POST /tournaments`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateTournamentBody {
    name: String,
    variant: String,
    #[serde(default)]
    time_control: Option<serde_json::Value>,
    #[serde(default)]
    challenge_rule: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    pairing: String,
    #[serde(default)]
    king_of_the_hill: bool,
    rounds: u32,
    #[serde(default)]
    draw_seconds: Option<u32>,
    #[serde(default)]
    spectator_delay: Option<u32>,
}

impl CreateTournamentBody {
    /// The request.
    ///
    /// # Errors
    /// `400 unknown_variant`, `400 bad_tournament` (an unknown pairing system), `400
    /// bad_time_control`, `400 bad_challenge_rule`.
    pub(crate) fn parse(self) -> Result<CreateTournament, ApiError> {
        let variant = variant(&self.variant)?;
        let pairing = PairingSystem::from_id(&self.pairing).ok_or_else(|| ServiceError::Invalid {
            reason: ErrorCode::BadTournament,
            message: format!("pairing {:?}: one of round_robin, swiss", self.pairing),
        })?;
        Ok(CreateTournament {
            name: self.name,
            variant,
            time_control: time_control(self.time_control)?,
            challenge_rule: challenge_rule(self.challenge_rule)?,
            rated: self.rated,
            pairing,
            king_of_the_hill: self.king_of_the_hill,
            rounds: self.rounds,
            draw_seconds: self.draw_seconds,
            spectator_delay: self.spectator_delay,
        })
    }
}

/// The body of `POST /tournaments/{id}/players` and `POST /tournaments/{id}/withdraw`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerBody {
    /// The player's account.
    pub(crate) account_id: Uuid,
}

/// The optional body of `POST /tournaments/{id}/enter` and `POST /tournaments/{id}/leave`: the
/// account whose entry it is, which must be the caller's own (`403 not_your_entry`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EntryBody {
    /// The player's account; the caller's when absent.
    pub(crate) account_id: Option<Uuid>,
}

/// The body of `POST /tournaments/{id}/forfeits`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ForfeitBody {
    /// The round.
    pub(crate) round: u32,
    /// The table.
    pub(crate) table: u32,
    /// Which side forfeits.
    pub(crate) side: ForfeitSide,
}
