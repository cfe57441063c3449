//! Journal entries of any family, and what a viewer may see of one. An entry is stored as its
//! family's JSON (the tile engine's `JournalEntry`, or the chain's) beside the few facts every
//! family has (number, seat, kind, score); [`entry_view`] is the one function that decides what a
//! seat may see of it.

use serde::Serialize;

use crate::seat::Seat;
pub use vocabulary::MoveKind;

/// One applied move, of either family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Entry {
    /// A tile game's move.
    Tile(engine::JournalEntry),
    /// A chain game's move.
    Chain(noitu::JournalEntry),
}

impl Entry {
    /// 0-based position in the journal.
    pub fn move_no(&self) -> u32 {
        match self {
            Entry::Tile(e) => e.move_no,
            Entry::Chain(e) => e.move_no,
        }
    }

    /// Who moved.
    pub fn seat(&self) -> Seat {
        match self {
            Entry::Tile(e) => e.seat,
            Entry::Chain(e) => e.seat,
        }
    }

    /// Its kind.
    pub fn kind(&self) -> MoveKind {
        match self {
            Entry::Tile(e) => match e.action {
                engine::Action::Play { .. } => MoveKind::Play,
                engine::Action::Pass => MoveKind::Pass,
                engine::Action::Exchange { .. } => MoveKind::Exchange,
                engine::Action::Resign => MoveKind::Resign,
                engine::Action::Timeout => MoveKind::Timeout,
                engine::Action::OutOfTime => MoveKind::OutOfTime,
                engine::Action::TimePenalty => MoveKind::TimePenalty,
                engine::Action::ChallengedOff => MoveKind::ChallengedOff,
                engine::Action::ChallengeBonus => MoveKind::ChallengeBonus,
                engine::Action::ChallengeFailed => MoveKind::ChallengeFailed,
                engine::Action::ChallengeTurnLost => MoveKind::ChallengeTurnLost,
                engine::Action::Accept => MoveKind::Accept,
            },
            Entry::Chain(e) => match e.action {
                noitu::Action::Word { .. } => MoveKind::Word,
                noitu::Action::Resign => MoveKind::Resign,
                noitu::Action::Timeout => MoveKind::Timeout,
            },
        }
    }

    /// Points the move scored.
    pub fn score(&self) -> i32 {
        match self {
            Entry::Tile(e) => e.score,
            Entry::Chain(e) => i32::try_from(e.score).unwrap_or(i32::MAX),
        }
    }

    /// The entry as its family writes it, for the journal row.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a journal entry always serializes")
    }
}

/// Who looks at a journal entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Someone with no seat: sees only what is public.
    Public,
    /// An admin (sees everything).
    Admin,
}

/// A journal entry as one viewer may see it: everything, except that a tile exchange made by
/// another seat shows only how many tiles went back.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct EntryView {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: ActionView,
    /// Points scored by the move itself.
    pub score: i32,
}

/// What a journalled move did, as a viewer may see it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum ActionView {
    /// A tile move with nothing hidden (a play, a pass, a resignation, a timeout, a flag fall,
    /// a time penalty, a challenge's outcome, an acceptance), as journalled.
    Public(engine::Action),
    /// A tile exchange: how many tiles went back, always; which, only for its seat and admins.
    Exchange {
        /// Always [`ExchangeKind::Exchange`]: the `kind` every entry carries.
        kind: ExchangeKind,
        /// How many.
        count: usize,
        /// Which.
        #[serde(skip_serializing_if = "Option::is_none")]
        tiles: Option<Vec<engine::TileInput>>,
    },
    /// A chain move (a word, a resignation, a timeout): nothing in a chain is private.
    Chain(noitu::Action),
}

/// The `kind` of an exchange entry.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeKind {
    /// "exchange".
    Exchange,
}

/// What `viewer` may see of `entry`: the one place that decides it.
pub fn entry_view(entry: &Entry, viewer: Viewer) -> EntryView {
    let action = match entry {
        Entry::Tile(e) => match &e.action {
            engine::Action::Exchange { tiles } => {
                let sees = match viewer {
                    Viewer::Admin => true,
                    Viewer::Seat(s) => s == entry.seat(),
                    Viewer::Public => false,
                };
                ActionView::Exchange { kind: ExchangeKind::Exchange, count: tiles.len(), tiles: sees.then(|| tiles.clone()) }
            }
            public => ActionView::Public(public.clone()),
        },
        Entry::Chain(e) => ActionView::Chain(e.action.clone()),
    };
    EntryView { move_no: entry.move_no(), seat: entry.seat(), action, score: entry.score() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Action, JournalEntry, TileInput};

    #[test]
    fn an_exchange_shows_its_tiles_only_to_its_seat_and_admins() {
        let entry = Entry::Tile(JournalEntry {
            move_no: 4,
            seat: Seat(1),
            action: Action::Exchange { tiles: vec![TileInput::Letter('Q'), TileInput::Blank] },
            score: 0,
        });
        let tiles = |v: &EntryView| match &v.action {
            ActionView::Exchange { count, tiles, .. } => (*count, tiles.clone()),
            other => panic!("{other:?}"),
        };
        let full = Some(vec![TileInput::Letter('Q'), TileInput::Blank]);
        assert_eq!(tiles(&entry_view(&entry, Viewer::Seat(Seat(1)))), (2, full.clone()));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Admin)), (2, full));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Seat(Seat(0)))), (2, None));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Public)), (2, None));
        let json = serde_json::to_value(entry_view(&entry, Viewer::Seat(Seat(0)))).unwrap();
        assert_eq!(json, serde_json::json!({"move_no": 4, "seat": 1, "kind": "exchange", "count": 2, "score": 0}));
        let pass = Entry::Tile(JournalEntry { move_no: 5, seat: Seat(0), action: Action::Pass, score: 0 });
        let json = serde_json::to_value(entry_view(&pass, Viewer::Public)).unwrap();
        assert_eq!(json, serde_json::to_value(&pass).unwrap(), "a public entry shows as journalled");
    }

    #[test]
    fn a_chain_entry_shows_as_journalled_to_everyone() {
        let word = Entry::Chain(noitu::JournalEntry {
            move_no: 0,
            seat: Seat(1),
            action: noitu::Action::Word { word: "học sinh".into(), spelled: Some("học sinh".into()) },
            score: 12,
        });
        for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Admin] {
            assert_eq!(serde_json::to_value(entry_view(&word, viewer)).unwrap(), serde_json::to_value(&word).unwrap());
        }
        assert_eq!((word.kind(), word.score(), word.seat()), (MoveKind::Word, 12, Seat(1)));
        assert_eq!(word.kind().id(), "word");
    }
}
