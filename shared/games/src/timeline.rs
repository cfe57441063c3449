//! The admin replay of one game, as its family draws it: the steps as data (for the page's
//! script and `timeline.json`), one log line per move, the final scores, and the family's part
//! of the replay page (its stage: a board and racks, or the players and the syllable; its style
//! and the script that draws one step). The admin page around it is the same for every family.

use serde::{Serialize, Serializer};

/// A seat as the replay page names it.
#[derive(Debug, Clone)]
pub struct PageSeat<'a> {
    /// The seat.
    pub seat: usize,
    /// Who sits there.
    pub name: &'a str,
    /// A link to their account page, if they have one.
    pub href: Option<String>,
}

/// The family's part of the replay page. `body` is HTML the family rendered with its values
/// escaped; `style` and `script` are the family's own constant text. The script defines `steps`
/// (read from `data`, the embedded timeline), `last`, `step` and `render()`, which draws step
/// `step`; the page's stepper moves `step`.
#[derive(Debug, Clone)]
pub struct Stage {
    /// CSS for the stage.
    pub style: &'static str,
    /// The stage's HTML.
    pub body: String,
    /// The stage's script.
    pub script: &'static str,
    /// The log's heading: "Moves", "Chain".
    pub log_title: &'static str,
    /// The heading of the recorded draw for the first move.
    pub draw_title: &'static str,
}

/// What a family's timeline tells the replay page.
pub trait FamilyTimeline: std::fmt::Debug + Send + Sync {
    /// The steps as data: a JSON object, flattened into the replay's JSON.
    fn data(&self) -> serde_json::Value;
    /// One line per move, each player named by `name_of(seat)`.
    fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String>;
    /// Each seat's points at the last step.
    fn finals(&self) -> Vec<i32>;
    /// The last step's index.
    fn last_step(&self) -> usize;
    /// Whether the points decide the winner (a chain is won by the chain, not the points).
    fn points_decide(&self) -> bool;
    /// The family's part of the page for `seats`.
    fn stage(&self, seats: &[PageSeat<'_>]) -> Stage;
    /// The lines of the game's stored analysis (as [`crate::Position::review`] wrote it), each
    /// player named by `name_of(seat)`.
    fn analysis_lines(&self, analysis: &serde_json::Value, name_of: &dyn Fn(usize) -> String) -> Vec<String>;
    /// The extension of the family's export ([`crate::Position::export`]), if it has one.
    fn export(&self) -> Option<&'static str>;
}

/// The admin replay's steps of one game, of any family.
#[derive(Debug, Clone)]
pub struct Timeline(std::sync::Arc<dyn FamilyTimeline>);

impl Timeline {
    /// The family's `timeline`.
    pub fn new(timeline: impl FamilyTimeline + 'static) -> Timeline {
        Timeline(std::sync::Arc::new(timeline))
    }
}

impl std::ops::Deref for Timeline {
    type Target = dyn FamilyTimeline;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl Serialize for Timeline {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.data().serialize(serializer)
    }
}
