//! A game's lifecycle: open, drawing (a tournament game's manual draw), active, finished,
//! withdrawn.

use crate::StoreError;

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
    /// Seated, its players drawing tiles by hand for who moves first (a tournament game).
    Drawing,
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
            GameStatus::Drawing => "drawing",
        }
    }

    /// Every status.
    pub const ALL: [GameStatus; 5] =
        [GameStatus::Open, GameStatus::Drawing, GameStatus::Active, GameStatus::Finished, GameStatus::Withdrawn];

    /// The status with this stored name.
    pub fn from_id(id: &str) -> Option<GameStatus> {
        GameStatus::ALL.into_iter().find(|s| s.id() == id)
    }

    pub(crate) fn parse(s: &str) -> Result<GameStatus, StoreError> {
        GameStatus::from_id(s).ok_or_else(|| StoreError::Corrupt(format!("game status {s:?}")))
    }
}
