//! A game in progress: board, racks, scores, bag, turn, deadline and end; moves are checked then
//! applied, and every applied move is journalled.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::bag::Bag;
use crate::board::Board;
use crate::cgp::CgpPosition;
use crate::journal::{Action, JournalEntry, JournalTile};
use crate::lexicon::Lexicon;
use crate::moves::{CheckedAction, CheckedMove, TileInput, TileMove};
use crate::rack::Rack;
use crate::rejection::Rejection;
use crate::seat::{Seat, Timestamp};
use crate::setup::{Setup, SetupError};
use crate::tile::RackTile;
use crate::variant::{Rules, TileVariant};
use crate::{norepeat, play};
use vocabulary::{ChallengeRule, Lapse};

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum TileEndReason {
    /// This seat emptied its rack with the bag empty.
    WentOut {
        /// The seat that went out.
        seat: Seat,
    },
    /// The variant's limit of consecutive scoreless turns was reached.
    ScorelessTurns,
    /// This seat resigned; it loses whatever the scores.
    Resigned {
        /// The seat that resigned.
        seat: Seat,
    },
    /// This seat's flag fell (it ran out of time in a game that costs the game); it loses
    /// whatever the scores.
    OutOfTime {
        /// The seat that ran out of time.
        seat: Seat,
    },
}

impl TileEndReason {
    /// The seat that lost by its own act or clock (resigned, or out of time), if any.
    pub fn loser(self) -> Option<Seat> {
        match self {
            TileEndReason::Resigned { seat } | TileEndReason::OutOfTime { seat } => Some(seat),
            TileEndReason::WentOut { .. } | TileEndReason::ScorelessTurns => None,
        }
    }
}

/// How a game ended and the rack settlement applied to the scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    /// Why it ended.
    pub reason: TileEndReason,
    /// Points added to (or, negative, taken from) each seat's score at the end.
    pub adjustments: Vec<i32>,
}

/// The live state of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    setup: Setup,
    rules: &'static Rules,
    board: Board,
    racks: Vec<Rack>,
    scores: Vec<i32>,
    bag: Bag,
    to_move: Seat,
    scoreless_turns: u32,
    journal: Vec<JournalEntry>,
    /// Every word played so far (main and cross), upper case, for the no-repeat rule (empty
    /// when the rule is off).
    played: HashSet<String>,
    end: Option<GameEnd>,
    deadline: Option<Timestamp>,
    /// Under a challenge rule, the play just made, open to a challenge until the next entry:
    /// what its withdrawal restores.
    open_play: Option<Box<OpenPlay>>,
}

/// A play open to a challenge: its player, its points, and the state before it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct OpenPlay {
    seat: Seat,
    points: i32,
    /// Every word it formed, upper case.
    words: Vec<String>,
    board: Board,
    rack: Rack,
    /// The tiles it drew from the bag.
    drawn: Vec<RackTile>,
    scoreless_turns: u32,
    played: HashSet<String>,
}

/// A lexicon that holds every word: a play under a challenge rule is laid as it is, and only a
/// challenge looks its words up.
struct AnyWord;

impl Lexicon for AnyWord {
    fn contains(&self, _: &[crate::letter::Letter]) -> bool {
        true
    }
}

impl Game {
    /// A new game: the bag shuffled by `seed`, racks dealt seat 0 first, the no-repeat rule as
    /// the variant has it by default (on for Эрудит).
    ///
    /// # Errors
    /// [`SetupError::SeatCount`] unless `seats` is 2..=4.
    pub fn new(variant: TileVariant, seats: usize, seed: u64) -> Result<Game, SetupError> {
        Game::from_setup(&Setup { variant, seats, seed, no_repeat_words: variant.rules().no_repeat_words, challenge: ChallengeRule::Void })
    }

    /// A new game from its setup.
    ///
    /// # Errors
    /// [`SetupError::SeatCount`] unless the seat count is 2..=4.
    pub fn from_setup(setup: &Setup) -> Result<Game, SetupError> {
        if !(2..=4).contains(&setup.seats) {
            return Err(SetupError::SeatCount(setup.seats));
        }
        let rules = setup.variant.rules();
        let mut bag = Bag::new(rules, setup.seed);
        let racks = (0..setup.seats).map(|_| Rack::from_tiles(bag.draw(rules.rack_size))).collect();
        Ok(Game {
            setup: setup.clone(),
            rules,
            board: Board::new(),
            racks,
            scores: vec![0; setup.seats],
            bag,
            to_move: Seat(0),
            scoreless_turns: 0,
            journal: Vec::new(),
            played: HashSet::new(),
            end: None,
            deadline: None,
            open_play: None,
        })
    }

    /// The game at a position (e.g. a CGP line): seat 0 holds the first rack and moves next. A
    /// rack the position leaves empty is dealt from the unseen tiles shuffled by `seed`; the
    /// tiles left are the bag. Such a game has no history: an empty journal and, for the
    /// no-repeat rule, no played words.
    ///
    /// # Errors
    /// [`SetupError::SeatCount`] unless the position has 2..=4 racks.
    pub fn from_position(variant: TileVariant, position: &CgpPosition, seed: u64) -> Result<Game, SetupError> {
        let mut game = Game::from_setup(&Setup {
            variant,
            seats: position.racks.len(),
            seed,
            no_repeat_words: variant.rules().no_repeat_words,
            challenge: ChallengeRule::Void,
        })?;
        let rules = game.rules;
        let mut pool = rules.full_set();
        let mut take = |t: RackTile| {
            if let Some(i) = pool.iter().position(|&p| p == t) {
                pool.swap_remove(i);
            }
        };
        for (_, tile) in position.board.tiles() {
            take(tile.rack_tile());
        }
        for rack in &position.racks {
            rack.tiles().for_each(&mut take);
        }
        pool.sort();
        let mut bag = Bag::of_tiles(pool, seed);
        game.racks = position.racks.iter().map(|r| if r.is_empty() { Rack::from_tiles(bag.draw(rules.rack_size)) } else { *r }).collect();
        game.board = position.board.clone();
        game.bag = bag;
        game.scores = position.scores.clone();
        game.scoreless_turns = position.zero_turns;
        Ok(game)
    }

    /// The setup the game started from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The variant's rules.
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.racks.len()
    }

    /// The rack of `seat`.
    ///
    /// # Panics
    /// If `seat` is not at this table.
    pub fn rack(&self, seat: Seat) -> &Rack {
        &self.racks[seat.index()]
    }

    /// Every seat's score (after the final settlement once the game is over).
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// The bag.
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// The seat whose turn it is (after the end: whose turn it would have been).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Consecutive scoreless turns so far.
    pub fn scoreless_turns(&self) -> u32 {
        self.scoreless_turns
    }

    /// Moves applied so far; the next move's number.
    pub fn move_count(&self) -> u32 {
        self.journal.len() as u32
    }

    /// Every applied move, in order.
    pub fn journal(&self) -> &[JournalEntry] {
        &self.journal
    }

    /// The game's challenge rule.
    pub fn challenge_rule(&self) -> ChallengeRule {
        self.setup.challenge
    }

    /// The seat whose play is open to a challenge by the seat to move (the play just made, under
    /// a rule other than void), if any.
    pub fn challengeable(&self) -> Option<Seat> {
        self.open_play.as_ref().map(|p| p.seat)
    }

    /// Whether the play just made went out and waits for the next seat to challenge or accept
    /// it before the game ends.
    pub fn end_pending(&self) -> bool {
        self.open_play.as_ref().is_some_and(|p| self.racks[p.seat.index()].is_empty() && self.bag.is_empty())
    }

    /// Whether every word of the play open to a challenge is in `lexicon` (`None` when no play
    /// is open to one).
    pub fn open_play_valid(&self, lexicon: &dyn Lexicon) -> Option<bool> {
        let play = self.open_play.as_ref()?;
        Some(play.words.iter().all(|w| crate::lexicon::encode(self.rules, w).is_some_and(|letters| lexicon.contains(&letters))))
    }

    /// Whether the no-repeat-words rule applies to this game.
    pub fn no_repeat_words(&self) -> bool {
        self.setup.no_repeat_words
    }

    /// Every word played so far, main words and cross-words, upper case (kept only when the
    /// no-repeat rule applies: no other rule needs it).
    pub fn played_words(&self) -> &HashSet<String> {
        &self.played
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The seats with the best result: the highest score, never a seat that resigned or ran out
    /// of time.
    pub fn winners(&self) -> Vec<Seat> {
        let Some(end) = &self.end else { return Vec::new() };
        let eligible = |i: usize| end.reason.loser().is_none_or(|seat| seat.index() != i);
        let best = (0..self.seats()).filter(|&i| eligible(i)).map(|i| self.scores[i]).max();
        (0..self.seats()).filter(|&i| eligible(i) && Some(self.scores[i]) == best).map(|i| Seat(i as u8)).collect()
    }

    /// The current turn's deadline, if the game has one.
    pub fn deadline(&self) -> Option<Timestamp> {
        self.deadline
    }

    /// Sets the current turn's deadline; applying any move clears it, and the caller sets the
    /// next turn's.
    pub fn set_deadline(&mut self, deadline: Option<Timestamp>) {
        self.deadline = deadline;
    }

    /// Whether the current turn's deadline has passed at `now`.
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// Validates `mv` by `seat` at time `now`, without changing the game.
    ///
    /// # Errors
    /// The first [`Rejection`] in checking order: turn, shape, rack, board, words, exchange.
    pub fn check(&self, lexicon: &dyn Lexicon, seat: Seat, mv: &TileMove, now: Timestamp) -> Result<CheckedMove, Rejection> {
        if self.is_over() {
            return Err(Rejection::GameOver);
        }
        if seat.index() >= self.seats() || (seat != self.to_move && *mv != TileMove::Resign) {
            return Err(Rejection::NotYourTurn { to_move: self.to_move });
        }
        if *mv != TileMove::Resign && self.is_expired(now) {
            return Err(Rejection::DeadlinePassed);
        }
        if self.end_pending() && matches!(mv, TileMove::Play { .. } | TileMove::Pass | TileMove::Exchange { .. }) {
            return Err(Rejection::ChallengeWindow);
        }
        let action = match mv {
            TileMove::Play { placements } => {
                let rack = &self.racks[seat.index()];
                // Under a challenge rule a phony is laid: only a challenge looks its words up.
                let words: &dyn Lexicon = if self.setup.challenge.allows_phonies() { &AnyWord } else { lexicon };
                let mut outcome = play::check(self.rules, &self.board, rack, words, placements)?;
                if self.no_repeat_words() {
                    outcome.direction = norepeat::apply(&self.played, &mut outcome.score, outcome.placements.len(), outcome.direction)?;
                }
                CheckedAction::Play { placements: outcome.placements, direction: outcome.direction, score: outcome.score }
            }
            TileMove::Pass => CheckedAction::Pass,
            TileMove::Exchange { tiles } => CheckedAction::Exchange { tiles: self.check_exchange(seat, tiles)? },
            TileMove::Resign => CheckedAction::Resign,
            TileMove::Challenge => self.check_challenge(lexicon)?,
            TileMove::Accept => {
                if !self.end_pending() {
                    return Err(Rejection::NothingToAccept);
                }
                CheckedAction::Accept
            }
        };
        Ok(CheckedMove { seat: self.entry_seat(seat, &action), move_no: self.move_count(), action })
    }

    /// A challenge of the play just made, settled by the rule: withdrawn if a word is not in
    /// `lexicon`, else the rule's cost.
    fn check_challenge(&self, lexicon: &dyn Lexicon) -> Result<CheckedAction, Rejection> {
        let rule = self.setup.challenge;
        if !rule.allows_phonies() {
            return Err(Rejection::ChallengeNotAllowed);
        }
        let (Some(play), Some(valid)) = (&self.open_play, self.open_play_valid(lexicon)) else {
            return Err(Rejection::NothingToChallenge);
        };
        Ok(match (valid, rule) {
            (false, _) => CheckedAction::ChallengedOff { points: play.points },
            (true, ChallengeRule::FivePoint | ChallengeRule::TenPoint) => CheckedAction::ChallengeBonus { points: rule.bonus() },
            (true, ChallengeRule::Double) => CheckedAction::ChallengeTurnLost,
            (true, _) => CheckedAction::ChallengeFailed,
        })
    }

    /// Whose entry an action is: a withdrawn play's and a challenge bonus's are the player's
    /// whose play was challenged; the rest are the mover's.
    fn entry_seat(&self, mover: Seat, action: &CheckedAction) -> Seat {
        match (action, &self.open_play) {
            (CheckedAction::ChallengedOff { .. } | CheckedAction::ChallengeBonus { .. }, Some(play)) => play.seat,
            _ => mover,
        }
    }

    /// The checked form of a recorded challenge or acceptance (replay: the journal says how the
    /// challenge came out; no lexicon is needed), or `None` if it cannot be one here.
    pub(crate) fn recorded_challenge(&self, entry: &JournalEntry) -> Option<CheckedMove> {
        let rule = self.setup.challenge;
        let play = self.open_play.as_ref()?;
        let mover = self.to_move;
        let (seat, action) = match entry.action {
            Action::ChallengedOff => (play.seat, CheckedAction::ChallengedOff { points: play.points }),
            Action::ChallengeBonus if rule.bonus() > 0 => (play.seat, CheckedAction::ChallengeBonus { points: rule.bonus() }),
            Action::ChallengeFailed if rule == ChallengeRule::Single => (mover, CheckedAction::ChallengeFailed),
            Action::ChallengeTurnLost if rule == ChallengeRule::Double => (mover, CheckedAction::ChallengeTurnLost),
            Action::Accept if self.end_pending() => (mover, CheckedAction::Accept),
            _ => return None,
        };
        let checked = CheckedMove { seat, move_no: self.move_count(), action };
        (entry.seat == seat && entry.score == checked.score()).then_some(checked)
    }

    /// Validates a claim that the seat to move has run out of time at `now`: it loses its turn
    /// or, by `lapse`, the game.
    ///
    /// # Errors
    /// [`Rejection::GameOver`], or [`Rejection::DeadlineNotPassed`] when there is no deadline or
    /// it lies after `now`.
    pub fn check_timeout(&self, now: Timestamp, lapse: Lapse) -> Result<CheckedMove, Rejection> {
        if self.is_over() {
            return Err(Rejection::GameOver);
        }
        if !self.is_expired(now) {
            return Err(Rejection::DeadlineNotPassed);
        }
        let action = match lapse {
            // The window after a play that went out: its lapse accepts the play.
            _ if self.end_pending() => CheckedAction::Accept,
            Lapse::Turn => CheckedAction::Timeout,
            Lapse::Game => CheckedAction::OutOfTime,
        };
        Ok(CheckedMove { seat: self.to_move, move_no: self.move_count(), action })
    }

    /// A time penalty of `points` on `seat`, checked: only after an end by the rules (a seat
    /// went out, or the scoreless turns; not a resignation or a flag fall), at most once a
    /// seat, of positive points; `None` otherwise. Nobody asks for one: the caller's clock
    /// decides it when the game ends.
    pub fn time_penalty(&self, seat: Seat, points: i32) -> Option<CheckedMove> {
        let ended_by_rules = self.end.as_ref().is_some_and(|end| end.reason.loser().is_none());
        let penalised = self.journal.iter().any(|e| e.action == Action::TimePenalty && e.seat == seat);
        (ended_by_rules && seat.index() < self.seats() && !penalised && points > 0).then(|| CheckedMove {
            seat,
            move_no: self.move_count(),
            action: CheckedAction::TimePenalty { points },
        })
    }

    /// Checks then applies `mv`; on a rejection the game is unchanged.
    ///
    /// # Errors
    /// The [`Rejection`] from [`Game::check`].
    pub fn play(&mut self, lexicon: &dyn Lexicon, seat: Seat, mv: &TileMove, now: Timestamp) -> Result<&JournalEntry, Rejection> {
        let checked = self.check(lexicon, seat, mv, now)?;
        Ok(self.apply(checked))
    }

    pub(crate) fn check_exchange(&self, seat: Seat, tiles: &[TileInput]) -> Result<Vec<RackTile>, Rejection> {
        if tiles.is_empty() {
            return Err(Rejection::NoTiles);
        }
        let decoded = tiles
            .iter()
            .map(|t| match *t {
                TileInput::Letter(ch) => self.rules.letter(ch).map(RackTile::Letter).ok_or(Rejection::LetterNotInAlphabet { letter: ch }),
                TileInput::Blank => Ok(RackTile::Blank),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if !self.rules.exchange_allowed(decoded.len(), self.bag.len()) {
            return Err(Rejection::BagTooSmall { bag: self.bag.len(), needed: self.rules.exchange_needs(decoded.len()) });
        }
        let mut left = self.racks[seat.index()];
        for &t in &decoded {
            if !left.remove(t) {
                return Err(Rejection::TileNotOnRack { tile: self.tile_name(t) });
            }
        }
        Ok(decoded)
    }

    fn tile_name(&self, tile: RackTile) -> String {
        match tile {
            RackTile::Letter(l) => self.rules.char_of(l).to_string(),
            RackTile::Blank => "?".to_string(),
        }
    }

    /// Applies a move checked against this state, records it and returns its journal entry.
    ///
    /// # Panics
    /// If `mv` was checked at another move number (a programming error, not bad input). Only the
    /// move number is compared: a move checked against another game at the same number is not
    /// caught.
    pub fn apply(&mut self, mv: CheckedMove) -> &JournalEntry {
        assert_eq!(mv.move_no, self.move_count(), "a checked move applies only to the state it was checked against");
        let seat = mv.seat;
        if let CheckedAction::TimePenalty { points } = mv.action {
            // After the end: the score only; the settlement and the turn stay as they were.
            self.scores[seat.index()] -= points;
            self.journal.push(JournalEntry { move_no: mv.move_no, seat, action: Action::TimePenalty, score: -points });
            return self.journal.last().expect("just pushed");
        }
        if self.apply_challenge(&mv) {
            return self.journal.last().expect("just pushed");
        }
        self.open_play = None;
        let rules = self.rules;
        let score = mv.score();
        let action = match mv.action {
            CheckedAction::Play { placements, direction, score } => {
                // Under a challenge rule, what a withdrawal would restore.
                let open = self.setup.challenge.allows_phonies().then(|| OpenPlay {
                    seat,
                    points: score.total,
                    words: score.words.iter().map(|w| w.word.clone()).collect(),
                    board: self.board.clone(),
                    rack: self.racks[seat.index()],
                    drawn: Vec::new(),
                    scoreless_turns: self.scoreless_turns,
                    played: self.played.clone(),
                });
                let rack = &mut self.racks[seat.index()];
                for p in &placements {
                    let removed = rack.remove(p.tile.rack_tile());
                    debug_assert!(removed, "checked placements come from the rack");
                    self.board.place(*p);
                }
                let missing = rules.rack_size.saturating_sub(rack.len());
                let drawn: Vec<RackTile> = self.bag.draw(missing).collect();
                for &t in &drawn {
                    rack.add(t);
                }
                self.open_play = open.map(|o| Box::new(OpenPlay { drawn, ..o }));
                let tiles = placements.iter().map(|p| JournalTile::new(rules, *p)).collect();
                if self.setup.no_repeat_words {
                    self.played.extend(score.words.iter().map(|w| w.word.clone()));
                }
                Action::Play { tiles, direction, words: score.words, bingo: score.bingo }
            }
            CheckedAction::Pass => Action::Pass,
            CheckedAction::Exchange { tiles } => {
                let rack = &mut self.racks[seat.index()];
                for &t in &tiles {
                    rack.remove(t);
                }
                for t in self.bag.draw(tiles.len()) {
                    rack.add(t);
                }
                self.bag.put_back(tiles.iter().copied());
                Action::Exchange { tiles: tiles.iter().map(|&t| TileInput::from_rack_tile(rules, t)).collect() }
            }
            CheckedAction::Resign => Action::Resign,
            CheckedAction::Timeout => Action::Timeout,
            CheckedAction::OutOfTime => Action::OutOfTime,
            CheckedAction::TimePenalty { .. }
            | CheckedAction::ChallengedOff { .. }
            | CheckedAction::ChallengeBonus { .. }
            | CheckedAction::ChallengeFailed
            | CheckedAction::ChallengeTurnLost
            | CheckedAction::Accept => unreachable!("applied above"),
        };
        self.scores[seat.index()] += score;
        self.scoreless_turns = if score > 0 { 0 } else { self.scoreless_turns + 1 };
        self.deadline = None;
        self.journal.push(JournalEntry { move_no: mv.move_no, seat, action, score });
        // A play that goes out under a challenge rule waits for the next seat's challenge or
        // acceptance before the game ends.
        if !self.end_pending() {
            self.settle_if_over(seat);
        }
        if self.end.is_none() {
            self.to_move = Seat(((seat.index() + 1) % self.seats()) as u8);
        }
        self.journal.last().expect("just pushed")
    }

    /// Applies a challenge's outcome or an acceptance (false for any other move). The seat to
    /// move keeps its turn, but for a challenge that costs it; a play that went out and stands
    /// ends the game.
    fn apply_challenge(&mut self, mv: &CheckedMove) -> bool {
        let action = match mv.action {
            CheckedAction::ChallengedOff { .. } => Action::ChallengedOff,
            CheckedAction::ChallengeBonus { .. } => Action::ChallengeBonus,
            CheckedAction::ChallengeFailed => Action::ChallengeFailed,
            CheckedAction::ChallengeTurnLost => Action::ChallengeTurnLost,
            CheckedAction::Accept => Action::Accept,
            _ => return false,
        };
        let play = self.open_play.take().expect("a challenge is checked against an open play");
        let went_out = self.racks[play.seat.index()].is_empty() && self.bag.is_empty();
        let score = mv.score();
        self.deadline = None;
        match mv.action {
            CheckedAction::ChallengedOff { .. } => {
                // Off the board: the tiles back to the rack, the tiles drawn back to the bag.
                self.board = play.board;
                self.racks[play.seat.index()] = play.rack;
                self.bag.put_back(play.drawn);
                self.played = play.played;
                self.scoreless_turns = play.scoreless_turns + 1;
            }
            CheckedAction::ChallengeTurnLost => self.scoreless_turns += 1,
            _ => {}
        }
        self.scores[mv.seat.index()] += score;
        self.journal.push(JournalEntry { move_no: mv.move_no, seat: mv.seat, action, score });
        let stands = !matches!(mv.action, CheckedAction::ChallengedOff { .. });
        if stands && went_out {
            self.settle_went_out(play.seat);
        } else if self.scoreless_turns >= self.rules.end.limit(self.seats()) {
            self.settle(TileEndReason::ScorelessTurns);
        } else if matches!(mv.action, CheckedAction::ChallengeTurnLost) {
            self.to_move = Seat(((self.to_move.index() + 1) % self.seats()) as u8);
        }
        true
    }

    /// Ends the game if the last move by `seat` ended it, applying the rack settlement.
    fn settle_if_over(&mut self, seat: Seat) {
        let last = &self.journal.last().expect("called after a move").action;
        if matches!(last, Action::Resign) {
            self.settle(TileEndReason::Resigned { seat });
        } else if matches!(last, Action::OutOfTime) {
            self.settle(TileEndReason::OutOfTime { seat });
        } else if self.racks[seat.index()].is_empty() && self.bag.is_empty() {
            self.settle_went_out(seat);
        } else if self.scoreless_turns >= self.rules.end.limit(self.seats()) {
            self.settle(TileEndReason::ScorelessTurns);
        }
    }

    /// Ends the game with `seat` gone out: it gains every other rack's value, each other seat
    /// loses its own.
    fn settle_went_out(&mut self, seat: Seat) {
        self.settle(TileEndReason::WentOut { seat });
    }

    /// Ends the game for `reason`, applying the rack settlement it calls for.
    fn settle(&mut self, reason: TileEndReason) {
        let rack_value = |r: &Rack| r.tiles().map(|t| self.rules.rack_tile_value(t)).sum::<i32>();
        let values: Vec<i32> = self.racks.iter().map(rack_value).collect();
        let adjustments = match reason {
            TileEndReason::Resigned { .. } | TileEndReason::OutOfTime { .. } => vec![0; self.seats()],
            TileEndReason::WentOut { seat } => {
                let others: i32 = values.iter().sum();
                values.iter().enumerate().map(|(i, v)| if i == seat.index() { others } else { -v }).collect()
            }
            TileEndReason::ScorelessTurns => values.iter().map(|v| -v).collect(),
        };
        for (s, a) in self.scores.iter_mut().zip(&adjustments) {
            *s += a;
        }
        self.end = Some(GameEnd { reason, adjustments });
    }
}

impl TileInput {
    /// The written form of a rack tile.
    pub fn from_rack_tile(rules: &Rules, tile: RackTile) -> TileInput {
        match tile {
            RackTile::Letter(l) => TileInput::Letter(rules.char_of(l)),
            RackTile::Blank => TileInput::Blank,
        }
    }
}
