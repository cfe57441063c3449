//! Journal entries of any family, and what a viewer may see of one. An entry is stored as its
//! family's JSON (the tile engine's `JournalEntry`, or the chain's) beside the few facts every
//! family has (number, seat, kind, score); each family decides what a viewer may see of its
//! entries ([`crate::Position::entry_view`]).

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::seat::Seat;
pub use vocabulary::MoveKind;

/// One applied move of any family: the facts every family has (number, seat, kind, score)
/// beside the entry as its family writes it, which is what the journal stores and what the
/// entry serializes as.
#[derive(Debug, Clone)]
pub struct Entry {
    move_no: u32,
    seat: Seat,
    kind: MoveKind,
    score: i32,
    json: Box<RawValue>,
}

impl Entry {
    /// The entry `written` by its family, with the facts every family has.
    ///
    /// # Panics
    /// If `written` does not serialize (a family's journal entries always do: plain data).
    pub fn new(move_no: u32, seat: Seat, kind: MoveKind, score: i32, written: &impl Serialize) -> Entry {
        let json = serde_json::value::to_raw_value(written).expect("a journal entry always serializes");
        Entry { move_no, seat, kind, score, json }
    }

    /// 0-based position in the journal.
    pub fn move_no(&self) -> u32 {
        self.move_no
    }

    /// Who moved.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Its kind.
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Points the move scored.
    pub fn score(&self) -> i32 {
        self.score
    }

    /// The entry as its family writes it, for the journal row.
    pub fn to_json(&self) -> String {
        self.json.get().to_string()
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        (self.move_no, self.seat, self.kind, self.score, self.json.get())
            == (other.move_no, other.seat, other.kind, other.score, other.json.get())
    }
}

impl Eq for Entry {}

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
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

impl Viewer {
    /// Whether this viewer may see what only `seat` holds (its own tiles): that seat and admins.
    pub fn sees_private_of(self, seat: Seat) -> bool {
        match self {
            Viewer::Admin => true,
            Viewer::Seat(s) => s == seat,
            Viewer::Public => false,
        }
    }
}

/// A journal entry as one viewer may see it, as its family decides
/// ([`crate::Position::entry_view`]): the facts every family has and the move's action (an
/// object with its `kind`) as the family shows it to that viewer.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct EntryView {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: serde_json::Value,
    /// Points scored by the move itself.
    pub score: i32,
}

impl EntryView {
    /// The view of `entry` whose action the viewer sees as `action`.
    ///
    /// # Panics
    /// If `action` does not serialize.
    pub fn of(entry: &Entry, action: &impl Serialize) -> EntryView {
        EntryView::new(entry.move_no(), entry.seat(), entry.score(), action)
    }

    /// The view of move `move_no` by `seat`, scoring `score`, whose action the viewer sees as
    /// `action` (straight from a family's journal entry, without building its [`Entry`]).
    ///
    /// # Panics
    /// If `action` does not serialize.
    pub fn new(move_no: u32, seat: Seat, score: i32, action: &impl Serialize) -> EntryView {
        let action = serde_json::to_value(action).expect("an action always serializes");
        EntryView { move_no, seat, action, score }
    }
}
