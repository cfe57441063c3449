//! A game in progress: the chain, the used words, the turn, the deadline, scores and the end.
//! A word is checked, then applied; applying cannot fail, and every applied move is journalled.

use serde::{Deserialize, Serialize};

use crate::dictionary::{Dictionary, SyllableId, WordId};
use crate::journal::{ChainAction, ChainJournalEntry};
use crate::rejection::ChainRejection;
use crate::replay_error::ChainReplayError;
use crate::scoring;
use crate::seat::{Seat, Timestamp};
use crate::setup::{self, ChainSetup, ChainSetupError};
use crate::spelling;
use crate::used::UsedWords;

/// Why a game ended; `seat` is the seat that lost (in a group, the last seat out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ChainEndReason {
    /// The seat to move had no unused word beginning with the syllable.
    NoLegalMove {
        /// The seat left without a word.
        seat: Seat,
    },
    /// The seat to move let its deadline pass.
    Timeout {
        /// The seat that ran out of time.
        seat: Seat,
    },
    /// The seat resigned.
    Resigned {
        /// The seat that resigned.
        seat: Seat,
    },
}

impl ChainEndReason {
    /// The seat that lost.
    pub const fn loser(self) -> Seat {
        match self {
            ChainEndReason::NoLegalMove { seat } | ChainEndReason::Timeout { seat } | ChainEndReason::Resigned { seat } => seat,
        }
    }

    /// The seat that won a two-seat game (a group's winner is the last seat left:
    /// [`WordChain::winner`]).
    pub const fn winner(self) -> Seat {
        self.loser().other()
    }
}

/// A move validated against one state of one game; only [`WordChain::apply`] consumes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedChainMove {
    seat: Seat,
    move_no: u32,
    action: CheckedAction,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum CheckedAction {
    /// `spelled`: the word as written, for the journal (`None` only replaying an entry that
    /// recorded none).
    Word {
        word: WordId,
        score: u32,
        spelled: Option<String>,
    },
    Resign,
    Timeout,
}

impl CheckedChainMove {
    /// The seat that moves.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The word resolved, if the move is a word.
    pub fn word(&self) -> Option<WordId> {
        match self.action {
            CheckedAction::Word { word, .. } => Some(word),
            _ => None,
        }
    }

    /// The word as its player wrote it ([`spelling::spelled`]), if the move is a word that
    /// recorded it.
    pub fn spelled(&self) -> Option<&str> {
        match &self.action {
            CheckedAction::Word { spelled, .. } => spelled.as_deref(),
            _ => None,
        }
    }

    /// The points the move scores.
    pub fn score(&self) -> u32 {
        match self.action {
            CheckedAction::Word { score, .. } => score,
            _ => 0,
        }
    }
}

/// The live state of one game of Nối từ over a dictionary.
#[derive(Debug, Clone)]
pub struct WordChain<'d> {
    dict: &'d Dictionary,
    setup: ChainSetup,
    opening: WordId,
    current: SyllableId,
    to_move: Seat,
    used: UsedWords,
    scores: Vec<u32>,
    /// Each seat's lives left: a seat with none is out.
    lives: Vec<u32>,
    /// Rounds begun after the first (each after a seat lost a life).
    round: u32,
    /// How many words were spent when the current round began (its opening included): the
    /// round's chain is what was spent since.
    round_from: usize,
    journal: Vec<ChainJournalEntry>,
    end: Option<ChainEndReason>,
    deadline: Option<Timestamp>,
    /// The last entry is a round this game opened, not yet met in a journal being replayed
    /// ([`WordChain::apply_recorded`] wants it next). Not part of the game's state.
    round_unconfirmed: bool,
}

impl PartialEq for WordChain<'_> {
    fn eq(&self, other: &WordChain<'_>) -> bool {
        std::ptr::eq(self.dict, other.dict)
            && self.setup == other.setup
            && self.opening == other.opening
            && self.current == other.current
            && self.to_move == other.to_move
            && self.used == other.used
            && self.scores == other.scores
            && self.lives == other.lives
            && self.round == other.round
            && self.round_from == other.round_from
            && self.journal == other.journal
            && self.end == other.end
            && self.deadline == other.deadline
    }
}

impl Eq for WordChain<'_> {}

impl<'d> WordChain<'d> {
    /// A new game: the opening word given or drawn, spent, and seat 0 to answer it.
    ///
    /// # Errors
    /// [`ChainSetupError`] for a seat count outside 2 to 8, lives outside 1 to 5, an opening
    /// word not in `dict`, or no opening word that leaves a continuation.
    pub fn new(setup: &ChainSetup, dict: &'d Dictionary) -> Result<WordChain<'d>, ChainSetupError> {
        let opening = setup::opening(setup, dict)?;
        let mut used = UsedWords::new(dict);
        used.insert(dict, opening);
        let pinned = ChainSetup { opening: Some(dict.text(opening).to_string()), ..setup.clone() };
        Ok(WordChain {
            dict,
            setup: pinned,
            opening,
            current: dict.last(opening),
            to_move: Seat(0),
            used,
            scores: vec![0; setup.seats],
            lives: vec![setup.lives(); setup.seats],
            round: 0,
            round_from: 1,
            journal: Vec::new(),
            end: None,
            deadline: None,
            round_unconfirmed: false,
        })
    }

    /// The setup, with the opening word named.
    pub fn setup(&self) -> &ChainSetup {
        &self.setup
    }

    /// The dictionary.
    pub fn dictionary(&self) -> &'d Dictionary {
        self.dict
    }

    /// The opening word.
    pub fn opening(&self) -> WordId {
        self.opening
    }

    /// The syllable the next word must begin with: the last word's last syllable.
    pub fn current(&self) -> SyllableId {
        self.current
    }

    /// The current syllable as the game shows it: the last syllable of the last word as shown
    /// (its player's spelling, [`ChainJournalEntry::shown_ending`]), or of the opening word in the
    /// dictionary's usual spelling.
    pub fn current_shown(&self) -> &str {
        let last = |shown: &'d str| shown.rsplit(' ').next().unwrap_or(shown);
        for e in self.journal.iter().rev() {
            match &e.action {
                ChainAction::Round { word } => {
                    let shown = self.dict.shown(word);
                    return shown.rsplit(' ').next().unwrap_or(shown);
                }
                _ => {
                    if let Some(ending) = e.shown_ending() {
                        return ending;
                    }
                }
            }
        }
        last(self.dict.display(self.opening))
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.setup.seats
    }

    /// Each seat's lives left (a seat with none is out).
    pub fn lives(&self) -> &[u32] {
        &self.lives
    }

    /// The rounds begun after the first: 0 until a seat of a group loses a life.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The seat after `seat` in seat order that is still in (`seat` itself when no other is).
    fn next_in(&self, seat: Seat) -> Seat {
        let n = self.setup.seats;
        (1..=n).map(|k| Seat(((seat.index() + k) % n) as u8)).find(|s| self.lives[s.index()] > 0).unwrap_or(seat)
    }

    /// The winner once the game is over: the last seat left (after a two-seat game's end, the
    /// seat that did not lose); of several left when no word was left to open a round with, the
    /// one with the most lives, then points, then the first.
    pub fn winner(&self) -> Option<Seat> {
        self.end?;
        let left = (0..self.setup.seats).filter(|&s| self.lives[s] > 0);
        left.max_by_key(|&s| (self.lives[s], self.scores[s], std::cmp::Reverse(s))).map(|s| Seat(s as u8))
    }

    /// The seat to move (after the end: the seat that lost, unless it resigned out of turn).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The words spent, the opening included.
    pub fn used(&self) -> &UsedWords {
        &self.used
    }

    /// Words accepted in this round (its opening not counted): the chain length.
    pub fn chain(&self) -> u32 {
        (self.used.len() - self.round_from) as u32
    }

    /// Each seat's points.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Moves applied so far; the next move's number.
    pub fn move_count(&self) -> u32 {
        self.journal.len() as u32
    }

    /// Every applied move, in order.
    pub fn journal(&self) -> &[ChainJournalEntry] {
        &self.journal
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<ChainEndReason> {
        self.end
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The current turn's deadline, if set.
    pub fn deadline(&self) -> Option<Timestamp> {
        self.deadline
    }

    /// Sets the current turn's deadline; applying any move clears it, and the caller sets the
    /// next turn's.
    pub fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.deadline = deadline;
    }

    /// Whether the current turn's deadline has passed at `now` (at the deadline itself, it has).
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// The unused words the seat to move may play, in dictionary order (none once over).
    pub fn legal_moves(&self) -> impl Iterator<Item = WordId> + '_ {
        let over = self.is_over();
        self.dict.words_from(self.current).filter(move |&w| !over && !self.used.contains(w))
    }

    /// Whether the seat to move has a word; stops at the first one found.
    pub fn has_legal_move(&self) -> bool {
        self.legal_moves().next().is_some()
    }

    /// Validates `raw` typed by `seat` at `now`, without changing the game.
    ///
    /// # Errors
    /// The first [`ChainRejection`] in checking order: game over, turn, deadline, syllable count,
    /// dictionary, link, reuse.
    pub fn check(&self, seat: Seat, raw: &str, now: Timestamp) -> Result<CheckedChainMove, ChainRejection> {
        self.check_turn(seat)?;
        if self.is_expired(now) {
            return Err(ChainRejection::DeadlinePassed);
        }
        self.check_word(seat, raw)
    }

    /// The word checks after the turn and the deadline (replay skips the deadline).
    pub(crate) fn check_word(&self, seat: Seat, raw: &str) -> Result<CheckedChainMove, ChainRejection> {
        let found = spelling::syllable_count(raw);
        if found < 2 {
            return Err(ChainRejection::TooFewSyllables { found });
        }
        let word = spelling::normalize(raw).ok().and_then(|w| self.dict.find(&w)).ok_or(ChainRejection::NotInDictionary)?;
        // A word of the dictionary spells: the messages quote it as its player wrote it.
        let spelled = spelling::spelled(raw).unwrap_or_else(|_| self.dict.text(word).to_string());
        let first = self.dict.first(word);
        if first != self.current {
            let expected = self.current_shown().to_string();
            let found = spelled.split(' ').next().unwrap_or(&spelled).to_string();
            return Err(ChainRejection::WrongLink { expected, found });
        }
        if self.used.contains(word) {
            return Err(ChainRejection::AlreadyUsed { word: spelled });
        }
        let score = scoring::points(self.chain() + 1, self.dict.syllables_in(word), self.setup.options.score_cap);
        Ok(CheckedChainMove { seat, move_no: self.move_count(), action: CheckedAction::Word { word, score, spelled: Some(spelled) } })
    }

    /// Checks a journal entry again, as [`crate::replay`] does (the deadline, not journalled,
    /// aside), and applies it.
    ///
    /// # Errors
    /// [`ChainReplayError`] if the entry is out of order, refused, records another score, or records a
    /// spelling that is not one of its word; the game is then unchanged.
    pub fn apply_recorded(&mut self, entry: &ChainJournalEntry) -> Result<&ChainJournalEntry, ChainReplayError> {
        // A new round is written by the game itself, after the move that cost a life: the
        // recorded one must be the one it wrote.
        if let ChainAction::Round { .. } = &entry.action {
            let written = self.journal.get(entry.move_no as usize);
            self.round_unconfirmed = false;
            return match written {
                Some(w) if w == entry => Ok(w),
                Some(w) => {
                    Err(ChainReplayError::Round { move_no: entry.move_no, recorded: Box::new(entry.clone()), written: Box::new(w.clone()) })
                }
                None => Err(ChainReplayError::OutOfOrder { expected: self.move_count(), found: entry.move_no }),
            };
        }
        let move_no = self.move_count();
        if self.round_unconfirmed {
            // The round the game opened is due first.
            return Err(ChainReplayError::OutOfOrder { expected: move_no - 1, found: entry.move_no });
        }
        if entry.move_no != move_no {
            return Err(ChainReplayError::OutOfOrder { expected: move_no, found: entry.move_no });
        }
        let refused = |rejection| ChainReplayError::Refused { move_no, rejection };
        let checked = match &entry.action {
            ChainAction::Word { word, spelled } => {
                let mut checked = self.check_turn(entry.seat).and_then(|()| self.check_word(entry.seat, word)).map_err(refused)?;
                if let CheckedAction::Word { word: id, spelled: recorded, .. } = &mut checked.action {
                    if let Some(s) = spelled
                        && spelling::normalize(s).ok().and_then(|k| self.dict.find(&k)) != Some(*id)
                    {
                        return Err(ChainReplayError::Spelled { move_no, spelled: s.clone() });
                    }
                    recorded.clone_from(spelled);
                }
                checked
            }
            ChainAction::Resign => self.check_resign(entry.seat).map_err(refused)?,
            ChainAction::Timeout => self.check_turn(entry.seat).map(|()| self.recorded_timeout()).map_err(refused)?,
            ChainAction::Round { .. } => unreachable!("answered above"),
        };
        if checked.score() != entry.score {
            return Err(ChainReplayError::Score { move_no, recorded: entry.score, computed: checked.score() });
        }
        Ok(self.apply(checked))
    }

    /// Whether `seat` may move now (the game not over, its turn).
    pub(crate) fn check_turn(&self, seat: Seat) -> Result<(), ChainRejection> {
        if self.is_over() {
            return Err(ChainRejection::GameOver);
        }
        if seat != self.to_move {
            return Err(ChainRejection::NotYourTurn { to_move: self.to_move });
        }
        Ok(())
    }

    /// Validates a resignation by `seat`, who may resign on any turn (it loses a life).
    ///
    /// # Errors
    /// [`ChainRejection::GameOver`], or [`ChainRejection::NotYourTurn`] for a seat not at this
    /// table or already out.
    pub fn check_resign(&self, seat: Seat) -> Result<CheckedChainMove, ChainRejection> {
        if self.is_over() {
            return Err(ChainRejection::GameOver);
        }
        if seat.index() >= self.setup.seats || self.lives[seat.index()] == 0 {
            return Err(ChainRejection::NotYourTurn { to_move: self.to_move });
        }
        Ok(CheckedChainMove { seat, move_no: self.move_count(), action: CheckedAction::Resign })
    }

    /// Validates a claim that the seat to move has run out of time at `now`.
    ///
    /// # Errors
    /// [`ChainRejection::GameOver`], or [`ChainRejection::DeadlineNotPassed`] with no deadline or one after
    /// `now`.
    pub fn check_timeout(&self, now: Timestamp) -> Result<CheckedChainMove, ChainRejection> {
        if self.is_over() {
            return Err(ChainRejection::GameOver);
        }
        if !self.is_expired(now) {
            return Err(ChainRejection::DeadlineNotPassed);
        }
        Ok(self.recorded_timeout())
    }

    /// A timeout of the seat to move, as a journal records it (its deadline is not journalled).
    pub(crate) fn recorded_timeout(&self) -> CheckedChainMove {
        CheckedChainMove { seat: self.to_move, move_no: self.move_count(), action: CheckedAction::Timeout }
    }

    /// Checks then applies `raw` by `seat`; on a rejection the game is unchanged.
    ///
    /// # Errors
    /// The [`ChainRejection`] from [`WordChain::check`].
    pub fn submit(&mut self, seat: Seat, raw: &str, now: Timestamp) -> Result<&ChainJournalEntry, ChainRejection> {
        let checked = self.check(seat, raw, now)?;
        Ok(self.apply(checked))
    }

    /// Applies a move checked against this state, records it and returns its journal entry. A
    /// seat that is left without a word (the next one, after a word), times out or resigns
    /// loses a life: with at least two seats still in, a new round begins at once, its entry
    /// recorded after the move's ([`ChainAction::Round`]); else the game is over.
    ///
    /// # Panics
    /// If `mv` was checked at another move number (a programming error, not bad input); only the
    /// move number is compared.
    pub fn apply(&mut self, mv: CheckedChainMove) -> &ChainJournalEntry {
        assert_eq!(mv.move_no, self.move_count(), "a checked move applies only to the state it was checked against");
        self.round_unconfirmed = false;
        let seat = mv.seat;
        let score = mv.score();
        let (action, lost) = match mv.action {
            CheckedAction::Word { word, score, spelled } => {
                self.used.insert(self.dict, word);
                self.current = self.dict.last(word);
                self.scores[seat.index()] += score;
                self.to_move = self.next_in(seat);
                let stuck = (!self.has_legal_move()).then_some(ChainEndReason::NoLegalMove { seat: self.to_move });
                (ChainAction::Word { word: self.dict.text(word).to_string(), spelled }, stuck)
            }
            CheckedAction::Resign => (ChainAction::Resign, Some(ChainEndReason::Resigned { seat })),
            CheckedAction::Timeout => (ChainAction::Timeout, Some(ChainEndReason::Timeout { seat })),
        };
        self.deadline = None;
        self.journal.push(ChainJournalEntry { move_no: mv.move_no, seat, action, score });
        let at = self.journal.len() - 1;
        if let Some(reason) = lost {
            self.lose_life(reason);
        }
        &self.journal[at]
    }

    /// The seat `reason` names loses a life; with two seats or more still in, the next round
    /// begins (its opening drawn, spent, recorded) for the seat after it; else, or when no word
    /// is left to open with, the game ends.
    fn lose_life(&mut self, reason: ChainEndReason) {
        let seat = reason.loser();
        self.lives[seat.index()] = self.lives[seat.index()].saturating_sub(1);
        let left = self.lives.iter().filter(|&&l| l > 0).count();
        let opening = if left >= 2 { setup::round_opening(&self.setup, self.dict, self.round + 1, &self.used) } else { None };
        let Some(opening) = opening else {
            self.end = Some(reason);
            return;
        };
        self.round += 1;
        self.used.insert(self.dict, opening);
        self.round_from = self.used.len();
        self.current = self.dict.last(opening);
        self.to_move = self.next_in(seat);
        let entry = ChainJournalEntry {
            move_no: self.move_count(),
            seat: self.to_move,
            action: ChainAction::Round { word: self.dict.text(opening).to_string() },
            score: 0,
        };
        self.journal.push(entry);
        self.round_unconfirmed = true;
    }
}
