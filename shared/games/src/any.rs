//! One enum over every family ([`AnyGame`]), forwarding the contract to the family's game, and
//! the families' entry points ([`Families`]): a new setup, replay from storage, the draw.
//! A new family adds an arm to each (docs/ARCHITECTURE.md, "Game families", lists them all).

use std::sync::Arc;

use engine::Lexicons;

use crate::chain::ChainGame;
use crate::contract::{Budget, Checked, FamilyView, GameError, Hint, Level, Position, RobotMove, Score, SeatDetail, Timeline};
use crate::draw::{Draw, DrawPick};
use crate::entry::Entry;
use crate::lots::Lots;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::seat::{Seat, Timestamp};
use crate::tile::TileGame;
use crate::variant::{Variant, tile_rules};
use vocabulary::{ChallengeRule, Lapse};

/// A game of any family.
// One game lives per request, on the stack: a box would cost an allocation for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum AnyGame<'a> {
    /// A tile game.
    Tile(TileGame<'a>),
    /// A chain game.
    Chain(ChainGame),
}

impl AnyGame<'_> {
    fn borrow(&self) -> &dyn Position {
        match self {
            AnyGame::Tile(g) => g,
            AnyGame::Chain(g) => g,
        }
    }

    fn borrow_mut(&mut self) -> &mut dyn Position {
        match self {
            AnyGame::Tile(g) => g,
            AnyGame::Chain(g) => g,
        }
    }

    /// The game in GCG, for a tile game (the tile family's export).
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not fold.
    pub fn gcg(&self, header: &crate::GcgHeader<'_>) -> Option<Result<String, GameError>> {
        match self {
            AnyGame::Tile(g) => Some(g.gcg(header)),
            AnyGame::Chain(_) => None,
        }
    }

    /// The seat to move, unless the game is over.
    pub fn next_seat(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.to_move())
    }

    /// Every journal entry, in order.
    pub fn entries(&self) -> Vec<Entry> {
        (0..self.move_count()).filter_map(|i| self.entry(i)).collect()
    }

    /// The game without the word lists it plays with, for a process to keep between requests
    /// ([`Families::resume`] plays it again).
    pub fn state(&self) -> GameState {
        match self {
            AnyGame::Tile(g) => GameState::Tile(Box::new(g.game().clone())),
            AnyGame::Chain(g) => GameState::Chain(g.clone()),
        }
    }
}

/// A replayed game, owned and free of the word lists: what [`AnyGame::state`] keeps.
#[derive(Debug, Clone)]
pub enum GameState {
    /// A tile game's engine state.
    Tile(Box<engine::Game>),
    /// A chain game.
    Chain(ChainGame),
}

impl Position for AnyGame<'_> {
    fn variant(&self) -> Variant {
        self.borrow().variant()
    }
    fn seats(&self) -> usize {
        self.borrow().seats()
    }
    fn to_move(&self) -> Seat {
        self.borrow().to_move()
    }
    fn is_over(&self) -> bool {
        self.borrow().is_over()
    }
    fn move_count(&self) -> u32 {
        self.borrow().move_count()
    }
    fn scores(&self) -> Vec<i32> {
        self.borrow().scores()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.borrow().outcome()
    }
    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.borrow_mut().set_deadline(deadline);
    }
    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.borrow().entry(move_no)
    }
    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        self.borrow().check(seat, mv, now)
    }
    fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<Checked, GameError> {
        self.borrow().check_timeout(now, lapse)
    }
    fn time_penalty(&self, seat: Seat, points: i32) -> Option<Checked> {
        self.borrow().time_penalty(seat, points)
    }
    fn apply(&mut self, checked: Checked) -> Entry {
        self.borrow_mut().apply(checked)
    }
    fn preview(&self, checked: &Checked) -> Score {
        self.borrow().preview(checked)
    }
    fn view(&self, viewer: Option<Seat>) -> FamilyView {
        self.borrow().view(viewer)
    }
    fn seat_detail(&self, seat: Seat) -> SeatDetail {
        self.borrow().seat_detail(seat)
    }
    fn hints(&self, seat: Seat, limit: usize, budget: Budget) -> Result<Vec<Hint>, GameError> {
        self.borrow().hints(seat, limit, budget)
    }
    fn robot(&self, level: Level, seed: u64, budget: Budget) -> Result<Option<RobotMove>, GameError> {
        self.borrow().robot(level, seed, budget)
    }
    fn timeline(&self) -> Result<Timeline, GameError> {
        self.borrow().timeline()
    }
}

/// A game as stored: the columns every family has, the tile family's own, the family's setup
/// as data and the journal's entries as a JSON array.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    /// The variant.
    pub variant: Variant,
    /// Number of seats.
    pub seats: usize,
    /// The seed.
    pub seed: u64,
    /// Tile family: the no-repeat rule as pinned.
    pub no_repeat_words: Option<bool>,
    /// The setup as its family wrote it (absent for tile games stored before it was kept).
    pub setup: Option<&'a str>,
    /// The journal entries, a JSON array.
    pub journal: &'a str,
}

/// A new game's setup, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSetup {
    /// The seed.
    pub seed: u64,
    /// Tile family: the no-repeat rule pinned.
    pub no_repeat_words: Option<bool>,
    /// The setup as its family writes it (for the chain, with the opening word pinned).
    pub setup: String,
}

/// The challenge rule pinned in a stored setup (void when there is none, or it names none: every
/// chain game and every tile game from before the rules).
///
/// # Errors
/// [`GameError::Replay`] for a setup that does not read or names no rule this service has.
pub fn challenge_rule_of(setup: Option<&str>) -> Result<ChallengeRule, GameError> {
    #[derive(serde::Deserialize)]
    struct Pinned {
        #[serde(default)]
        challenge: ChallengeRule,
    }
    match setup {
        Some(json) => serde_json::from_str::<Pinned>(json).map(|p| p.challenge).map_err(|e| GameError::Replay(format!("setup: {e}"))),
        None => Ok(ChallengeRule::Void),
    }
}

/// The families the service plays, with what each needs (the tile games' word graphs, each
/// loaded on first use; the chain's dictionary is parsed on first use).
#[derive(Clone)]
pub struct Families {
    lexicons: Arc<Lexicons>,
}

impl Families {
    /// The families over `lexicons`.
    pub fn new(lexicons: Arc<Lexicons>) -> Families {
        Families { lexicons }
    }

    /// A new game's setup for `seats` seats from `seed`.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the family cannot set up such a game.
    pub fn setup(&self, variant: Variant, seats: usize, seed: u64) -> Result<NewSetup, GameError> {
        self.setup_with(variant, seats, seed, ChallengeRule::Void)
    }

    /// As [`Families::setup`], a tile game under the challenge rule `challenge` (pinned in its
    /// setup; the chain's is always void).
    ///
    /// # Errors
    /// As [`Families::setup`].
    pub fn setup_with(&self, variant: Variant, seats: usize, seed: u64, challenge: ChallengeRule) -> Result<NewSetup, GameError> {
        match tile_rules(variant) {
            Some(v) => {
                let setup = engine::Setup { variant: v, seats, seed, no_repeat_words: v.rules().no_repeat_words, challenge };
                let json = serde_json::to_string(&setup).expect("a setup always serializes");
                Ok(NewSetup { seed, no_repeat_words: Some(setup.no_repeat_words), setup: json })
            }
            None => Ok(NewSetup { seed, no_repeat_words: None, setup: ChainGame::new(seed)?.setup_json() }),
        }
    }

    /// The stored game, replayed.
    ///
    /// # Errors
    /// [`GameError::Replay`] if its setup or journal does not replay.
    pub fn replay(&self, stored: &Stored<'_>) -> Result<AnyGame<'_>, GameError> {
        match tile_rules(stored.variant) {
            Some(variant) => {
                // The challenge rule is pinned in the setup as written (absent: void, as every
                // game before the rule was).
                let challenge = challenge_rule_of(stored.setup)?;
                let setup = engine::Setup {
                    variant,
                    seats: stored.seats,
                    seed: stored.seed,
                    no_repeat_words: stored.no_repeat_words.unwrap_or(false),
                    challenge,
                };
                Ok(AnyGame::Tile(TileGame::replay(&setup, stored.journal, &self.lexicons)?))
            }
            None => {
                let setup = stored.setup.ok_or_else(|| GameError::Replay("a chain game without its setup".into()))?;
                Ok(AnyGame::Chain(ChainGame::replay(setup, stored.journal)?))
            }
        }
    }

    /// The game `state` was taken from, playing with these families' word lists again: the same
    /// game a replay of its journal gives, without the replay.
    pub fn resume(&self, state: GameState) -> AnyGame<'_> {
        match state {
            GameState::Tile(game) => AnyGame::Tile(TileGame::resume(*game, &self.lexicons)),
            GameState::Chain(game) => AnyGame::Chain(game),
        }
    }

    /// Who moves first among `participants`, by the variant's draw.
    ///
    /// # Errors
    /// [`GameError::Replay`] for a participant count the family does not seat.
    pub fn draw(&self, variant: Variant, participants: usize, entropy: &mut dyn crate::Entropy) -> Result<Draw, GameError> {
        match tile_rules(variant) {
            Some(v) => {
                let drawn = engine::seating::draw(v.rules(), participants, entropy).map_err(|e| GameError::Replay(e.to_string()))?;
                let log = drawn.log.iter().map(DrawPick::of_tile).collect();
                Ok(Draw { leader: drawn.leader, log })
            }
            None => Ok(Lots::new(participants).run(entropy)),
        }
    }
}
