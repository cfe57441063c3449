//! One game of any family ([`AnyGame`]), forwarding the contract to the family's game, and the
//! families' entry points ([`Families`], each family's [`FamilyRules`]): a new setup, replay from
//! storage, resuming a kept game, the draw for the first move. A new family implements
//! [`FamilyRules`] and [`Position`] and is named once, in [`Families::rules`], or added with [`Families::with`].

use std::sync::Arc;

use engine::Lexicons;

use crate::analysis::Analysis;
use crate::chain::ChainRules;
use crate::contract::{Budget, Checked, GameError, GameState, Level, Opponent, Position, RobotMove};
use crate::draw::Draw;
use crate::entry::{Entry, EntryView, Viewer};
use crate::family::{FamilyRules, NewSetup, Stored};
use crate::moves::Move;
use crate::open::{FamilyView, Hint, Revealed, Score, SeatDetail};
use crate::outcome::Outcome;
use crate::seat::{Seat, Timestamp};
use crate::tile::TileRules;
use crate::timeline::Timeline;
use crate::variant::{Family, Variant};
use vocabulary::{ChallengeRule, Lapse};

/// A game of any family: its variant and the family's game.
pub struct AnyGame<'a> {
    variant: Variant,
    game: Box<dyn Position + 'a>,
}

impl std::fmt::Debug for AnyGame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnyGame({}, move {})", self.variant.id(), self.game.move_count())
    }
}

impl<'a> AnyGame<'a> {
    /// The family's `game` of `variant`.
    pub fn new(variant: Variant, game: Box<dyn Position + 'a>) -> AnyGame<'a> {
        AnyGame { variant, game }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The seat to move, unless the game is over.
    pub fn next_seat(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.to_move())
    }

    /// Every journal entry, in order.
    pub fn entries(&self) -> Vec<Entry> {
        (0..self.move_count()).filter_map(|i| self.entry(i)).collect()
    }
}

impl Position for AnyGame<'_> {
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn to_move(&self) -> Seat {
        self.game.to_move()
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    fn move_count(&self) -> u32 {
        self.game.move_count()
    }
    fn scores(&self) -> Vec<i32> {
        self.game.scores()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn revealed(&self) -> Revealed {
        self.game.revealed()
    }
    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.game.set_deadline(deadline);
    }
    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.game.entry(move_no)
    }
    fn entry_view(&self, move_no: u32, viewer: Viewer) -> Option<EntryView> {
        self.game.entry_view(move_no, viewer)
    }
    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        self.game.check(seat, mv, now)
    }
    fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<Checked, GameError> {
        self.game.check_timeout(now, lapse)
    }
    fn time_penalty(&self, seat: Seat, points: i32) -> Option<Checked> {
        self.game.time_penalty(seat, points)
    }
    fn apply(&mut self, checked: Checked) -> Entry {
        self.game.apply(checked)
    }
    fn preview(&self, checked: &Checked) -> Score {
        self.game.preview(checked)
    }
    fn view(&self, viewer: Option<Seat>) -> FamilyView {
        self.game.view(viewer)
    }
    fn seat_detail(&self, seat: Seat) -> SeatDetail {
        self.game.seat_detail(seat)
    }
    fn hints(&self, seat: Seat, limit: usize, budget: Budget) -> Result<Vec<Hint>, GameError> {
        self.game.hints(seat, limit, budget)
    }
    fn robot(&self, level: Level, seed: u64, budget: Budget, against: Opponent) -> Result<Option<RobotMove>, GameError> {
        self.game.robot(level, seed, budget, against)
    }
    fn timeline(&self) -> Result<Timeline, GameError> {
        self.game.timeline()
    }
    fn export(&self, header: &crate::GcgHeader<'_>) -> Option<Result<String, GameError>> {
        self.game.export(header)
    }
    fn analysis(&self) -> Result<Analysis, GameError> {
        self.game.analysis()
    }
    fn state(&self) -> GameState {
        self.game.state()
    }
}

/// A family that cannot be added to [`Families`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot add the family: {0}")]
pub struct FamilyConflict(pub String);

/// The families the service plays, with what each needs (the tile games' word graphs, each
/// loaded on first use; the chain's dictionary is parsed on first use), and any family added
/// with [`Families::with`].
#[derive(Clone)]
pub struct Families {
    tile: TileRules,
    chain: ChainRules,
    added: Vec<(Family, Arc<dyn FamilyRules>)>,
}

impl Families {
    /// The shipped families over `lexicons`.
    pub fn new(lexicons: Arc<Lexicons>) -> Families {
        Families { tile: TileRules::new(lexicons), chain: ChainRules, added: Vec::new() }
    }

    /// These families and `rules`, which play `variants` (of one family, written outside the
    /// service); the variants parse from their ids from now on.
    ///
    /// # Errors
    /// [`FamilyConflict`], nothing admitted, if `variants` is empty or names more than one
    /// family, the family is here already, or a variant's id is another variant's.
    pub fn with(mut self, rules: Arc<dyn FamilyRules>, variants: &[Variant]) -> Result<Families, FamilyConflict> {
        let family = variants.first().ok_or_else(|| FamilyConflict("a family with no variant".into()))?.family();
        if variants.iter().any(|v| v.family() != family) {
            return Err(FamilyConflict(format!("the {} family's variants name other families", family.id())));
        }
        if self.rules(family).is_ok() {
            return Err(FamilyConflict(format!("the {} family is here already", family.id())));
        }
        if let Some(taken) = variants.iter().find(|v| v.id().parse::<Variant>().is_ok_and(|known| known != **v)) {
            return Err(FamilyConflict(format!("another variant is called {}", taken.id())));
        }
        for &v in variants {
            Variant::admit(v).map_err(|e| FamilyConflict(e.to_string()))?;
        }
        self.added.push((family, rules));
        Ok(self)
    }

    /// The rules of `family`: the one place that names every shipped family.
    ///
    /// # Errors
    /// [`GameError::NoFamily`] for a family not here (a variant made but never added).
    pub fn rules(&self, family: Family) -> Result<&dyn FamilyRules, GameError> {
        match family {
            Family::TILE => Ok(&self.tile),
            Family::CHAIN => Ok(&self.chain),
            _ => self.added.iter().find(|(f, _)| *f == family).map(|(_, rules)| &**rules).ok_or(GameError::NoFamily(family.id())),
        }
    }

    /// A new game's setup for `seats` seats from `seed`.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the family cannot set up such a game.
    pub fn setup(&self, variant: Variant, seats: usize, seed: u64) -> Result<NewSetup, GameError> {
        self.setup_with(variant, seats, seed, ChallengeRule::Void)
    }

    /// As [`Families::setup`], under the challenge rule `challenge` (pinned in a tile game's
    /// setup; the chain's is always void).
    ///
    /// # Errors
    /// As [`Families::setup`].
    pub fn setup_with(&self, variant: Variant, seats: usize, seed: u64, challenge: ChallengeRule) -> Result<NewSetup, GameError> {
        self.rules(variant.family())?.setup(variant, seats, seed, challenge)
    }

    /// The stored game, replayed.
    ///
    /// # Errors
    /// [`GameError::Replay`] if its setup or journal does not replay.
    pub fn replay(&self, stored: &Stored<'_>) -> Result<AnyGame<'_>, GameError> {
        Ok(AnyGame::new(stored.variant, self.rules(stored.variant.family())?.replay(stored)?))
    }

    /// The game of `variant` that `state` was taken from, playing with these families' word
    /// lists again: the same game a replay of its journal gives, without the replay.
    ///
    /// # Errors
    /// [`GameError::NoFamily`] if the variant's family is not here.
    pub fn resume(&self, variant: Variant, state: &GameState) -> Result<AnyGame<'_>, GameError> {
        Ok(AnyGame::new(variant, self.rules(variant.family())?.resume(state)))
    }

    /// Who moves first among `participants`, by the variant's draw.
    ///
    /// # Errors
    /// [`GameError::Replay`] for a participant count the family does not seat.
    pub fn draw(&self, variant: Variant, participants: usize, entropy: &mut dyn crate::Entropy) -> Result<Draw, GameError> {
        self.rules(variant.family())?.draw(variant, participants, entropy)
    }
}
