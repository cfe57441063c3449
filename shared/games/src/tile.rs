//! The tile family behind the contract: Scrabble (English, Russian) and Эрудит, played by the
//! `engine` crate. Board, racks, bag, premiums, words and the no-repeat rule stay here.

use engine::robot::{LevelRobot, RobotView, seeded};
use engine::{Lexicon, Lexicons, MoveGenerator, RackTile, Square};

use std::sync::Arc;

use crate::analysis::{ANALYSIS_ROUNDS, Analysis, Judge, NamedMove, PlayerSummary, TileReview, points, tenths};
use crate::contract::{Budget, Checked, GameError, GameState, Level, Opponent, Position, RobotMove};
use crate::draw::{Draw, DrawPick};
use crate::entry::{Entry, EntryView, MoveKind, Viewer};
use crate::family::{FamilyRules, NewSetup, Stored, challenge_rule_of};
use crate::moves::Move;
use crate::open::{FamilyView, Hint, Revealed, Reviewed, Score, SeatDetail};
use crate::outcome::{EndReason, Outcome};
use crate::seat::{Seat, Timestamp};
use crate::timeline::Timeline;
use crate::variant::{Variant, tile_rules};
use vocabulary::{ChallengeRule, Lapse};

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

    /// The engine's game.
    pub(crate) fn engine_game(&self) -> &engine::Game {
        &self.game
    }

    pub(crate) fn graph(&self) -> Result<&'a engine::WordGraph, GameError> {
        Ok(self.lexicons.get(self.game.rules().variant)?)
    }
}

/// The family's name, in its checked moves.
const FAMILY: &str = "tile";

/// The tile family's entry points: Scrabble and Эрудит over their word graphs.
#[derive(Clone)]
pub struct TileRules {
    lexicons: Arc<Lexicons>,
}

impl TileRules {
    /// The tile family over `lexicons`.
    pub fn new(lexicons: Arc<Lexicons>) -> TileRules {
        TileRules { lexicons }
    }
}

/// The engine's variant that `variant` plays: a variant of another family is the caller's bug.
fn rules_of(variant: Variant) -> engine::TileVariant {
    tile_rules(variant).unwrap_or_else(|| panic!("{} is not a tile variant", variant.id()))
}

impl FamilyRules for TileRules {
    fn setup(&self, variant: Variant, seats: usize, seed: u64, challenge: ChallengeRule) -> Result<NewSetup, GameError> {
        let v = rules_of(variant);
        let setup = engine::Setup { variant: v, seats, seed, no_repeat_words: v.rules().no_repeat_words, challenge };
        let json = serde_json::to_string(&setup).expect("a setup always serializes");
        Ok(NewSetup { seed, no_repeat_words: Some(setup.no_repeat_words), setup: json })
    }

    fn replay<'a>(&'a self, stored: &Stored<'_>) -> Result<Box<dyn Position + 'a>, GameError> {
        // The challenge rule is pinned in the setup as written (absent: void, as every game
        // before the rule was).
        let setup = engine::Setup {
            variant: rules_of(stored.variant),
            seats: stored.seats,
            seed: stored.seed,
            no_repeat_words: stored.no_repeat_words.unwrap_or(false),
            challenge: challenge_rule_of(stored.setup)?,
        };
        Ok(Box::new(TileGame::replay(&setup, stored.journal, &self.lexicons)?))
    }

    fn resume<'a>(&'a self, state: &GameState) -> Box<dyn Position + 'a> {
        Box::new(TileGame::resume(state.get::<engine::Game>().clone(), &self.lexicons))
    }

    fn draw(&self, variant: Variant, participants: usize, entropy: &mut dyn crate::Entropy) -> Result<Draw, GameError> {
        let drawn =
            engine::seating::draw(rules_of(variant).rules(), participants, entropy).map_err(|e| GameError::Replay(e.to_string()))?;
        Ok(Draw { leader: drawn.leader, log: drawn.log.iter().map(DrawPick::of_tile).collect() })
    }
}

/// The contract's entry for the engine's journal `entry`.
pub fn entry_of(entry: &engine::JournalEntry) -> Entry {
    Entry::new(entry.move_no, entry.seat, entry.action.move_kind(), entry.score, entry)
}

/// What `viewer` may see of `entry`: everything, except that an exchange made by another seat
/// shows only how many tiles went back.
fn entry_view_of(entry: &engine::JournalEntry, viewer: Viewer) -> EntryView {
    #[derive(serde::Serialize)]
    struct Exchanged<'a> {
        kind: MoveKind,
        count: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        tiles: Option<&'a [engine::TileInput]>,
    }
    match &entry.action {
        engine::Action::Exchange { tiles } => {
            let sees = viewer.sees_private_of(entry.seat);
            EntryView::new(
                entry.move_no,
                entry.seat,
                entry.score,
                &Exchanged { kind: MoveKind::Exchange, count: tiles.len(), tiles: sees.then_some(tiles.as_slice()) },
            )
        }
        public => EntryView::new(entry.move_no, entry.seat, entry.score, public),
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
            engine::TileEndReason::WentOut { seat } => (EndReason::WentOut, Some(seat)),
            engine::TileEndReason::ScorelessTurns => (EndReason::ScorelessTurns, None),
            engine::TileEndReason::Resigned { seat } => (EndReason::Resigned, Some(seat)),
            engine::TileEndReason::OutOfTime { seat } => (EndReason::Timeout, Some(seat)),
        };
        Some(Outcome { reason, seat, winners: self.game.winners(), adjustments: end.adjustments.clone() })
    }

    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.game.set_deadline(deadline);
    }

    fn revealed(&self) -> Revealed {
        #[derive(serde::Serialize)]
        struct Racks {
            /// Every seat's leftover rack (letters, `?` for a blank), seat 0 first.
            racks: Vec<Vec<String>>,
        }
        let rules = self.game.rules();
        let rack = |s: usize| {
            self.game
                .rack(Seat(s as u8))
                .tiles()
                .map(|t| match t {
                    RackTile::Letter(l) => rules.char_of(l).to_string(),
                    RackTile::Blank => "?".to_string(),
                })
                .collect()
        };
        Revealed::of(&Racks { racks: (0..self.game.seats()).map(rack).collect() })
    }

    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.game.journal().get(move_no as usize).map(entry_of)
    }

    fn entry_view(&self, move_no: u32, viewer: Viewer) -> Option<EntryView> {
        self.game.journal().get(move_no as usize).map(|e| entry_view_of(e, viewer))
    }

    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        let m = mv.tile().ok_or(GameError::WrongFamily { family: FAMILY, kind: mv.kind() })?;
        let lexicon: &dyn Lexicon = match m {
            engine::TileMove::Play { .. } | engine::TileMove::Challenge => self.graph()?,
            _ => &NoWords,
        };
        let c = self.game.check(lexicon, seat, &m, now).map_err(crate::Rejected::from)?;
        Ok(Checked::new(FAMILY, c))
    }

    fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<Checked, GameError> {
        let c = self.game.check_timeout(now, lapse).map_err(crate::Rejected::from)?;
        Ok(Checked::new(FAMILY, c))
    }

    fn time_penalty(&self, seat: Seat, points: i32) -> Option<Checked> {
        self.game.time_penalty(seat, points).map(|c| Checked::new(FAMILY, c))
    }

    fn apply(&mut self, c: Checked) -> Entry {
        entry_of(self.game.apply(c.take::<engine::CheckedMove>()))
    }

    fn preview(&self, c: &Checked) -> Score {
        match c.get::<engine::CheckedMove>().action() {
            engine::moves::CheckedAction::Play { score, .. } => Score::of(score),
            _ => Score::of(&engine::ScoreBreakdown { words: Vec::new(), bingo: 0, total: 0 }),
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
        FamilyView::of(&TileView {
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
        #[derive(serde::Serialize)]
        struct RackSize {
            /// Tiles on the seat's rack.
            rack_size: usize,
        }
        SeatDetail::of(&RackSize { rack_size: self.game.rack(seat).len() })
    }

    fn hints(&self, seat: Seat, limit: usize, _budget: Budget) -> Result<Vec<Hint>, GameError> {
        if self.game.is_over() {
            return Err(crate::Rejected::from(engine::Rejection::GameOver).into());
        }
        // While the play that went out waits to be challenged or accepted, no play can be made.
        if self.game.end_pending() {
            return Err(crate::Rejected::from(engine::Rejection::ChallengeWindow).into());
        }
        let rules = self.game.rules();
        let generator = MoveGenerator::new(rules, self.graph()?);
        let leave = engine::LeaveTable::standard(rules);
        // Static equity while tiles remain in the bag; with it empty, the endgame value.
        let plays = engine::endgame::ranked(&self.game, &generator, seat, limit.clamp(1, MAX_HINTS), &leave);
        Ok(plays.iter().map(|p| Hint::of(&TileHint::of_play(rules, p))).collect())
    }

    fn robot(&self, level: Level, seed: u64, mut budget: Budget, _against: Opponent) -> Result<Option<RobotMove>, GameError> {
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
        Ok(Timeline::new(TileTimeline { premiums, start: Square::CENTER.to_string(), values, timeline }))
    }

    fn export(&self, header: &crate::GcgHeader<'_>) -> Option<Result<String, GameError>> {
        Some(engine::gcg::to_gcg(self.game.setup(), self.game.journal(), header).map_err(|e| GameError::Replay(e.to_string())))
    }

    fn analysis(&self) -> Result<Analysis, GameError> {
        analysis_of(self)
    }

    fn state(&self) -> GameState {
        GameState::new(self.game.clone())
    }
}

/// The tile family's reviews.
#[derive(serde::Serialize)]
#[serde(tag = "family", rename = "tile")]
struct TileReviews<'a> {
    moves: &'a [TileReview],
}

/// The analysis of tile game `t` (over or not: the service analyses finished games only).
///
/// # Errors
/// [`GameError::Lexicon`]; [`GameError::Replay`] for a journal that does not replay.
fn analysis_of(t: &TileGame<'_>) -> Result<Analysis, GameError> {
    let game = t.engine_game();
    let rules = game.rules();
    let reviews =
        engine::review::review(game.setup(), game.journal(), t.graph()?, ANALYSIS_ROUNDS).map_err(|e| GameError::Replay(e.to_string()))?;
    let moves = reviews
        .into_iter()
        .map(|r| {
            let (best_kind, best_exchange) = match &r.best {
                engine::TileMove::Exchange { tiles } => (
                    MoveKind::Exchange,
                    tiles
                        .iter()
                        .map(|t| match t {
                            engine::moves::TileInput::Letter(c) => c.to_string(),
                            engine::moves::TileInput::Blank => "?".to_string(),
                        })
                        .collect(),
                ),
                engine::TileMove::Play { .. } => (MoveKind::Play, Vec::new()),
                _ => (MoveKind::Pass, Vec::new()),
            };
            let best_play = r.best_play.map(|p| TileHint::of_play(rules, &p));
            let suggested = match &best_play {
                Some(p) => NamedMove::play(p.coord.clone(), p.word.clone(), p.score),
                None if best_kind == MoveKind::Exchange => NamedMove::exchange(best_exchange.len()),
                None => NamedMove::pass(),
            };
            let played = game.journal().iter().find(|e| e.move_no == r.move_no).map_or_else(NamedMove::pass, |e| named(e, r.played_score));
            // Compared as shown, to a tenth: nothing shown lost exactly when as good.
            let (played_t, best_t) = (tenths(r.played_equity), tenths(r.best_equity));
            TileReview {
                move_no: r.move_no,
                seat: r.seat.index(),
                played,
                played_equity: points(r.played_equity),
                suggested,
                best_kind,
                best_play,
                best_exchange,
                best_equity: points(r.best_equity),
                equity_lost: f64::from((best_t - played_t).max(0)) / 10.0,
                played_as_good: played_t >= best_t,
            }
        })
        .collect();
    let moves: Vec<TileReview> = moves;
    let players = (0..game.seats()).map(|seat| tile_summary(seat, &moves)).collect();
    let judge = Judge { level: Level::Hard, rounds: Some(ANALYSIS_ROUNDS), nodes: None };
    Ok(Analysis { judge, reviewed: Reviewed::of(&TileReviews { moves: &moves }), players })
}

/// The move journal entry `e` made, as the analysis names it (`score`: its points).
fn named(e: &engine::JournalEntry, score: i32) -> NamedMove {
    match &e.action {
        engine::Action::Play { tiles, words, .. } => {
            let (coord, word) = engine::gcg::notation(words, tiles).unwrap_or_default();
            NamedMove::play(coord, word, score)
        }
        engine::Action::Exchange { tiles } => NamedMove::exchange(tiles.len()),
        _ => NamedMove::pass(),
    }
}

/// A tile player's summary: moves reviewed, the mean equity given away, the best and worst.
fn tile_summary(seat: usize, moves: &[TileReview]) -> PlayerSummary {
    let mine: Vec<_> = moves.iter().filter(|m| m.seat == seat).collect();
    let lost: f64 = mine.iter().map(|m| m.equity_lost).sum();
    let by_lost = |m: &&&TileReview| (m.equity_lost * 10.0).round() as i64;
    PlayerSummary {
        seat,
        moves: mine.len() as u32,
        mean_equity_lost: (!mine.is_empty()).then(|| (lost / mine.len() as f64 * 10.0).round() / 10.0),
        best_move: mine.iter().min_by_key(by_lost).map(|m| m.move_no),
        worst_move: mine.iter().rev().max_by_key(by_lost).map(|m| m.move_no),
        missed_wins: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Action, JournalEntry, TileInput};

    #[test]
    fn an_exchange_shows_its_tiles_only_to_its_seat_and_admins() {
        let entry = JournalEntry {
            move_no: 4,
            seat: Seat(1),
            action: Action::Exchange { tiles: vec![TileInput::Letter('Q'), TileInput::Blank] },
            score: 0,
        };
        let tiles = |v: Viewer| {
            let shown = serde_json::to_value(entry_view_of(&entry, v)).unwrap();
            (shown["count"].as_u64(), shown.get("tiles").cloned())
        };
        let full = Some(serde_json::json!([{"letter": "Q"}, "blank"]));
        assert_eq!(tiles(Viewer::Seat(Seat(1))), (Some(2), full.clone()));
        assert_eq!(tiles(Viewer::Admin), (Some(2), full));
        assert_eq!(tiles(Viewer::Seat(Seat(0))), (Some(2), None));
        assert_eq!(tiles(Viewer::Public), (Some(2), None));
        let json = serde_json::to_value(entry_view_of(&entry, Viewer::Seat(Seat(0)))).unwrap();
        assert_eq!(json, serde_json::json!({"move_no": 4, "seat": 1, "kind": "exchange", "count": 2, "score": 0}));
        let pass = JournalEntry { move_no: 5, seat: Seat(0), action: Action::Pass, score: 0 };
        let json = serde_json::to_value(entry_view_of(&pass, Viewer::Public)).unwrap();
        assert_eq!(json, serde_json::to_value(&pass).unwrap(), "a public entry shows as journalled");
        assert_eq!(entry_of(&pass).to_json(), serde_json::to_string(&pass).unwrap(), "the journal row is the engine's entry");
        assert_eq!((entry_of(&entry).kind(), entry_of(&entry).seat(), entry_of(&entry).move_no()), (MoveKind::Exchange, Seat(1), 4));
    }
}
