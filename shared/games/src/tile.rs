//! The tile family behind the contract: Scrabble (English, Russian) and Эрудит, played by the
//! `engine` crate. Board, racks, bag, premiums, words and the no-repeat rule stay here.

use engine::robot::{LevelRobot, RobotView, seeded};
use engine::{Lexicon, Lexicons, MoveGenerator, RackTile, Square};

use crate::contract::{
    Budget, Checked, CheckedInner, FamilyView, GameError, Hint, Level, Position, RobotMove, Score, SeatDetail, Timeline,
};
use crate::entry::Entry;
use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::seat::{Seat, Timestamp};
use crate::variant::{Family, Variant, of_tile};
use vocabulary::Lapse;

pub use crate::tile_view::{BoardTile, TileHint, TileTimeline, TileView};

/// The most hints one request gets.
const MAX_HINTS: usize = 20;

/// How long a robot's challenge (or acceptance) asks the client to show it thinking.
const CHALLENGE_THINKING_MS: u32 = 800;

/// Of 8 invalid plays, how many the medium robot challenges (it lets the rest stand).
const MEDIUM_CHALLENGES_OF_8: u64 = 6;

/// A tile game: the engine's game and the word graphs it is judged by (each loaded on first
/// use, so a route that judges no word never reads one).
#[derive(Debug, Clone)]
pub struct TileGame<'a> {
    game: engine::Game,
    lexicons: &'a Lexicons,
}

/// A lexicon that holds no word, for the checks that consult none (a resignation).
struct NoWords;

impl Lexicon for NoWords {
    fn contains(&self, _word: &[engine::Letter]) -> bool {
        false
    }
}

impl<'a> TileGame<'a> {
    /// The game `journal` (the engine's entries as a JSON array) leads to from `setup`.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not read or replay.
    pub fn replay(setup: &engine::Setup, journal: &str, lexicons: &'a Lexicons) -> Result<TileGame<'a>, GameError> {
        let entries: Vec<engine::JournalEntry> = serde_json::from_str(journal).map_err(|e| GameError::Replay(e.to_string()))?;
        let game = engine::replay(setup, &entries).map_err(|e| GameError::Replay(e.to_string()))?;
        Ok(TileGame { game, lexicons })
    }

    /// The engine's `game`, playing with `lexicons`.
    pub fn resume(game: engine::Game, lexicons: &'a Lexicons) -> TileGame<'a> {
        TileGame { game, lexicons }
    }

    /// The engine's game.
    pub fn game(&self) -> &engine::Game {
        &self.game
    }

    /// The game in GCG, with `header`'s id, names and description.
    ///
    /// # Errors
    /// [`GameError::Replay`] if the journal does not fold.
    pub fn gcg(&self, header: &crate::GcgHeader<'_>) -> Result<String, GameError> {
        engine::gcg::to_gcg(self.game.setup(), self.game.journal(), header).map_err(|e| GameError::Replay(e.to_string()))
    }

    /// The engine's game.
    pub(crate) fn engine_game(&self) -> &engine::Game {
        &self.game
    }

    pub(crate) fn graph(&self) -> Result<&'a engine::WordGraph, GameError> {
        Ok(self.lexicons.get(self.game.rules().variant)?)
    }
}

fn checked(c: Checked) -> engine::CheckedMove {
    match c.0 {
        CheckedInner::Tile(c) => c,
        CheckedInner::Chain(_) => panic!("a chain move applied to a tile game"),
    }
}

/// `seed`'s bits mixed (SplitMix64's finaliser), so nearby seeds decide independently.
fn mixed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl TileGame<'_> {
    /// A robot's answer to a play open to a challenge: hard challenges every invalid play,
    /// medium most (6 in 8, by `seed`), easy none; none challenges a valid play. After a play
    /// that went out, what it does not challenge it accepts. `None`: no play is open to one, or
    /// the robot lets it stand and moves on.
    fn robot_challenge(&self, level: Level, seed: u64) -> Result<Option<Move>, GameError> {
        if self.game.challengeable().is_none() {
            return Ok(None);
        }
        let invalid = self.game.open_play_valid(self.graph()?) == Some(false);
        let challenges = invalid
            && match level {
                Level::Hard => true,
                Level::Medium => mixed(seed) % 8 < MEDIUM_CHALLENGES_OF_8,
                Level::Easy => false,
            };
        Ok(if challenges {
            Some(Move::Challenge)
        } else if self.game.end_pending() {
            Some(Move::Accept)
        } else {
            None
        })
    }
}

impl Position for TileGame<'_> {
    fn variant(&self) -> Variant {
        of_tile(self.game.rules().variant)
    }

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
        self.game.scores().to_vec()
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let (reason, seat) = match end.reason {
            engine::EndReason::WentOut { seat } => (EndReason::WentOut, Some(seat)),
            engine::EndReason::ScorelessTurns => (EndReason::ScorelessTurns, None),
            engine::EndReason::Resigned { seat } => (EndReason::Resigned, Some(seat)),
            engine::EndReason::OutOfTime { seat } => (EndReason::Timeout, Some(seat)),
        };
        Some(Outcome { reason, seat, winners: self.game.winners(), adjustments: end.adjustments.clone() })
    }

    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.game.set_deadline(deadline);
    }

    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.game.journal().get(move_no as usize).cloned().map(Entry::Tile)
    }

    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        let m = mv.tile().ok_or(GameError::WrongFamily { family: Family::Tile, kind: "word" })?;
        let lexicon: &dyn Lexicon = match m {
            engine::Move::Play { .. } | engine::Move::Challenge => self.graph()?,
            _ => &NoWords,
        };
        let c = self.game.check(lexicon, seat, &m, now).map_err(crate::Rejected::from)?;
        Ok(Checked(CheckedInner::Tile(c)))
    }

    fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<Checked, GameError> {
        let c = self.game.check_timeout(now, lapse).map_err(crate::Rejected::from)?;
        Ok(Checked(CheckedInner::Tile(c)))
    }

    fn time_penalty(&self, seat: Seat, points: i32) -> Option<Checked> {
        self.game.time_penalty(seat, points).map(|c| Checked(CheckedInner::Tile(c)))
    }

    fn apply(&mut self, c: Checked) -> Entry {
        Entry::Tile(self.game.apply(checked(c)).clone())
    }

    fn preview(&self, c: &Checked) -> Score {
        match &c.0 {
            CheckedInner::Tile(c) => match c.action() {
                engine::moves::CheckedAction::Play { score, .. } => Score::Tile(score.clone()),
                _ => Score::Tile(engine::ScoreBreakdown { words: Vec::new(), bingo: 0, total: 0 }),
            },
            CheckedInner::Chain(_) => panic!("a chain move previewed in a tile game"),
        }
    }

    fn view(&self, viewer: Option<Seat>) -> FamilyView {
        let rules = self.game.rules();
        let mut played_words: Vec<String> = self.game.played_words().iter().cloned().collect();
        played_words.sort();
        let board = self
            .game
            .board()
            .tiles()
            .map(|(sq, t)| BoardTile { square: sq.to_string(), letter: rules.char_of(t.letter()), blank: t.is_blank() })
            .collect();
        let your_rack = viewer.map(|s| {
            self.game
                .rack(s)
                .tiles()
                .map(|t| match t {
                    RackTile::Letter(l) => rules.char_of(l).to_string(),
                    RackTile::Blank => "?".to_string(),
                })
                .collect()
        });
        FamilyView::Tile(TileView {
            no_repeat_words: self.game.no_repeat_words(),
            played_words,
            board,
            bag_size: self.game.bag().len(),
            your_rack,
            challenge_rule: self.game.challenge_rule(),
            challengeable: self.game.challengeable(),
            end_pending: self.game.end_pending(),
        })
    }

    fn seat_detail(&self, seat: Seat) -> SeatDetail {
        SeatDetail::Tile { rack_size: self.game.rack(seat).len() }
    }

    fn hints(&self, seat: Seat, limit: usize, _budget: Budget) -> Result<Vec<Hint>, GameError> {
        if self.game.is_over() {
            return Err(crate::Rejected::from(engine::Rejection::GameOver).into());
        }
        let rules = self.game.rules();
        let generator = MoveGenerator::new(rules, self.graph()?);
        let leave = engine::LeaveTable::standard(rules);
        // Static equity while tiles remain in the bag; with it empty, the endgame value.
        let plays = engine::endgame::ranked(&self.game, &generator, seat, limit.clamp(1, MAX_HINTS), &leave);
        Ok(plays.iter().map(|p| Hint::Tile(TileHint::of_play(rules, p))).collect())
    }

    fn robot(&self, level: Level, seed: u64, mut budget: Budget) -> Result<Option<RobotMove>, GameError> {
        if let Some(mv) = self.robot_challenge(level, seed)? {
            return Ok(Some(RobotMove { mv, thinking_ms: CHALLENGE_THINKING_MS }));
        }
        let robot = LevelRobot::new(level, &self.game, self.graph()?);
        let decision = engine::robot::Robot::decide(&robot, &RobotView::new(&self.game), &mut seeded(seed), &mut budget);
        Ok(Some(RobotMove { mv: decision.mv.into(), thinking_ms: decision.thinking_ms }))
    }

    fn timeline(&self) -> Result<Timeline, GameError> {
        let rules = self.game.rules();
        let timeline = engine::timeline::timeline(self.game.setup(), self.game.journal()).map_err(|e| GameError::Replay(e.to_string()))?;
        let premiums = crate::catalog::premium_names(&rules.layout);
        let values = rules.letters.iter().map(|l| (l.ch.to_string(), i32::from(l.value))).collect();
        Ok(Timeline::Tile(TileTimeline { premiums, start: Square::CENTER.to_string(), values, timeline }))
    }
}
