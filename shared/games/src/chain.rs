//! The chain family behind the contract: Nối từ, played by the `noitu` crate over the built-in
//! word list its setup pins (parsed on first use: new games the everyday list, games created
//! before it pyvi's). The chain, its syllables and the used words stay here. Nothing in a chain
//! game is private: every seat sees everything.
//!
//! A word is shown as its player wrote it (`noitu::spelled`: lower case, composed, single spaces,
//! their tone placement and i or y); a word the game chooses (the opening, a robot's word, a hint)
//! in the spelling most writers use (`Dictionary::display`). Journals keep both the spelling and
//! the canonical key, which replay and the no-repeat rule read; an entry's view shows the word
//! as played (`word`) and the key beside it (`key`).
//!
//! Robots play a person unless every other seat is a robot (`Opponent`); against a person a
//! robot that knows no familiar word concedes: its move is a resignation.

use noitu::robot::seeded;
use noitu::{ChainRobotView, Dictionary, WordChain, WordId};

use crate::analysis::{ANALYSIS_NODES, Analysis, ChainReview, Judge, PlayerSummary};
use crate::contract::{Budget, Checked, GameError, GameState, Level, Opponent, Position, RobotMove};
use crate::draw::Draw;
use crate::entry::{Entry, EntryView, MoveKind, Viewer};
use crate::family::{FamilyRules, NewSetup, Stored};
use crate::lots::Lots;
use crate::moves::Move;
use crate::open::{FamilyView, Hint, Revealed, Reviewed, Score, SeatDetail};
use crate::outcome::{EndReason, Outcome};
use crate::rejection::Rejected;
use crate::seat::{Seat, Timestamp};
use crate::timeline::Timeline;
use crate::variant::Variant;
use vocabulary::{ChallengeRule, Lapse};

pub use crate::chain_view::{ChainHint, ChainLink, ChainScore, ChainStep, ChainTimeline, ChainView};

/// The most hints one request gets.
const MAX_HINTS: usize = 20;

/// How long a robot that concedes seems to look for a word first.
const CONCEDE_THINKING_MS: u32 = 1_500;

/// A chain entry's action as every viewer sees it: a word as played, with its canonical key.
#[derive(serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ActionView<'a> {
    /// A word: `word` as its player wrote it (tidied), or, for an entry that did not record
    /// that, the key (as old games always read); `key` what replay and the no-repeat rule read.
    Word { word: &'a str, key: &'a str },
    /// A resignation.
    Resign,
    /// A timeout.
    Timeout,
    /// A group chain's new round, from the opening `word` (as the dictionary spells it), for
    /// the entry's seat.
    Round { word: &'a str, key: &'a str },
}

/// The view of the chain's journal entry `e`, the same for every viewer.
fn entry_view(e: &noitu::ChainJournalEntry, dict: &Dictionary) -> EntryView {
    let action = match &e.action {
        noitu::ChainAction::Word { word: key, .. } => ActionView::Word { word: e.shown_word().unwrap_or(key), key },
        noitu::ChainAction::Resign => ActionView::Resign,
        noitu::ChainAction::Timeout => ActionView::Timeout,
        noitu::ChainAction::Round { word: key } => ActionView::Round { word: dict.shown(key), key },
    };
    EntryView::new(e.move_no, e.seat, score_of(e), &action)
}

/// A chain game over the built-in dictionary.
#[derive(Debug, Clone)]
pub struct ChainGame {
    game: WordChain<'static>,
}

/// Whether, after the legal move `word`, the opponent has an answer that leaves no word.
fn answer_wins(view: &ChainRobotView<'_, '_>, word: WordId) -> bool {
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
    pub(crate) fn engine_game(&self) -> &WordChain<'static> {
        &self.game
    }
}

fn rejected(r: noitu::ChainRejection) -> GameError {
    GameError::Rejected(Rejected::from(r))
}

/// The family's name, in its checked moves.
const FAMILY: &str = "chain";

/// The chain family's entry points: Nối từ over its built-in word lists.
#[derive(Debug, Clone, Copy)]
pub struct ChainRules;

impl FamilyRules for ChainRules {
    /// A chain game is always under the void rule: the variant's checks refuse any other before
    /// a game is set up.
    fn setup(&self, _variant: Variant, seats: usize, seed: u64, _challenge: ChallengeRule) -> Result<NewSetup, GameError> {
        Ok(NewSetup { seed, no_repeat_words: None, setup: ChainGame::seated(seed, seats)?.setup_json() })
    }

    fn replay<'a>(&'a self, stored: &Stored<'_>) -> Result<Box<dyn Position + 'a>, GameError> {
        let setup = stored.setup.ok_or_else(|| GameError::Replay("a chain game without its setup".into()))?;
        Ok(Box::new(ChainGame::replay(setup, stored.journal)?))
    }

    fn resume<'a>(&'a self, state: &GameState) -> Box<dyn Position + 'a> {
        Box::new(state.get::<ChainGame>().clone())
    }

    fn draw(&self, _variant: Variant, participants: usize, entropy: &mut dyn crate::Entropy) -> Result<Draw, GameError> {
        Ok(Lots::new(participants).run(entropy))
    }
}

/// The contract's entry for the chain's journal `entry`.
pub fn entry_of(entry: &noitu::ChainJournalEntry) -> Entry {
    let kind = match entry.action {
        noitu::ChainAction::Word { .. } => MoveKind::Word,
        noitu::ChainAction::Resign => MoveKind::Resign,
        noitu::ChainAction::Timeout => MoveKind::Timeout,
        noitu::ChainAction::Round { .. } => MoveKind::Round,
    };
    Entry::new(entry.move_no, entry.seat, kind, score_of(entry), entry)
}

/// An entry's score as the contract counts it.
fn score_of(entry: &noitu::ChainJournalEntry) -> i32 {
    i32::try_from(entry.score).unwrap_or(i32::MAX)
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
        ChainGame::seated(seed, 2)
    }

    /// A new game for `seats` (2 to 8; a group's lives pinned in its setup: the default, 3),
    /// the opening word drawn from `seed` and pinned.
    ///
    /// # Errors
    /// [`GameError::Replay`] for seats out of range, or if no opening fits.
    pub fn seated(seed: u64, seats: usize) -> Result<ChainGame, GameError> {
        let mut setup = noitu::ChainSetup { seats, ..noitu::ChainSetup::new(seed) };
        if seats > 2 {
            setup.lives = Some(setup.lives());
        }
        let game = WordChain::new(&setup, Dictionary::of(setup.options.word_list)).map_err(|e| GameError::Replay(e.to_string()))?;
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
        let setup: noitu::ChainSetup = serde_json::from_str(setup).map_err(|e| bad(e.to_string()))?;
        let entries: Vec<noitu::ChainJournalEntry> = serde_json::from_str(journal).map_err(|e| bad(e.to_string()))?;
        let game = noitu::replay(&setup, &entries, Dictionary::of(setup.options.word_list)).map_err(|e| bad(e.to_string()))?;
        Ok(ChainGame { game })
    }

    /// The setup as stored, its opening word pinned.
    pub fn setup_json(&self) -> String {
        serde_json::to_string(self.game.setup()).expect("a setup always serializes")
    }

    /// The engine's game.
    pub fn game(&self) -> &WordChain<'static> {
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
                // A group's new round: its opening, as the dictionary spells it, opens the chain again.
                if let noitu::ChainAction::Round { word } = &e.action {
                    let shown = self.dictionary().shown(word);
                    let ends_on = last_syllable(shown).to_string();
                    return Some(ChainLink {
                        move_no: e.move_no,
                        seat: e.seat,
                        word: shown.to_string(),
                        points: 0,
                        ends_on,
                        opens_round: true,
                    });
                }
                let word = e.shown_word()?;
                Some(ChainLink {
                    move_no: e.move_no,
                    seat: e.seat,
                    word: word.to_string(),
                    points: e.score as i32,
                    ends_on: e.shown_ending().unwrap_or(last_syllable(word)).to_string(),
                    opens_round: false,
                })
            })
            .collect()
    }
}

impl Position for ChainGame {
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
        self.game.scores().iter().map(|&s| s as i32).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let reason = match end {
            noitu::ChainEndReason::NoLegalMove { .. } => EndReason::NoLegalMove,
            noitu::ChainEndReason::Timeout { .. } => EndReason::Timeout,
            noitu::ChainEndReason::Resigned { .. } => EndReason::Resigned,
        };
        let winner = self.game.winner()?;
        Some(Outcome { reason, seat: Some(end.loser()), winners: vec![winner], adjustments: vec![0; self.game.seats()] })
    }

    fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.game.set_deadline(deadline);
    }

    /// A chain has no racks: nothing more to reveal.
    fn revealed(&self) -> Revealed {
        Revealed::of(&serde_json::json!({ "racks": null }))
    }

    fn entry(&self, move_no: u32) -> Option<Entry> {
        self.game.journal().get(move_no as usize).map(entry_of)
    }

    /// Nothing in a chain is private: every viewer sees the same entry ([`action_view`]).
    fn entry_view(&self, move_no: u32, _viewer: Viewer) -> Option<EntryView> {
        self.game.journal().get(move_no as usize).map(|e| entry_view(e, self.dictionary()))
    }

    fn check(&self, seat: Seat, mv: &Move, now: Timestamp) -> Result<Checked, GameError> {
        let c = match mv {
            Move::Word { word } => self.game.check(seat, word, now),
            Move::Resign => self.game.check_resign(seat),
            Move::Play { .. } | Move::Pass | Move::Exchange { .. } | Move::Challenge | Move::Accept => {
                return Err(GameError::WrongFamily { family: FAMILY, kind: mv.kind() });
            }
        };
        Ok(Checked::new(FAMILY, c.map_err(rejected)?))
    }

    /// Running out of time always loses a chain game, whatever `lapse` says.
    fn check_timeout(&self, now: Timestamp, _lapse: Lapse) -> Result<Checked, GameError> {
        Ok(Checked::new(FAMILY, self.game.check_timeout(now).map_err(rejected)?))
    }

    fn time_penalty(&self, _seat: Seat, _points: i32) -> Option<Checked> {
        None
    }

    fn apply(&mut self, c: Checked) -> Entry {
        entry_of(self.game.apply(c.take::<noitu::CheckedChainMove>()))
    }

    fn preview(&self, c: &Checked) -> Score {
        let c = c.get::<noitu::CheckedChainMove>();
        let word = c.spelled().map(str::to_string).or_else(|| c.word().map(|w| self.dictionary().display(w).to_string()));
        Score::of(&ChainScore { word, total: c.score() as i32 })
    }

    fn view(&self, _viewer: Option<Seat>) -> FamilyView {
        FamilyView::of(&ChainView {
            opening: self.dictionary().display(self.game.opening()).to_string(),
            chain: self.links(),
            syllable: self.game.current_shown().to_string(),
            words_used: self.game.used().len(),
            round: self.game.round(),
        })
    }

    /// A seat's lives left (a group chain's seat with none is out).
    fn seat_detail(&self, seat: Seat) -> SeatDetail {
        SeatDetail::of(&serde_json::json!({ "lives": self.game.lives().get(seat.index()).copied().unwrap_or(0) }))
    }

    fn hints(&self, seat: Seat, limit: usize, mut budget: Budget) -> Result<Vec<Hint>, GameError> {
        if self.game.is_over() {
            return Err(rejected(noitu::ChainRejection::GameOver));
        }
        // The words go on from the syllable of the seat to move: a hint is for that seat only.
        if seat != self.game.to_move() {
            return Err(rejected(noitu::ChainRejection::NotYourTurn { to_move: self.game.to_move() }));
        }
        let dict = self.dictionary();
        let limit = limit.clamp(1, MAX_HINTS);
        let view = ChainRobotView::new(&self.game);
        // The familiar words first, as the hard robot judges them for a person (valued by the
        // familiar answers, within `budget`); of a link, longer (more points) first. Then the
        // other legal words, fewest answers first.
        let judged = noitu::robot::Hard::default().judge(&view, &mut budget);
        let mut words: Vec<WordId> = Vec::new();
        for (link, _) in judged {
            let mut parallel: Vec<WordId> = dict.link(link).words().filter(|&w| !view.is_used(w) && dict.is_familiar(w)).collect();
            parallel.sort_by_key(|&w| (std::cmp::Reverse(dict.syllables_in(w)), w));
            words.extend(parallel);
            if words.len() >= limit {
                break;
            }
        }
        if words.len() < limit {
            let mut rest: Vec<WordId> = view.legal_moves().filter(|&w| !dict.is_familiar(w)).collect();
            rest.sort_by_key(|&w| (view.replies_after(w), w));
            words.extend(rest);
        }
        // A hint helps the player go on: the first is a word that does not win at once when one
        // exists (a win is marked, and never the only kind listed).
        if words.first().is_some_and(|&w| view.replies_after(w) == 0) {
            let going_on = words
                .iter()
                .position(|&w| view.replies_after(w) > 0)
                .map(|i| words[i])
                .or_else(|| view.legal_moves().filter(|&w| view.replies_after(w) > 0).min_by_key(|&w| (!dict.is_familiar(w), w)));
            if let Some(w) = going_on {
                words.retain(|&x| x != w);
                words.insert(0, w);
            }
        }
        let now = Timestamp(i64::MIN);
        Ok(words
            .into_iter()
            .take(limit)
            .map(|w| {
                let word = dict.display(w).to_string();
                let score = self.game.check(seat, &word, now).map_or(0, |c| c.score() as i32);
                let replies = view.replies_after(w);
                let familiarity = dict.familiarity(w);
                Hint::of(&ChainHint {
                    word,
                    score,
                    replies,
                    wins_at_once: replies == 0,
                    answer_wins: replies > 0 && answer_wins(&view, w),
                    familiarity,
                })
            })
            .collect())
    }

    fn robot(&self, level: Level, seed: u64, mut budget: Budget, against: Opponent) -> Result<Option<RobotMove>, GameError> {
        let strategy = noitu::robot::strategy(level);
        let decision = strategy.decide(&ChainRobotView::against(&self.game, against), &mut seeded(seed), &mut budget);
        let dict = self.dictionary();
        Ok(match decision {
            Some(d) => Some(RobotMove { mv: Move::Word { word: dict.display(d.word).to_string() }, thinking_ms: d.thinking_ms }),
            // No word it will play while the game goes on: it knows no familiar one, and concedes.
            None if !self.game.is_over() => Some(RobotMove { mv: Move::Resign, thinking_ms: CONCEDE_THINKING_MS }),
            None => None,
        })
    }

    fn timeline(&self) -> Result<Timeline, GameError> {
        let dict = self.dictionary();
        let mut game = WordChain::new(self.game.setup(), dict).map_err(|e| GameError::Replay(e.to_string()))?;
        let step = |game: &WordChain<'_>, index: usize, mv: Option<EntryView>| ChainStep {
            index,
            mv,
            scores: game.scores().iter().map(|&s| s as i32).collect(),
            syllable: game.current_shown().to_string(),
            to_move: (!game.is_over()).then(|| game.to_move()),
        };
        let mut steps = vec![step(&game, 0, None)];
        for entry in self.game.journal() {
            let applied = game.apply_recorded(entry).map_err(|e| GameError::Replay(e.to_string()))?;
            let shown = entry_view(applied, dict);
            steps.push(step(&game, steps.len(), Some(shown)));
        }
        Ok(Timeline::new(ChainTimeline { opening: dict.display(game.opening()).to_string(), steps }))
    }

    fn export(&self, _header: &crate::GcgHeader<'_>) -> Option<Result<String, GameError>> {
        None
    }

    fn analysis(&self) -> Result<Analysis, GameError> {
        analysis_of(self)
    }

    fn state(&self) -> GameState {
        GameState::new(self.clone())
    }
}

/// The chain family's reviews.
#[derive(serde::Serialize)]
#[serde(tag = "family", rename = "chain")]
struct ChainReviews<'a> {
    words: &'a [ChainReview],
}

/// The analysis of chain game `c`, over or not.
///
/// # Errors
/// [`GameError::Replay`] for a journal that does not replay.
fn analysis_of(c: &ChainGame) -> Result<Analysis, GameError> {
    let played = c.engine_game();
    let dict = played.dictionary();
    let mut game = WordChain::new(played.setup(), dict).map_err(|e| GameError::Replay(e.to_string()))?;
    let mut words = Vec::new();
    for entry in played.journal() {
        if let noitu::ChainAction::Word { word, spelled } = &entry.action
            && !game.is_over()
        {
            // Judged over the whole list: a winning link is one that wins whatever is known.
            let view = ChainRobotView::against(&game, Opponent::Robot);
            let mut budget = Budget::Counted { rounds: 0, nodes: ANALYSIS_NODES };
            let judged = noitu::robot::Hard::default().judge(&view, &mut budget);
            let winning: Vec<_> = judged.iter().filter(|(_, v)| noitu::robot::is_win(*v)).map(|(l, _)| *l).collect();
            let id = dict.lookup(word);
            let wins = id.is_some_and(|w| winning.contains(&dict.link_of(w)));
            let winning_word = (!wins)
                .then(|| {
                    winning.first().and_then(|&link| {
                        let mut options: Vec<_> = dict.link(link).words().filter(|&w| !view.is_used(w)).collect();
                        options.sort_by_key(|&w| (!dict.is_familiar(w), w));
                        options.first().map(|&w| dict.display(w).to_string())
                    })
                })
                .flatten();
            words.push(ChainReview {
                move_no: entry.move_no,
                seat: entry.seat.index(),
                word: spelled.clone().unwrap_or_else(|| id.map_or_else(|| word.clone(), |w| dict.display(w).to_string())),
                wins,
                winning_word,
            });
        }
        game.apply_recorded(entry).map_err(|e| GameError::Replay(e.to_string()))?;
    }
    let players = (0..Position::seats(c)).map(|seat| chain_summary(seat, &words)).collect();
    let judge = Judge { level: Level::Hard, rounds: None, nodes: Some(ANALYSIS_NODES) };
    Ok(Analysis { judge, reviewed: Reviewed::of(&ChainReviews { words: &words }), players })
}

/// A chain player's summary: words reviewed, a winning word played, the first and the number of
/// wins missed.
fn chain_summary(seat: usize, words: &[ChainReview]) -> PlayerSummary {
    let mine: Vec<_> = words.iter().filter(|w| w.seat == seat).collect();
    let missed: Vec<_> = mine.iter().filter(|w| w.winning_word.is_some()).collect();
    PlayerSummary {
        seat,
        moves: mine.len() as u32,
        mean_equity_lost: None,
        best_move: mine.iter().find(|w| w.wins).map(|w| w.move_no),
        worst_move: missed.first().map(|w| w.move_no),
        missed_wins: Some(missed.len() as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_lead_with_a_familiar_word_that_goes_on_and_mark_instant_wins() {
        // Over seeded positions (each game a few easy robot words in), measured and bounded: the
        // first hint never wins at once while a word goes on, and the hinted words are familiar.
        let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
        let (mut positions, mut first_wins, mut hinted, mut familiar) = (0, 0, 0, 0);
        for seed in 0..150u64 {
            let mut game = ChainGame::new(seed).unwrap();
            for _ in 0..seed % 6 {
                let Some(mv) = game.robot(Level::Easy, seed, budget, Opponent::Robot).unwrap() else { break };
                let checked = game.check(game.to_move(), &mv.mv, Timestamp(0)).unwrap();
                game.apply(checked);
            }
            if game.game.is_over() {
                continue;
            }
            let dict = game.dictionary();
            let view = ChainRobotView::new(&game.game);
            let goes_on = view.legal_moves().any(|w| view.replies_after(w) > 0);
            let hints: Vec<serde_json::Value> =
                game.hints(game.to_move(), 5, budget).unwrap().iter().map(|h| serde_json::to_value(h).unwrap()).collect();
            positions += 1;
            first_wins += usize::from(hints[0]["wins_at_once"] == true);
            assert!(!goes_on || hints[0]["wins_at_once"] == false, "seed {seed}: {hints:?}");
            for h in &hints {
                assert_eq!(h["wins_at_once"], h["replies"] == 0, "{h}");
                hinted += 1;
                familiar += usize::from(h["familiarity"].as_u64().is_some_and(|f| f >= u64::from(noitu::FAMILIAR)));
            }
            assert!(dict.lookup(&noitu::normalize(hints[0]["word"].as_str().unwrap()).unwrap()).is_some());
        }
        eprintln!("{positions} positions: first hint wins at once in {first_wins}; {familiar} of {hinted} hinted words familiar");
        assert!(positions >= 100 && familiar * 10 >= hinted * 9, "{familiar} of {hinted} familiar");
    }

    #[test]
    fn a_hint_is_for_the_seat_to_move_only() {
        let game = ChainGame::new(1).unwrap();
        let budget = Budget::Counted { rounds: 1, nodes: 2_000 };
        assert!(!game.hints(Seat(0), 3, budget).unwrap().is_empty());
        let refused = game.hints(Seat(1), 3, budget).unwrap_err();
        assert!(matches!(refused, GameError::Rejected(ref r) if r.code == "not_your_turn"), "{refused:?}");
    }

    #[test]
    fn a_chain_entry_shows_the_word_as_played_and_its_key_to_everyone() {
        let mut game = ChainGame::new(1).unwrap();
        let robot = game.robot(Level::Hard, 1, Budget::Counted { rounds: 1, nodes: 2_000 }, Opponent::Person).unwrap().unwrap();
        let checked = game.check(Seat(0), &robot.mv, Timestamp(0)).unwrap();
        let applied = game.apply(checked);
        let entry = game.entry(0).unwrap();
        assert_eq!(applied, entry);
        let journalled: serde_json::Value = serde_json::from_str(&entry.to_json()).unwrap();
        assert_eq!(journalled["kind"], "word");
        let mut shown = journalled.clone();
        shown["key"] = shown["word"].clone();
        shown["word"] = shown.as_object_mut().unwrap().remove("spelled").unwrap();
        for viewer in [Viewer::Public, Viewer::Seat(Seat(1)), Viewer::Admin] {
            assert_eq!(serde_json::to_value(game.entry_view(0, viewer).unwrap()).unwrap(), shown);
        }
        // A word typed in another spelling shows as typed, the key beside it; an entry that did
        // not record its spelling shows its key, as it always did.
        let key = noitu::normalize("kỹ thuật").unwrap();
        for (spelled, word) in [(Some("kĩ thuật"), "kĩ thuật"), (None, "kĩ thuật")] {
            let e = noitu::ChainJournalEntry {
                move_no: 3,
                seat: Seat(1),
                action: noitu::ChainAction::Word { word: key.clone(), spelled: spelled.map(str::to_string) },
                score: 12,
            };
            let v = serde_json::to_value(entry_view(&e, Dictionary::builtin())).unwrap();
            assert_eq!((v["word"].as_str(), v["key"].as_str(), v.get("spelled")), (Some(word), Some(key.as_str()), None), "{v}");
        }
        assert_eq!((entry.kind(), entry.seat(), entry.move_no()), (MoveKind::Word, Seat(0), 0));
        assert_eq!(i64::from(entry.score()), journalled["score"].as_i64().unwrap());
    }
}
