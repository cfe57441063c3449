//! Whom a robot plays against.

/// Whom a robot plays against, which decides what it counts as its opponent's answers: a person
/// knows the familiar words, a robot every word of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Opponent {
    /// A person: answers are counted among the words people know.
    #[default]
    Person,
    /// Another robot: every word counts.
    Robot,
}
