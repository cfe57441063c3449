//! How long a robot may think. The families read no clock: a robot asks its budget, and the
//! budget (a clock the caller holds, or a count) answers.

/// The work a robot has done when it asks its [`ThinkingLimit`], in its family's own unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Whole simulation rounds, or completed endgame iterations (the tile robots).
    Rounds(u32),
    /// Search nodes (the chain robots).
    Nodes(u64),
}

/// When a robot must stop thinking: asked as it works, with the work done so far. Once it says
/// yes, the robot stops at once and answers with the best it has.
pub trait ThinkingLimit {
    /// Whether the robot must stop now.
    fn expired(&mut self, done: Work) -> bool;
}
