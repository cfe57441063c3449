//! The contract's open outputs: values each family defines and the service passes on as JSON,
//! untouched. A family makes one from any serialisable value of its own ([`FamilyView::of`]);
//! nothing outside the family needs its type, so a new family adds no variant anywhere.

use serde::Serialize;

/// Declares an open output: a family's value held as JSON.
macro_rules! open_output {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(transparent)]
        pub struct $name(serde_json::Value);

        impl $name {
            /// The family's `value`, as JSON.
            ///
            /// # Panics
            /// If `value` does not serialize (a family's view types always do: plain data).
            pub fn of(value: &impl Serialize) -> $name {
                $name(serde_json::to_value(value).expect("a family's output always serializes"))
            }

            /// The JSON, for a reader that knows the family (tests, the family itself).
            pub fn json(&self) -> &serde_json::Value {
                &self.0
            }
        }
    };
}

open_output!(
    /// What a viewer sees of a game besides the fields every family has (an object, flattened
    /// into the game's view): a tile game's board, bag and the viewer's rack; the chain.
    FamilyView
);
open_output!(
    /// What everyone sees of one seat besides its score (an object, flattened into the seat):
    /// a tile rack's size; nothing in a chain.
    SeatDetail
);
open_output!(
    /// A suggested move: a tile play, a chain word.
    Hint
);
open_output!(
    /// What a move would score if submitted now: a tile play's words and bonus, a chain word's
    /// points.
    Score
);
open_output!(
    /// What a game's end reveals besides who won (an object, flattened into the result): each
    /// seat's leftover tiles in a tile game.
    Revealed
);
open_output!(
    /// The family's part of a finished game's analysis (an object with its `family`, flattened
    /// into the answer): a tile game's reviewed moves, a chain game's reviewed words.
    Reviewed
);
