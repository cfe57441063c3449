//! The chain family behind the contract: Nối từ, played by the `noitu` crate over its built-in
//! dictionary (parsed on first use). The chain, its syllables and the used words stay here.
//! Nothing in a chain game is private: every seat sees everything.

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

fn dictionary() -> &'static Dictionary {
    Dictionary::builtin()
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

impl ChainGame {
    /// A new game: the opening word drawn from `seed` and pinned into the setup.
    ///
    /// # Errors
    /// [`GameError::Replay`] if no opening fits (a dictionary fault).
    pub fn new(seed: u64) -> Result<ChainGame, GameError> {
        let game = Game::new(&noitu::Setup::new(seed), dictionary()).map_err(|e| GameError::Replay(e.to_string()))?;
        Ok(ChainGame { game })
    }

    /// The game `journal` (the chain's entries as a JSON array) leads to from `setup` (the
    /// setup as JSON, its opening pinned).
    ///
    /// # Errors
    /// [`GameError::Replay`] if the setup or journal does not read or replay.
    pub fn replay(setup: &str, journal: &str) -> Result<ChainGame, GameError> {
        let bad = |e: String| GameError::Replay(e);
        let setup: noitu::Setup = serde_json::from_str(setup).map_err(|e| bad(e.to_string()))?;
        let entries: Vec<noitu::JournalEntry> = serde_json::from_str(journal).map_err(|e| bad(e.to_string()))?;
        let game = noitu::replay(&setup, &entries, dictionary()).map_err(|e| bad(e.to_string()))?;
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

    fn links(&self) -> Vec<ChainLink> {
        let dict = dictionary();
        self.game
            .journal()
            .iter()
            .filter_map(|e| match &e.action {
                noitu::Action::Word { word } => {
                    let id = dict.lookup(word)?;
                    Some(ChainLink {
                        move_no: e.move_no,
                        seat: e.seat,
                        word: word.clone(),
                        points: e.score as i32,
                        ends_on: dict.syllable(dict.last(id)).to_string(),
                    })
                }
                _ => None,
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
        };
        Ok(Checked(CheckedInner::Chain(c.map_err(rejected)?)))
    }

    fn check_timeout(&self, now: Timestamp) -> Result<Checked, GameError> {
        Ok(Checked(CheckedInner::Chain(self.game.check_timeout(now).map_err(rejected)?)))
    }

    fn apply(&mut self, c: Checked) -> Entry {
        Entry::Chain(self.game.apply(checked(c)).clone())
    }

    fn preview(&self, c: &Checked) -> Score {
        match &c.0 {
            CheckedInner::Chain(c) => {
                Score::Chain(ChainScore { word: c.word().map(|w| dictionary().text(w).to_string()), total: c.score() as i32 })
            }
            CheckedInner::Tile(_) => panic!("a tile move previewed in a chain game"),
        }
    }

    fn view(&self, _viewer: Option<Seat>) -> FamilyView {
        let dict = dictionary();
        FamilyView::Chain(ChainView {
            opening: dict.text(self.game.opening()).to_string(),
            chain: self.links(),
            syllable: dict.syllable(self.game.current()).to_string(),
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
        let dict = dictionary();
        let view = RobotView::new(&self.game);
        // The hard robot's judgement, best first: each link it may play valued by its search
        // (a link leaving no answer wins), within `budget`; a link's unused words, longer first
        // (more points), then the dictionary's order.
        let judged = noitu::robot::Hard::default().judge(&view, &mut budget);
        let mut words: Vec<WordId> = Vec::new();
        for (link, _) in judged {
            let mut parallel: Vec<WordId> = dict.link(link).words().filter(|&w| !view.is_used(w)).collect();
            parallel.sort_by_key(|&w| (std::cmp::Reverse(dict.syllables_in(w)), w));
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
                let word = dict.text(w).to_string();
                let score = self.game.check(seat, &word, now).map_or(0, |c| c.score() as i32);
                let replies = view.replies_after(w);
                Hint::Chain(ChainHint { word, score, replies, answer_wins: replies > 0 && answer_wins(&view, w) })
            })
            .collect())
    }

    fn robot(&self, level: Level, seed: u64, mut budget: Budget) -> Result<Option<RobotMove>, GameError> {
        let strategy = noitu::robot::strategy(level);
        let decision = strategy.decide(&RobotView::new(&self.game), &mut seeded(seed), &mut budget);
        Ok(decision.map(|d| RobotMove { mv: Move::Word { word: dictionary().text(d.word).to_string() }, thinking_ms: d.thinking_ms }))
    }

    fn timeline(&self) -> Result<Timeline, GameError> {
        let dict = dictionary();
        let mut game = Game::new(self.game.setup(), dict).map_err(|e| GameError::Replay(e.to_string()))?;
        let step = |game: &Game<'_>, index: usize, mv: Option<EntryView>| ChainStep {
            index,
            mv,
            scores: game.scores().iter().map(|&s| s as i32).collect(),
            syllable: dict.syllable(game.current()).to_string(),
            to_move: (!game.is_over()).then(|| game.to_move()),
        };
        let mut steps = vec![step(&game, 0, None)];
        for entry in self.game.journal() {
            let refused = |r: noitu::Rejection| GameError::Replay(format!("entry {}: {r}", entry.move_no));
            let c = match &entry.action {
                noitu::Action::Word { word } => game.check(entry.seat, word, Timestamp(i64::MIN)).map_err(refused)?,
                noitu::Action::Resign => game.check_resign(entry.seat).map_err(refused)?,
                noitu::Action::Timeout => {
                    game.set_deadline(Some(Timestamp(i64::MIN)));
                    game.check_timeout(Timestamp(i64::MIN)).map_err(refused)?
                }
            };
            let applied = Entry::Chain(game.apply(c).clone());
            steps.push(step(&game, steps.len(), Some(entry_view(&applied, Viewer::Admin))));
        }
        Ok(Timeline::Chain(ChainTimeline { opening: dict.text(game.opening()).to_string(), steps }))
    }
}
