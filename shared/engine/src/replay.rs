//! Replay: the exact game a setup and its journal lead to. It looks nothing up in a lexicon: it
//! checks every tile against the rebuilt racks and board, and the recorded words, direction,
//! bingo and score against what the tiles form.

use crate::game::Game;
use crate::journal::{Action, JournalEntry};
use crate::moves::{CheckedAction, CheckedMove};
use crate::norepeat;
use crate::play;
use crate::rejection::Rejection;
use crate::setup::{Setup, SetupError};
use crate::tile::{Placement, Tile};

/// A journal that does not replay onto its setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The setup itself is unplayable.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Entries are missing or out of order.
    #[error("journal entry {found} found where entry {expected} was due")]
    OutOfOrder {
        /// The number due.
        expected: u32,
        /// The number found.
        found: u32,
    },
    /// An entry is impossible in the rebuilt state.
    #[error("journal entry {move_no} does not apply: {rejection}")]
    Rejected {
        /// The entry's number.
        move_no: u32,
        /// Why it does not apply.
        rejection: Rejection,
    },
    /// An entry's recorded words, direction, bingo or score disagree with what its tiles form
    /// (a repeated main word under the no-repeat rule included), or a move that scores nothing
    /// records points.
    #[error("journal entry {move_no} is inconsistent: {what}")]
    Inconsistent {
        /// The entry's number.
        move_no: u32,
        /// What disagrees.
        what: &'static str,
    },
}

/// Rebuilds a game from its setup and journal.
///
/// # Errors
/// [`ReplayError`] naming the first entry that cannot be applied.
pub fn replay(setup: &Setup, journal: &[JournalEntry]) -> Result<Game, ReplayError> {
    let mut game = Game::from_setup(setup)?;
    for entry in journal {
        let checked = recorded_move(&game, entry)?;
        game.apply(checked);
    }
    Ok(game)
}

/// The checked move an entry records, verified against the rebuilt state.
pub(crate) fn recorded_move(game: &Game, entry: &JournalEntry) -> Result<CheckedMove, ReplayError> {
    let move_no = entry.move_no;
    let rejected = |rejection| ReplayError::Rejected { move_no, rejection };
    if move_no != game.move_count() {
        return Err(ReplayError::OutOfOrder { expected: game.move_count(), found: move_no });
    }
    if entry.action == Action::TimePenalty {
        return game
            .time_penalty(entry.seat, -entry.score)
            .ok_or(ReplayError::Inconsistent { move_no, what: "a time penalty before the end, after a loss, twice or not negative" });
    }
    if game.is_over() {
        return Err(rejected(Rejection::GameOver));
    }
    if matches!(
        entry.action,
        Action::ChallengedOff | Action::ChallengeBonus | Action::ChallengeFailed | Action::ChallengeTurnLost | Action::Accept
    ) {
        return game.recorded_challenge(entry).ok_or(ReplayError::Inconsistent {
            move_no,
            what: "a challenge or an acceptance with no play open to it, of another seat or scoring otherwise than the rule",
        });
    }
    if game.end_pending() && !matches!(entry.action, Action::Resign) {
        return Err(rejected(Rejection::ChallengeWindow));
    }
    if entry.seat.index() >= game.seats() || (entry.seat != game.to_move() && entry.action != Action::Resign) {
        return Err(rejected(Rejection::NotYourTurn { to_move: game.to_move() }));
    }
    let rules = game.rules();
    let action = match &entry.action {
        Action::Play { tiles, direction, words, bingo } => {
            let placements = tiles
                .iter()
                .map(|t| {
                    let letter = rules.letter(t.letter).ok_or(Rejection::LetterNotInAlphabet { letter: t.letter })?;
                    Ok(Placement { square: t.square, tile: if t.blank { Tile::Blank(letter) } else { Tile::Letter(letter) } })
                })
                .collect::<Result<Vec<_>, Rejection>>()
                .map_err(rejected)?;
            let mut outcome = play::evaluate(rules, game.board(), game.rack(entry.seat), None, &placements).map_err(rejected)?;
            if game.no_repeat_words() {
                outcome.direction = norepeat::apply(game.played_words(), &mut outcome.score, placements.len(), outcome.direction)
                    .map_err(|_| ReplayError::Inconsistent { move_no, what: "the main word was already played" })?;
            }
            // The recorded words, direction, bonus and total are what the tiles form and score on
            // this board (the no-repeat rule's zeros included).
            if outcome.score.words != *words
                || outcome.direction != *direction
                || outcome.score.bingo != *bingo
                || outcome.score.total != entry.score
            {
                return Err(ReplayError::Inconsistent { move_no, what: "the recorded words or score differ from what the tiles form" });
            }
            CheckedAction::Play { placements, direction: *direction, score: outcome.score }
        }
        Action::Pass => CheckedAction::Pass,
        Action::Exchange { tiles } => CheckedAction::Exchange { tiles: game.check_exchange(entry.seat, tiles).map_err(rejected)? },
        Action::Resign => CheckedAction::Resign,
        Action::Timeout => CheckedAction::Timeout,
        Action::OutOfTime => CheckedAction::OutOfTime,
        Action::TimePenalty
        | Action::ChallengedOff
        | Action::ChallengeBonus
        | Action::ChallengeFailed
        | Action::ChallengeTurnLost
        | Action::Accept => unreachable!("checked above"),
    };
    if entry.score != 0 && !matches!(action, CheckedAction::Play { .. }) {
        return Err(ReplayError::Inconsistent { move_no, what: "only a play scores" });
    }
    Ok(CheckedMove { seat: entry.seat, move_no, action })
}
