//! Robot moves in the service: the family's robot of the seat's level (a robot account's level
//! is the contract's `Level`), seeded from the
//! service's injected seeds, within the runtime's [`Thinking`] (a wall-clock budget in
//! production; the engines themselves read no clock). The decision's `thinking_ms` is passed on
//! to the client to pace the reveal; nothing sleeps.

use std::time::Duration;

pub use games::Budget;

/// How long the hard level may think in a request.
pub const HARD_BUDGET: Duration = Duration::from_millis(40);

/// How much a robot's move or a hint's judgement may think in one request.
#[derive(Debug, Clone, Copy)]
pub enum Thinking {
    /// This long of wall-clock time from the moment it starts: production's [`HARD_BUDGET`].
    Wall(Duration),
    /// A fixed count of the engines' own steps, whatever the machine's load: tests and tools.
    Counted {
        /// Simulation rounds (and endgame iterations) of the tile robots.
        rounds: u32,
        /// Search nodes of the chain robots.
        nodes: u64,
    },
}

impl Thinking {
    /// Production's: [`HARD_BUDGET`] of wall-clock time.
    pub const SYSTEM: Thinking = Thinking::Wall(HARD_BUDGET);

    /// Tests': 4 rounds (the hard tile robot simulates 4 rounds and searches an endgame 4 plies
    /// deep at most) and the chain search's own node cap, so a loaded machine changes no move.
    pub const COUNTED: Thinking = Thinking::Counted { rounds: 4, nodes: u64::MAX };

    /// The budget of one decision starting now.
    pub fn budget(self) -> Budget {
        match self {
            Thinking::Wall(d) => Budget::from_now(d),
            Thinking::Counted { rounds, nodes } => Budget::Counted { rounds, nodes },
        }
    }
}
