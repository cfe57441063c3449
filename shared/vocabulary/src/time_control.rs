//! How a game is timed, pinned when it is created: untimed, correspondence (a limit a turn and
//! an optional time bank), or real time (a clock a seat with increment and overtime; the chain
//! plays real time as a limit a turn). What running out of time costs follows from the control
//! and the family ([`Lapse`]).

use serde::{Deserialize, Serialize};

use crate::{Clocks, Family};

/// How a game is timed. Written as JSON with a `kind` (`none`, `correspondence`, `realtime`)
/// and the fields of that kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "Wire", into = "Wire")]
pub enum TimeControl {
    /// No clock: a turn takes as long as it takes.
    #[default]
    None,
    /// A limit a turn; a turn that runs past it draws on the seat's bank, and only a turn that
    /// empties the bank lapses.
    Correspondence {
        /// Seconds each turn may take before the bank is drawn on.
        turn_seconds: u32,
        /// Each seat's bank, in seconds (0: none).
        bank_seconds: u32,
    },
    /// A chess clock a seat (tile games): the time runs only on the seat to move, an increment
    /// is added after each of its moves, and past zero the seat plays in overtime (10 points a
    /// started minute off its final score) until the maximum, where its flag falls.
    Realtime {
        /// Each seat's time at the start, in seconds.
        initial_seconds: u32,
        /// Seconds added after each of the seat's moves.
        increment_seconds: u32,
        /// Minutes of overtime before the flag falls (0: it falls at zero).
        max_overtime_minutes: u32,
    },
    /// A real-time limit a turn (the chain): a turn that runs past it loses the game.
    TurnTimer {
        /// Seconds each turn may take.
        turn_seconds: u32,
    },
}

/// What a seat that runs out of time loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lapse {
    /// Its turn: the game goes on (a correspondence tile game).
    Turn,
    /// The game (every real-time game, and the chain whatever its control).
    Game,
}

/// The speed a time control plays at, for lists and ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeControlKind {
    /// Untimed.
    #[default]
    None,
    /// A limit a turn, maybe a bank.
    Correspondence,
    /// A clock, or a real-time limit a turn.
    Realtime,
}

/// Why a time control is refused for a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A field outside its documented bounds.
    #[error("{field} must be {min}..={max}, not {value}")]
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// The value given.
        value: u32,
        /// The least allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// A control the variant's family does not play.
    #[error("a {family} game takes {allowed}")]
    NotForFamily {
        /// The family, as its variants' players know it.
        family: &'static str,
        /// What it does take.
        allowed: &'static str,
    },
}

/// Correspondence turns: 10 s to 30 days.
pub const TURN_SECONDS: (u32, u32) = (10, 2_592_000);
/// A correspondence bank: none to 30 days.
pub const BANK_SECONDS: (u32, u32) = (0, 2_592_000);
/// A real-time clock's initial time: 1 minute to 3 hours.
pub const INITIAL_SECONDS: (u32, u32) = (60, 10_800);
/// A real-time increment: none to 5 minutes.
pub const INCREMENT_SECONDS: (u32, u32) = (0, 300);
/// Real-time overtime: none to 10 minutes.
pub const MAX_OVERTIME_MINUTES: (u32, u32) = (0, 10);
/// The chain's real-time turn: 5 s to 10 minutes.
pub const TURN_TIMER_SECONDS: (u32, u32) = (5, 600);

/// The speed a game is rated at: real time, or correspondence (untimed games count as
/// correspondence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray, strum::EnumCount)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Speed {
    /// A real-time clock or turn timer.
    Realtime,
    /// A limit a turn, or none.
    Correspondence,
}

impl Speed {
    /// Both speeds.
    pub const ALL: [Speed; <Speed as strum::EnumCount>::COUNT] = *<Speed as strum::VariantArray>::VARIANTS.first_chunk().unwrap();

    /// The id as written: realtime or correspondence.
    pub fn id(self) -> &'static str {
        self.into()
    }

    /// The speed with this id.
    pub fn from_id(id: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.id() == id)
    }
}

impl TimeControl {
    /// The speed a game under this control is rated at.
    pub const fn speed(self) -> Speed {
        match self.kind() {
            TimeControlKind::Realtime => Speed::Realtime,
            TimeControlKind::None | TimeControlKind::Correspondence => Speed::Correspondence,
        }
    }

    /// A correspondence control with no bank, as the `turn_seconds` of games created before
    /// time controls (`None` for an untimed one).
    pub fn from_turn_seconds(turn_seconds: Option<u32>) -> TimeControl {
        turn_seconds.map_or(TimeControl::None, |turn_seconds| TimeControl::Correspondence { turn_seconds, bank_seconds: 0 })
    }

    /// Its kind.
    pub const fn kind(self) -> TimeControlKind {
        match self {
            TimeControl::None => TimeControlKind::None,
            TimeControl::Correspondence { .. } => TimeControlKind::Correspondence,
            TimeControl::Realtime { .. } | TimeControl::TurnTimer { .. } => TimeControlKind::Realtime,
        }
    }

    /// Whether a clock runs at all.
    pub const fn is_timed(self) -> bool {
        !matches!(self, TimeControl::None)
    }

    /// What running out of time costs in a game of `family` under this control: a turn in
    /// correspondence under a game clock (the tile games), else the game.
    pub const fn lapse(self, family: Family) -> Lapse {
        match (self, family.clocks()) {
            (TimeControl::Correspondence { .. }, Clocks::GameClock) => Lapse::Turn,
            _ => Lapse::Game,
        }
    }

    /// The control checked against the documented bounds and the family's clocks: a family with
    /// a game clock (the tile games) takes none, correspondence or a clock; one with a turn timer
    /// (the chain) none, correspondence or a limit a turn.
    ///
    /// # Errors
    /// [`TimeControlError`].
    pub fn check(self, family: Family) -> Result<TimeControl, TimeControlError> {
        let within = |field, value, (min, max): (u32, u32)| {
            if (min..=max).contains(&value) { Ok(()) } else { Err(TimeControlError::OutOfRange { field, value, min, max }) }
        };
        match (self, family.clocks()) {
            (TimeControl::None, _) => {}
            (TimeControl::Correspondence { turn_seconds, bank_seconds }, _) => {
                within("turn_seconds", turn_seconds, TURN_SECONDS)?;
                within("bank_seconds", bank_seconds, BANK_SECONDS)?;
            }
            (TimeControl::Realtime { initial_seconds, increment_seconds, max_overtime_minutes }, Clocks::GameClock) => {
                within("initial_seconds", initial_seconds, INITIAL_SECONDS)?;
                within("increment_seconds", increment_seconds, INCREMENT_SECONDS)?;
                within("max_overtime_minutes", max_overtime_minutes, MAX_OVERTIME_MINUTES)?;
            }
            (TimeControl::TurnTimer { turn_seconds }, Clocks::TurnTimer) => within("turn_seconds", turn_seconds, TURN_TIMER_SECONDS)?,
            (TimeControl::Realtime { .. }, Clocks::TurnTimer) => {
                return Err(TimeControlError::NotForFamily {
                    family: family.name(),
                    allowed: "none, correspondence, or realtime with turn_seconds only",
                });
            }
            (TimeControl::TurnTimer { .. }, Clocks::GameClock) => {
                return Err(TimeControlError::NotForFamily {
                    family: family.name(),
                    allowed: "none, correspondence, or realtime with initial_seconds, increment_seconds and max_overtime_minutes",
                });
            }
        }
        Ok(self)
    }
}

/// The JSON form: a kind and the fields it has; a field another kind has is refused.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    kind: TimeControlKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bank_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_overtime_minutes: Option<u32>,
}

impl TryFrom<Wire> for TimeControl {
    type Error = String;

    fn try_from(w: Wire) -> Result<TimeControl, String> {
        let clock = (w.initial_seconds, w.increment_seconds, w.max_overtime_minutes);
        match (w.kind, w.turn_seconds, w.bank_seconds, clock) {
            (TimeControlKind::None, None, None, (None, None, None)) => Ok(TimeControl::None),
            (TimeControlKind::None, ..) => Err("an untimed control has no other field".into()),
            (TimeControlKind::Correspondence, Some(turn_seconds), bank, (None, None, None)) => {
                Ok(TimeControl::Correspondence { turn_seconds, bank_seconds: bank.unwrap_or(0) })
            }
            (TimeControlKind::Correspondence, ..) => Err("a correspondence control has turn_seconds and, maybe, bank_seconds".into()),
            (TimeControlKind::Realtime, Some(turn_seconds), None, (None, None, None)) => Ok(TimeControl::TurnTimer { turn_seconds }),
            (TimeControlKind::Realtime, None, None, (Some(initial_seconds), increment, overtime)) => Ok(TimeControl::Realtime {
                initial_seconds,
                increment_seconds: increment.unwrap_or(0),
                max_overtime_minutes: overtime.unwrap_or(0),
            }),
            (TimeControlKind::Realtime, ..) => {
                Err("a realtime control has initial_seconds (with increment_seconds and max_overtime_minutes), or turn_seconds alone"
                    .into())
            }
        }
    }
}

impl From<TimeControl> for Wire {
    fn from(t: TimeControl) -> Wire {
        let kind = t.kind();
        match t {
            TimeControl::None => Wire::default(),
            TimeControl::Correspondence { turn_seconds, bank_seconds } => {
                Wire { kind, turn_seconds: Some(turn_seconds), bank_seconds: Some(bank_seconds), ..Wire::default() }
            }
            TimeControl::Realtime { initial_seconds, increment_seconds, max_overtime_minutes } => Wire {
                initial_seconds: Some(initial_seconds),
                increment_seconds: Some(increment_seconds),
                max_overtime_minutes: Some(max_overtime_minutes),
                kind,
                ..Wire::default()
            },
            TimeControl::TurnTimer { turn_seconds } => Wire { kind, turn_seconds: Some(turn_seconds), ..Wire::default() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<TimeControl, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn each_kind_reads_and_writes_its_own_fields() {
        let cases = [
            (r#"{"kind":"none"}"#, TimeControl::None),
            (
                r#"{"kind":"correspondence","turn_seconds":86400,"bank_seconds":0}"#,
                TimeControl::Correspondence { turn_seconds: 86_400, bank_seconds: 0 },
            ),
            (
                r#"{"kind":"realtime","initial_seconds":1500,"increment_seconds":0,"max_overtime_minutes":1}"#,
                TimeControl::Realtime { initial_seconds: 1500, increment_seconds: 0, max_overtime_minutes: 1 },
            ),
            (r#"{"kind":"realtime","turn_seconds":20}"#, TimeControl::TurnTimer { turn_seconds: 20 }),
        ];
        for (json, control) in cases {
            assert_eq!(parse(json).unwrap(), control, "{json}");
            assert_eq!(serde_json::to_string(&control).unwrap(), json);
        }
        assert_eq!(
            parse(r#"{"kind":"correspondence","turn_seconds":60}"#).unwrap(),
            TimeControl::Correspondence { turn_seconds: 60, bank_seconds: 0 }
        );
    }

    #[test]
    fn a_field_of_another_kind_or_an_unknown_one_is_refused() {
        for json in [
            r#"{"kind":"none","turn_seconds":60}"#,
            r#"{"kind":"correspondence"}"#,
            r#"{"kind":"correspondence","turn_seconds":60,"initial_seconds":60}"#,
            r#"{"kind":"realtime"}"#,
            r#"{"kind":"realtime","turn_seconds":20,"initial_seconds":60}"#,
            r#"{"kind":"realtime","initial_seconds":60,"bank_seconds":60}"#,
            r#"{"kind":"blitz"}"#,
            r#"{"kind":"none","extra":1}"#,
        ] {
            assert!(parse(json).is_err(), "{json}");
        }
    }

    #[test]
    fn bounds_and_families_are_checked() {
        let clock = TimeControl::Realtime { initial_seconds: 1500, increment_seconds: 0, max_overtime_minutes: 1 };
        assert_eq!(clock.check(Family::TILE), Ok(clock));
        assert!(matches!(clock.check(Family::CHAIN), Err(TimeControlError::NotForFamily { .. })));
        assert!(matches!(TimeControl::TurnTimer { turn_seconds: 20 }.check(Family::TILE), Err(TimeControlError::NotForFamily { .. })));
        assert_eq!(
            TimeControl::TurnTimer { turn_seconds: 4 }.check(Family::CHAIN),
            Err(TimeControlError::OutOfRange { field: "turn_seconds", value: 4, min: 5, max: 600 })
        );
        let over = TimeControl::Realtime { initial_seconds: 1500, increment_seconds: 0, max_overtime_minutes: 11 };
        assert_eq!(over.check(Family::TILE).unwrap_err().to_string(), "max_overtime_minutes must be 0..=10, not 11");
        let bank = TimeControl::Correspondence { turn_seconds: 60, bank_seconds: 2_592_001 };
        assert!(bank.check(Family::CHAIN).is_err());
        assert_eq!(TimeControl::None.check(Family::CHAIN), Ok(TimeControl::None));
    }

    #[test]
    fn only_a_correspondence_tile_game_loses_a_turn_on_time() {
        let post = TimeControl::Correspondence { turn_seconds: 60, bank_seconds: 0 };
        assert_eq!(post.lapse(Family::TILE), Lapse::Turn);
        assert_eq!(post.lapse(Family::CHAIN), Lapse::Game);
        let clock = TimeControl::Realtime { initial_seconds: 60, increment_seconds: 0, max_overtime_minutes: 0 };
        assert_eq!(clock.lapse(Family::TILE), Lapse::Game);
        assert_eq!(TimeControl::from_turn_seconds(None), TimeControl::None);
        assert_eq!(TimeControl::from_turn_seconds(Some(60)), post);
        assert_eq!(TimeControl::TurnTimer { turn_seconds: 9 }.kind(), TimeControlKind::Realtime);
    }
}
