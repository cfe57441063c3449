//! The chain family behind the contract: Nối từ, played by the `noitu` crate over the built-in
//! word list its setup pins (parsed on first use: new games the everyday list, games created
//! before it pyvi's). The chain, its syllables and the used words stay here. Nothing in a chain
//! game is private: every seat sees everything.
//!
//! A word is shown as its player wrote it (`noitu::spelled`: lower case, composed, single spaces,
//! their tone placement and i or y); a word the game chooses (the opening, a robot's word, a hint)
//! in the spelling most writers use (`Dictionary::display`). Journals keep both the spelling and
//! the canonical key, which replay and the no-repeat rule read.

use noitu::robot::seeded;
use noitu::{Dictionary, Game, RobotView, WordId};

use crate::contract::{
    Budget, Checked, CheckedInner, FamilyView, GameError, Hint, Level, Position, RobotMove, Score, SeatDetail, Timeline,
};
use crate::entry::{Entry, EntryView, Viewer, entry_view};
use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::rejection::Rejected;
use crate::seat::{Seat, Timestamp};
use crate::variant::{Family, Variant};
use vocabulary::Lapse;

pub use crate::chain_view::{ChainHint, ChainLink, ChainScore, ChainStep, ChainTimeline, ChainView};

/// The most hints one request gets.
const MAX_HINTS: usize = 20;

/// A chain game over the built-in dictionary.
#[derive(Debug, Clone)]
pub struct ChainGame {
    game: Game<'static>,
}

/// Whether, after the legal move `word`, the opponent has an answer that leaves no word.
fn answer_wins(view: &RobotView<'_, '_>, word: WordId) -> bool {
    let dict = view.dictionary();
    let (at, to) = (view.current(), dict.last(word));
    dict.words_from(to).filter(|&reply| reply != word && !view.is_used(reply)).any(|reply| {
        let end = dict.last(reply);
        // Both words are spent by then: `word` begins at `at`, `reply` at `to`.
        view.remaining_from(end) == usize::from(at == end) + usize::from(to == end)
    })
}

impl ChainGame {
    /// The chain engine's game.
    pub(crate) fn engine_game(&self) -> &Game<'static> {
        &self.game
    }
}

fn rejected(r: noitu::Rejection) -> GameError {
    GameError::Rejected(Rejected::from(r))
}

fn checked(c: Checked) -> noitu::CheckedMove {
    match c.0 {
        CheckedInner::Chain(c) => c,
        CheckedInner::Tile(_) => panic!("a tile move applied to a chain game"),
    }
}

/// The last syllable of a word as shown.
fn last_syllable(word: &str) -> &str {
    word.rsplit(' ').next().unwrap_or(word)
}

impl ChainGame {
    /// A new game: the opening word drawn from `seed` and pinned into the setup.
    ///
    /// # Errors
    /// [`GameError::Replay`] if no opening fits (a dictionary fault).
    pub fn new(seed: u64) -> Result<ChainGame, GameError> {
        let setup = noitu::Setup::new(seed);
        let game = Game::new(&setup, Dictionary::of(setup.options.word_list)).map_err(|e| GameError::Replay(e.to_string()))?;
        Ok(ChainGame { game })
    }

    /// The game `journal` (the chain's entries as a JSON array) leads to from `setup` (the
    /// setup as JSON, its opening pinned), on the word list the setup names (pyvi's when it
    /// names none: it was stored before the everyday list).
    ///
    /// # Errors
    /// [`GameError::Replay`] if the setup or journal does not read or replay.
    pub fn replay(setup: &str, journal: &str) -> Result<ChainGame, GameError> {
        let bad = |e: String| GameError::Replay(e);
        let setup: noitu::Setup = serde_json::from_str(setup).map_err(|e| bad(e.to_string()))?;
        let entries: Vec<noitu::JournalEntry> = serde_json::from_str(journal).map_err(|e| bad(e.to_string()))?;
        let game = noitu::replay(&setup, &entries, Dictionary::of(setup.options.word_list)).map_err(|e| bad(e.to_string()))?;
        Ok(ChainGame { game })
    }

    /// The setup as stored, its opening word pinned.
    pub fn setup_json(&self) -> String {
        serde_json::to_string(self.game.setup()).expect("a setup always serializes")
    }

    /// The engine's game.
    pub fn game(&self) -> &Game<'static> {
        &self.game
    }

    fn dictionary(&self) -> &'static Dictionary {
        self.game.dictionary()
    }

    fn links(&self) -> Vec<ChainLink> {
        self.game
            .journal()
            .iter()
            .filter_map(|e| {
                let word = e.shown_word()?;
                Some(ChainLink {
                    move_no: e.move_no,
                    seat: e.seat,
                    word: word.to_string(),
                    points: e.score as i32,
                    ends_on: last_syllable(word).to_string(),
                })
            })
            .collect()
    }
}

impl Position for ChainGame {
    fn variant(&self) -> Variant {
        Variant::NoiTu
    }

    fn seats(&self) -> usize {
        2
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
        self.game.scores().iter().map(|&s| s as i32).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let reason = match end {
            noitu::EndReason::NoLegalMove { .. } => EndReason::NoLegalMove,
            noitu::EndReason::Timeout { .. } => EndReason::Timeout,
            noitu::EndReason::Resigned { .. } => EndReason::Resigned,
        };
        Some(Outcome { reason, seat: Some(end.loser()), winners: vec![end.winner()], adjustments: vec![0, 0] })
    }

    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.game.set_deadline(deadline);
    }

    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.game.journal().get(move_no as usize).cloned().map(Entry::Chain)
    }

    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        let c = match mv {
            Move::Word { word } => self.game.check(seat, word, now),
            Move::Resign => self.game.check_resign(seat),
            Move::Play { .. } => return Err(GameError::WrongFamily { family: Family::Chain, kind: "play" }),
            Move::Pass => return Err(GameError::WrongFamily { family: Family::Chain, kind: "pass" }),
            Move::Exchange { .. } => return Err(GameError::WrongFamily { family: Family::Chain, kind: "exchange" }),
            Move::Challenge => return Err(GameError::WrongFamily { family: Family::Chain, kind: "challenge" }),
            Move::Accept => return Err(GameError::WrongFamily { family: Family::Chain, kind: "accept" }),
        };
        Ok(Checked(CheckedInner::Chain(c.map_err(rejected)?)))
    }

    /// Running out of time always loses a chain game, whatever `lapse` says.
    fn check_timeout(&self, now: Timestamp, _lapse: Lapse) -> Result<Checked, GameError> {
        Ok(Checked(CheckedInner::Chain(self.game.check_timeout(now).map_err(rejected)?)))
    }

    fn time_penalty(&self, _seat: Seat, _points: i32) -> Option<Checked> {
        None
    }

    fn apply(&mut self, c: Checked) -> Entry {
        Entry::Chain(self.game.apply(checked(c)).clone())
    }

    fn preview(&self, c: &Checked) -> Score {
        match &c.0 {
            CheckedInner::Chain(c) => {
                let word = c.spelled().map(str::to_string).or_else(|| c.word().map(|w| self.dictionary().display(w).to_string()));
                Score::Chain(ChainScore { word, total: c.score() as i32 })
            }
            CheckedInner::Tile(_) => panic!("a tile move previewed in a chain game"),
        }
    }

    fn view(&self, _viewer: Option<Seat>) -> FamilyView {
        FamilyView::Chain(ChainView {
            opening: self.dictionary().display(self.game.opening()).to_string(),
            chain: self.links(),
            syllable: self.game.current_shown().to_string(),
            words_used: self.game.used().len(),
        })
    }

    fn seat_detail(&self, _seat: Seat) -> SeatDetail {
        SeatDetail::Chain {}
    }

    fn hints(&self, seat: Seat, limit: usize, mut budget: Budget) -> Result<Vec<Hint>, GameError> {
        if self.game.is_over() {
            return Err(rejected(noitu::Rejection::GameOver));
        }
        let dict = self.dictionary();
        let view = RobotView::new(&self.game);
        // The hard robot's judgement, best first: each link it may play valued by its search
        // (a link leaving no answer wins), within `budget`; a link's unused words, familiar
        // first, then longer (more points), then the dictionary's order.
        let judged = noitu::robot::Hard::default().judge(&view, &mut budget);
        let mut words: Vec<WordId> = Vec::new();
        for (link, _) in judged {
            let mut parallel: Vec<WordId> = dict.link(link).words().filter(|&w| !view.is_used(w)).collect();
            parallel.sort_by_key(|&w| (!dict.is_familiar(w), std::cmp::Reverse(dict.syllables_in(w)), w));
            words.extend(parallel);
            if words.len() >= limit.clamp(1, MAX_HINTS) {
                break;
            }
        }
        let now = Timestamp(i64::MIN);
        Ok(words
            .into_iter()
            .take(limit.clamp(1, MAX_HINTS))
            .map(|w| {
                let word = dict.display(w).to_string();
                let score = self.game.check(seat, &word, now).map_or(0, |c| c.score() as i32);
                let replies = view.replies_after(w);
                let familiarity = dict.familiarity(w);
                Hint::Chain(ChainHint { word, score, replies, answer_wins: replies > 0 && answer_wins(&view, w), familiarity })
            })
            .collect())
    }

    fn robot(&self, level: Level, seed: u64, mut budget: Budget) -> Result<Option<RobotMove>, GameError> {
        let strategy = noitu::robot::strategy(level);
        let decision = strategy.decide(&RobotView::new(&self.game), &mut seeded(seed), &mut budget);
        let dict = self.dictionary();
        Ok(decision.map(|d| RobotMove { mv: Move::Word { word: dict.display(d.word).to_string() }, thinking_ms: d.thinking_ms }))
    }

    fn timeline(&self) -> Result<Timeline, GameError> {
        let dict = self.dictionary();
        let mut game = Game::new(self.game.setup(), dict).map_err(|e| GameError::Replay(e.to_string()))?;
        let step = |game: &Game<'_>, index: usize, mv: Option<EntryView>| ChainStep {
            index,
            mv,
            scores: game.scores().iter().map(|&s| s as i32).collect(),
            syllable: game.current_shown().to_string(),
            to_move: (!game.is_over()).then(|| game.to_move()),
        };
        let mut steps = vec![step(&game, 0, None)];
        for entry in self.game.journal() {
            let applied = Entry::Chain(game.apply_recorded(entry).map_err(|e| GameError::Replay(e.to_string()))?.clone());
            steps.push(step(&game, steps.len(), Some(entry_view(&applied, Viewer::Admin))));
        }
        Ok(Timeline::Chain(ChainTimeline { opening: dict.display(game.opening()).to_string(), steps }))
    }
}
