//! What `wordgame` shares with the research crate `lab` and its own tests: seeded self-play with
//! the simple static players, the ladder that plays robots (or any [`ladder::Contestant`]) against
//! each other, the fits that build the engine's whole-leave tables ([`leaves`]), and the top play
//! on a game view's board ([`top_play`]).

pub mod ladder;
pub mod leaves;
pub mod selfplay;
pub mod top_play;

/// A failure the user can fix: printed as one line, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input was wrong.
    #[error("{0}")]
    Input(String),
    /// A derived file is not what its source gives.
    #[error("{0}")]
    Check(String),
}

impl From<engine::variant::VariantError> for CliError {
    fn from(e: engine::variant::VariantError) -> CliError {
        CliError::Input(e.to_string())
    }
}
