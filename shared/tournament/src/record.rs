//! The tournament's vocabulary: entrants, a round's pairings and their outcomes, and how each
//! outcome scores for the players in it (NASPA-style byes and forfeits).

use serde::{Deserialize, Serialize};

/// A player's number in the tournament: 1-based, in registration order (tsh numbers players
/// this way).
pub type PlayerNo = u32;

/// The spread of a bye: a win worth +50 (NASPA's convention, and tsh's default bye score).
pub const BYE_SPREAD: i32 = 50;

/// The spread of a forfeit: a loss with −50 for the player who forfeits and a win with +50 for
/// the opponent (a double forfeit is a loss with −50 for each).
pub const FORFEIT_SPREAD: i32 = 50;

/// A registered player as pairing sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The player's number.
    pub no: PlayerNo,
    /// The display name.
    pub name: String,
    /// The seeding rating, 0 when unrated.
    pub rating: i32,
    /// Withdrawn players are no longer paired but stay in the standings.
    pub withdrawn: bool,
}

/// One pairing of a round: `second == None` is a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The higher-ranked player (this does not decide who starts: a tile draw does).
    pub first: PlayerNo,
    /// The opponent, or `None` for a bye.
    pub second: Option<PlayerNo>,
}

/// How a paired game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TournamentOutcome {
    /// Played to the end: each side's final score (a tie is a draw).
    Played {
        /// The final score of `first`.
        first_score: i32,
        /// The final score of `second`.
        second_score: i32,
    },
    /// A forfeit recorded by the director: `loser` forfeits (a loss with −[`FORFEIT_SPREAD`]),
    /// the other player wins with +[`FORFEIT_SPREAD`]. A `loser` other than `first` is read as
    /// `second`.
    Forfeit {
        /// The player who forfeits.
        loser: PlayerNo,
    },
    /// Both forfeit (neither showed): a loss for each with −[`FORFEIT_SPREAD`].
    DoubleForfeit,
    /// A bye (only with `second == None`): a win with +[`BYE_SPREAD`]. Recorded on a paired game,
    /// it scores a bye for both players.
    Bye,
}

/// Who a finished game says won, between a pairing's two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameWinner {
    /// The first player won.
    First,
    /// The second player won.
    Second,
    /// Both (a tie).
    Both,
}

impl GameWinner {
    /// The winner from whether each player is among the game's winners; none when neither is
    /// (a game this service never ends so).
    pub fn of(first_won: bool, second_won: bool) -> Option<GameWinner> {
        match (first_won, second_won) {
            (true, false) => Some(GameWinner::First),
            (false, true) => Some(GameWinner::Second),
            (true, true) => Some(GameWinner::Both),
            (false, false) => None,
        }
    }
}

impl TournamentOutcome {
    /// A finished game's outcome as the standings and the export count it: the game decides
    /// who won (`winner`, from the game's own end: went out, resignation, time), the scores only
    /// the spread. Where the scores name the same result, the game counts as played with its
    /// scores; where they do not (a player who resigned or ran out of time while level or
    /// ahead), the loser forfeits (−[`FORFEIT_SPREAD`]), since a result read from those scores
    /// would credit the win to the player who lost. A tie the game gives at unequal scores
    /// counts as a draw at the first player's score.
    pub fn of_game(first: PlayerNo, second: PlayerNo, first_score: i32, second_score: i32, winner: GameWinner) -> TournamentOutcome {
        let by_scores = match first_score.cmp(&second_score) {
            std::cmp::Ordering::Greater => GameWinner::First,
            std::cmp::Ordering::Less => GameWinner::Second,
            std::cmp::Ordering::Equal => GameWinner::Both,
        };
        match winner {
            _ if winner == by_scores => TournamentOutcome::Played { first_score, second_score },
            GameWinner::First => TournamentOutcome::Forfeit { loser: second },
            GameWinner::Second => TournamentOutcome::Forfeit { loser: first },
            GameWinner::Both => TournamentOutcome::Played { first_score, second_score: first_score },
        }
    }
}

/// A pairing of a round and, once known, its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundGame {
    /// The round, from 1.
    pub round: u32,
    /// Who plays whom.
    pub pairing: Pairing,
    /// The outcome, `None` while the game is unfinished.
    pub outcome: Option<TournamentOutcome>,
}

/// One player's side of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Side {
    /// The player.
    pub player: PlayerNo,
    /// The opponent the game was played against; `None` for a bye or any forfeit, which tsh
    /// records as a game against player 0.
    pub opponent: Option<PlayerNo>,
    /// The player's own score when played, else the spread (tsh's convention for byes and forfeits).
    pub score: i32,
    /// The player's spread in this game.
    pub spread: i32,
}

impl RoundGame {
    /// Each player's side of the game: none while unfinished, one for a pairing without a
    /// second player, else two. A pairing without a second player scores as a bye unless its
    /// outcome is a forfeit or double forfeit by `first` (a loss with −[`FORFEIT_SPREAD`]).
    pub(crate) fn sides(&self) -> Vec<Side> {
        let Some(outcome) = self.outcome else { return Vec::new() };
        let first = self.pairing.first;
        let unplayed = |player, spread| Side { player, opponent: None, score: spread, spread };
        let Some(second) = self.pairing.second else {
            let spread = match outcome {
                TournamentOutcome::Forfeit { loser } if loser == first => -FORFEIT_SPREAD,
                TournamentOutcome::DoubleForfeit => -FORFEIT_SPREAD,
                _ => BYE_SPREAD,
            };
            return vec![unplayed(first, spread)];
        };
        match outcome {
            TournamentOutcome::Played { first_score, second_score } => vec![
                Side { player: first, opponent: Some(second), score: first_score, spread: first_score - second_score },
                Side { player: second, opponent: Some(first), score: second_score, spread: second_score - first_score },
            ],
            TournamentOutcome::Forfeit { loser } => {
                let sign = if loser == first { -1 } else { 1 };
                vec![unplayed(first, sign * FORFEIT_SPREAD), unplayed(second, -sign * FORFEIT_SPREAD)]
            }
            TournamentOutcome::DoubleForfeit => vec![unplayed(first, -FORFEIT_SPREAD), unplayed(second, -FORFEIT_SPREAD)],
            // A bye outcome on a paired game gives nobody a result but a bye to both.
            TournamentOutcome::Bye => vec![unplayed(first, BYE_SPREAD), unplayed(second, BYE_SPREAD)],
        }
    }
}
