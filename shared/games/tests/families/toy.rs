//! A third family, written in the tests and nowhere else, through the same contract as the real two: a
//! toy two-player game, "words from a shared rack". Both seats build words from one rack of
//! seven letters, each word once, a point a letter; three words each, or two passes in a row,
//! end it. It implements `Position`, `FamilyRules` and `FamilyTimeline` from outside the games
//! crate with the contract's public constructors only (`Checked::new`, `Entry::new`,
//! `EntryView::of`, the open outputs' `of`), and the contract's laws below hold for it as they
//! do for Scrabble and Nối từ.

use games::lots::Lots;
use games::{
    Analysis, Budget, Checked, Draw, Entry, EntryView, FamilyRules, FamilyTimeline, FamilyView, GameError, GameState, Hint, Judge, Level,
    Move, MoveKind, NewSetup, PageSeat, PlayerSummary, Position, Rejected, Revealed, Reviewed, RobotMove, Score, Seat, SeatDetail, Stage,
    Stored, Timeline, Timestamp, Variant, Viewer,
};
use serde::{Deserialize, Serialize};
use vocabulary::{ChallengeRule, Clocks, Family, Lapse, Opponent, ThinkingLimit, Work};

const FAMILY: &str = "toy";

/// The toy's one variant, in a family of its own: untimed or a limit a turn, no challenges.
pub const TOY: Variant = Variant::new("toy-rack", Family::new(FAMILY, FAMILY, Clocks::TurnTimer, false), 2, 2);
const WORDS: [&str; 16] =
    ["at", "am", "as", "me", "eat", "tea", "sat", "set", "mat", "met", "east", "seat", "team", "meat", "same", "steam"];
const RACKS: [&str; 2] = ["steamxo", "matesqu"];
const WORDS_EACH: usize = 3;

/// The setup: the shared rack.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ToySetup {
    rack: String,
}

/// A toy move's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ToyKind {
    Word,
    Pass,
    Resign,
    Timeout,
}

impl ToyKind {
    fn kind(self) -> MoveKind {
        match self {
            ToyKind::Word => MoveKind::Word,
            ToyKind::Pass => MoveKind::Pass,
            ToyKind::Resign => MoveKind::Resign,
            ToyKind::Timeout => MoveKind::Timeout,
        }
    }
}

/// A journal entry as the toy writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ToyEntry {
    move_no: u32,
    seat: u8,
    kind: ToyKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    word: Option<String>,
    score: i32,
}

/// A game: the rack, the entries and the deadline of the turn.
#[derive(Debug, Clone)]
struct ToyGame {
    setup: ToySetup,
    journal: Vec<ToyEntry>,
    deadline: Option<Timestamp>,
}

fn refused(code: &'static str, message: &str) -> GameError {
    GameError::Rejected(Rejected { code, message: message.into(), details: serde_json::Value::Null })
}

impl ToyGame {
    fn formable(&self, word: &str) -> bool {
        let mut left: Vec<char> = self.setup.rack.chars().collect();
        word.chars().all(|c| left.iter().position(|&l| l == c).map(|i| left.remove(i)).is_some())
    }
    fn used(&self, word: &str) -> bool {
        self.journal.iter().any(|e| e.word.as_deref() == Some(word))
    }
    fn playable(&self) -> Vec<&'static str> {
        WORDS.into_iter().filter(|w| self.formable(w) && !self.used(w)).collect()
    }
    fn words_played(&self) -> usize {
        self.journal.iter().filter(|e| e.kind == ToyKind::Word).count()
    }
    fn entry_of(e: &ToyEntry) -> Entry {
        Entry::new(e.move_no, Seat(e.seat), e.kind.kind(), e.score, e)
    }
}

impl Position for ToyGame {
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        Seat((self.journal.len() % 2) as u8)
    }
    fn is_over(&self) -> bool {
        let passes = self.journal.iter().rev().take_while(|e| e.kind == ToyKind::Pass).count();
        self.words_played() >= 2 * WORDS_EACH
            || passes >= 2
            || self.journal.iter().any(|e| matches!(e.kind, ToyKind::Resign | ToyKind::Timeout))
    }
    fn move_count(&self) -> u32 {
        self.journal.len() as u32
    }
    fn scores(&self) -> Vec<i32> {
        (0..2u8).map(|s| self.journal.iter().filter(|e| e.seat == s).map(|e| e.score).sum()).collect()
    }
    fn outcome(&self) -> Option<games::Outcome> {
        if !self.is_over() {
            return None;
        }
        let last = self.journal.last()?;
        let scores = self.scores();
        let (reason, seat, winners) = match last.kind {
            ToyKind::Resign => (games::EndReason::Resigned, Some(Seat(last.seat)), vec![Seat(1 - last.seat)]),
            ToyKind::Timeout => (games::EndReason::Timeout, Some(Seat(last.seat)), vec![Seat(1 - last.seat)]),
            _ => {
                let best = scores.iter().copied().max().unwrap_or(0);
                (games::EndReason::ScorelessTurns, None, (0..2u8).filter(|&s| scores[usize::from(s)] == best).map(Seat).collect())
            }
        };
        Some(games::Outcome { reason, seat, winners, adjustments: vec![0, 0] })
    }
    fn revealed(&self) -> Revealed {
        Revealed::of(&serde_json::json!({ "racks": null }))
    }
    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.deadline = deadline;
    }
    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.journal.get(move_no as usize).map(ToyGame::entry_of)
    }
    fn entry_view(&self, move_no: u32, _viewer: Viewer) -> Option<EntryView> {
        let e = self.journal.get(move_no as usize)?;
        Some(EntryView::of(&ToyGame::entry_of(e), &serde_json::json!({ "kind": e.kind, "word": e.word })))
    }
    fn check(&self, seat: Seat, mv: &Move, _now: Timestamp) -> Result<Checked, GameError> {
        if self.is_over() {
            return Err(refused("game_over", "the game is over"));
        }
        if seat != self.to_move() && *mv != Move::Resign {
            return Err(refused("not_your_turn", "not your turn"));
        }
        let entry = |kind, word: Option<String>, score| ToyEntry { move_no: self.move_count(), seat: seat.0, kind, word, score };
        let checked = match mv {
            Move::Word { word } => {
                let word = word.trim().to_lowercase();
                if !WORDS.contains(&word.as_str()) {
                    return Err(refused("not_a_word", "not in the list"));
                }
                if !self.formable(&word) {
                    return Err(refused("not_on_rack", "the rack lacks its letters"));
                }
                if self.used(&word) {
                    return Err(refused("word_used", "played already"));
                }
                let score = word.chars().count() as i32;
                entry(ToyKind::Word, Some(word), score)
            }
            Move::Pass => entry(ToyKind::Pass, None, 0),
            Move::Resign => entry(ToyKind::Resign, None, 0),
            Move::Play { .. } | Move::Exchange { .. } | Move::Challenge | Move::Accept => {
                return Err(GameError::WrongFamily { family: FAMILY, kind: "tile" });
            }
        };
        Ok(Checked::new(FAMILY, checked))
    }
    fn check_timeout(&self, now: Timestamp, _lapse: Lapse) -> Result<Checked, GameError> {
        match self.deadline {
            _ if self.is_over() => Err(refused("game_over", "the game is over")),
            Some(d) if now >= d => Ok(Checked::new(
                FAMILY,
                ToyEntry { move_no: self.move_count(), seat: self.to_move().0, kind: ToyKind::Timeout, word: None, score: 0 },
            )),
            _ => Err(refused("deadline_not_passed", "time is not up")),
        }
    }
    fn time_penalty(&self, _seat: Seat, _points: i32) -> Option<Checked> {
        None
    }
    fn apply(&mut self, checked: Checked) -> Entry {
        let e: ToyEntry = checked.take();
        assert_eq!(e.move_no, self.move_count(), "checked against this state");
        self.journal.push(e);
        self.deadline = None;
        ToyGame::entry_of(self.journal.last().expect("just pushed"))
    }
    fn preview(&self, checked: &Checked) -> Score {
        let e: &ToyEntry = checked.get();
        Score::of(&serde_json::json!({ "word": e.word, "total": e.score }))
    }
    fn view(&self, _viewer: Option<Seat>) -> FamilyView {
        let words: Vec<&str> = self.journal.iter().filter_map(|e| e.word.as_deref()).collect();
        FamilyView::of(&serde_json::json!({ "rack": self.setup.rack, "words": words }))
    }
    fn seat_detail(&self, _seat: Seat) -> SeatDetail {
        SeatDetail::of(&serde_json::json!({}))
    }
    fn hints(&self, _seat: Seat, limit: usize, mut budget: Budget) -> Result<Vec<Hint>, GameError> {
        if self.is_over() {
            return Err(refused("game_over", "the game is over"));
        }
        let mut words = Vec::new();
        for (n, w) in self.playable().into_iter().enumerate() {
            if budget.expired(Work::Nodes(n as u64)) {
                break;
            }
            words.push(w);
        }
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        Ok(words.into_iter().take(limit).map(|w| Hint::of(&serde_json::json!({ "word": w, "score": w.len() }))).collect())
    }
    fn robot(&self, level: Level, seed: u64, budget: Budget, _against: Opponent) -> Result<Option<RobotMove>, GameError> {
        if self.is_over() {
            return Ok(None);
        }
        let hints = self.hints(self.to_move(), WORDS.len(), budget)?;
        let pick = match level {
            Level::Easy => hints.last(),
            Level::Medium => hints.get((seed % 2) as usize).or(hints.first()),
            Level::Hard => hints.first(),
        };
        let mv = pick.map_or(Move::Pass, |h| Move::Word { word: h.json()["word"].as_str().unwrap_or_default().into() });
        Ok(Some(RobotMove { mv, thinking_ms: 100 }))
    }
    fn timeline(&self) -> Result<Timeline, GameError> {
        let mut steps = vec![vec![0, 0]];
        let mut lines = Vec::new();
        for e in &self.journal {
            let mut scores = steps.last().cloned().unwrap_or_default();
            scores[usize::from(e.seat)] += e.score;
            steps.push(scores);
            lines.push((usize::from(e.seat), e.word.clone().unwrap_or_else(|| e.kind.kind().id().to_string())));
        }
        Ok(Timeline::new(ToyTimeline { rack: self.setup.rack.clone(), steps, lines }))
    }
    fn export(&self, _header: &games::GcgHeader<'_>) -> Option<Result<String, GameError>> {
        None
    }
    fn analysis(&self) -> Result<Analysis, GameError> {
        let players = (0..2u8)
            .map(|s| PlayerSummary {
                seat: usize::from(s),
                moves: self.journal.iter().filter(|e| e.seat == s).count() as u32,
                mean_equity_lost: None,
                best_move: None,
                worst_move: None,
                missed_wins: None,
            })
            .collect();
        // The toy reviews nothing: its judge is named, with no budget spent.
        let judge = Judge { level: Level::Hard, rounds: None, nodes: None };
        Ok(Analysis { judge, reviewed: Reviewed::of(&serde_json::json!({ "family": FAMILY, "words": [] })), players })
    }
    fn state(&self) -> GameState {
        GameState::new(self.clone())
    }
}

/// The toy's admin replay: the rack, the running scores, who played what.
#[derive(Debug)]
struct ToyTimeline {
    rack: String,
    steps: Vec<Vec<i32>>,
    lines: Vec<(usize, String)>,
}

impl FamilyTimeline for ToyTimeline {
    fn data(&self) -> serde_json::Value {
        serde_json::json!({ "rack": self.rack, "steps": self.steps })
    }
    fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        self.lines.iter().map(|(seat, what)| format!("{} {what}", name_of(*seat))).collect()
    }
    fn finals(&self) -> Vec<i32> {
        self.steps.last().cloned().unwrap_or_default()
    }
    fn last_step(&self) -> usize {
        self.steps.len() - 1
    }
    fn points_decide(&self) -> bool {
        true
    }
    fn stage(&self, seats: &[PageSeat<'_>]) -> Stage {
        let escaped = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let names: Vec<String> = seats.iter().map(|s| format!("<span id=\"score-{}\">{}</span>", s.seat, escaped(s.name))).collect();
        Stage {
            style: "",
            body: format!("<p>Rack: {} · {}</p>", escaped(&self.rack), names.join(" ")),
            script: "const steps = data.steps; const last = steps.length - 1; let step = 0; function render() {}",
            log_title: "Words",
            draw_title: "Draw of lots",
        }
    }
    fn analysis_lines(&self, _analysis: &serde_json::Value, _name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        Vec::new()
    }
    fn export(&self) -> Option<&'static str> {
        None
    }
}

/// The toy's entry points.
pub struct ToyRules;

impl FamilyRules for ToyRules {
    fn setup(&self, _variant: Variant, _seats: usize, seed: u64, _challenge: ChallengeRule) -> Result<NewSetup, GameError> {
        let setup = ToySetup { rack: RACKS[(seed % RACKS.len() as u64) as usize].to_string() };
        Ok(NewSetup { seed, no_repeat_words: None, setup: serde_json::to_string(&setup).expect("plain data") })
    }
    fn replay<'a>(&'a self, stored: &Stored<'_>) -> Result<Box<dyn Position + 'a>, GameError> {
        let bad = |e: serde_json::Error| GameError::Replay(e.to_string());
        let setup: ToySetup = serde_json::from_str(stored.setup.unwrap_or_default()).map_err(bad)?;
        let entries: Vec<ToyEntry> = serde_json::from_str(stored.journal).map_err(bad)?;
        let mut game = ToyGame { setup, journal: Vec::new(), deadline: None };
        for e in entries {
            let mv = match (e.kind, &e.word) {
                (ToyKind::Word, Some(word)) => Move::Word { word: word.clone() },
                (ToyKind::Pass, _) => Move::Pass,
                (ToyKind::Resign, _) => Move::Resign,
                (ToyKind::Timeout, _) => {
                    game.journal.push(e);
                    continue;
                }
                _ => return Err(GameError::Replay(format!("entry {} does not replay", e.move_no))),
            };
            let checked = game.check(Seat(e.seat), &mv, Timestamp(0)).map_err(|err| GameError::Replay(err.to_string()))?;
            game.apply(checked);
        }
        Ok(Box::new(game))
    }
    fn resume<'a>(&'a self, state: &GameState) -> Box<dyn Position + 'a> {
        Box::new(state.get::<ToyGame>().clone())
    }
    fn draw(&self, _variant: Variant, participants: usize, entropy: &mut dyn games::Entropy) -> Result<Draw, GameError> {
        Ok(Lots::new(participants).run(entropy))
    }
}
