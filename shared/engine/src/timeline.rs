//! The replay timeline of a game, for the admin replay page: step 0 is the dealt racks; after
//! each move, every seat's rack and score, the seat to move, the bag remainder, and the move
//! itself with the tiles it drew from the bag. The board at step k is the placements of moves
//! 1..k; no dictionary is needed.

use serde::Serialize;

use crate::game::Game;
use crate::journal::{Action, JournalEntry};
use crate::rack::Rack;
use crate::replay::{ReplayError, recorded_move};
use crate::seat::Seat;
use crate::setup::Setup;
use crate::tile::RackTile;
use crate::variant::Rules;

/// Every step of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplaySteps {
    /// Step 0 (the deal) and one step per move.
    pub steps: Vec<Step>,
}

/// The state after a move (or, at step 0, after the deal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 0 for the deal, k after the k-th move.
    pub index: usize,
    /// Every seat's rack, letters in alphabet order, `?` for a blank.
    pub racks: Vec<Vec<String>>,
    /// Every seat's score (after the final settlement at the last step of a finished game).
    pub scores: Vec<i32>,
    /// The seat to move next, absent once the game is over.
    pub to_move: Option<usize>,
    /// Tiles left in the bag.
    pub bag: usize,
    /// The move that led here (absent at step 0).
    #[serde(rename = "move")]
    pub mv: Option<StepMove>,
}

/// A move as the timeline shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepMove {
    /// The journal entry: seat, kind, tiles, words, score.
    #[serde(flatten)]
    pub entry: JournalEntry,
    /// Tiles the mover drew from the bag: rack after − (rack before − tiles used).
    pub drawn: Vec<String>,
}

/// The timeline of `journal` played from `setup`.
///
/// # Errors
/// [`ReplayError`] if the journal does not replay.
pub fn timeline(setup: &Setup, journal: &[JournalEntry]) -> Result<ReplaySteps, ReplayError> {
    let mut game = Game::from_setup(setup)?;
    let mut steps = vec![snapshot(&game, 0, None)];
    for (k, entry) in journal.iter().enumerate() {
        let seat = entry.seat;
        let before = *game.rack(seat);
        let checked = recorded_move(&game, entry)?;
        game.apply(checked);
        let drawn = drawn(game.rules(), &before, game.rack(seat), entry);
        steps.push(snapshot(&game, k + 1, Some(StepMove { entry: entry.clone(), drawn })));
    }
    Ok(ReplaySteps { steps })
}

fn snapshot(game: &Game, index: usize, mv: Option<StepMove>) -> Step {
    let rules = game.rules();
    Step {
        index,
        racks: (0..game.seats()).map(|s| names(rules, game.rack(Seat(s as u8)))).collect(),
        scores: game.scores().to_vec(),
        to_move: (!game.is_over()).then(|| game.to_move().index()),
        bag: game.bag().len(),
        mv,
    }
}

/// The tiles drawn by a move: the rack after, less what stayed from the rack before.
fn drawn(rules: &Rules, before: &Rack, after: &Rack, entry: &JournalEntry) -> Vec<String> {
    let used: Vec<RackTile> = match &entry.action {
        Action::Play { tiles, .. } => tiles
            .iter()
            .filter_map(|t| if t.blank { Some(RackTile::Blank) } else { rules.letter(t.letter).map(RackTile::Letter) })
            .collect(),
        Action::Exchange { tiles } => tiles
            .iter()
            .filter_map(|t| match *t {
                crate::moves::TileInput::Letter(c) => rules.letter(c).map(RackTile::Letter),
                crate::moves::TileInput::Blank => Some(RackTile::Blank),
            })
            .collect(),
        _ => Vec::new(),
    };
    let kept = before.minus(&Rack::from_tiles(used)).unwrap_or_default();
    after.minus(&kept).map(|d| names(rules, &d)).unwrap_or_default()
}

fn names(rules: &Rules, rack: &Rack) -> Vec<String> {
    rack.tiles()
        .map(|t| match t {
            RackTile::Letter(l) => rules.char_of(l).to_string(),
            RackTile::Blank => "?".to_string(),
        })
        .collect()
}
