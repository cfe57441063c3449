//! The hard level: the instant win, gated by a kill rate; otherwise an iterative-deepening
//! negamax search ([`super::search`]); medium's choice if the budget allows no search at all.
//! Against a person it plays and counts the familiar words only, and concedes with none: its
//! instant win is a syllable with no familiar answer (an unfair trap, laid at its
//! [`Hard::trap_rate`]), and its search values a position by the person's familiar answers.
//! Links with a familiar word go first among moves of equal promise; of the words of the link it
//! picks, it plays a familiar one when it can, the longest of those (the syllable bonus), ties at
//! random.
//! Thinking 700–1,500 ms.

use rand_chacha::ChaCha8Rng;

use super::Opponent;
use super::search::{Search, WIN};
use super::{Basis, ChainDecision, Level, Strategy, ThinkingLimit, familiar_or_all, medium, thinking};
use crate::dictionary::{LinkId, WordId};
use crate::random::{pick, unit};
use crate::view::ChainRobotView;

/// The default share of positions with an instant win in which the hard level takes it, against
/// a robot.
pub const DEFAULT_KILL_RATE: f64 = 0.85;
/// The default share of positions with an unfair trap (a word that leaves a person no familiar
/// answer) in which the hard level lays it, against a person: a casual player then wins about 1
/// game in 15 (docs/ROBOTS.md).
pub const DEFAULT_TRAP_RATE: f64 = 0.25;
/// The default search depth, in plies.
pub const DEFAULT_DEPTH: u32 = 4;
/// The default most nodes one decision searches.
pub const DEFAULT_NODE_CAP: u64 = 60_000;

/// The searching robot and its tuning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hard {
    /// Against a robot: when a word leaving no answer exists, the chance it is played outright;
    /// otherwise the search runs over the other words (a softer robot: a win is not always seen
    /// at once).
    pub kill_rate: f64,
    /// The same against a person, for a word that leaves no familiar answer.
    pub trap_rate: f64,
    /// Plies searched at most (iterative deepening from 1).
    pub depth: u32,
    /// Nodes searched at most per decision.
    pub node_cap: u64,
}

impl Default for Hard {
    fn default() -> Hard {
        Hard { kill_rate: DEFAULT_KILL_RATE, trap_rate: DEFAULT_TRAP_RATE, depth: DEFAULT_DEPTH, node_cap: DEFAULT_NODE_CAP }
    }
}

impl Strategy for Hard {
    fn level(&self) -> Level {
        Level::Hard
    }

    fn decide(&self, view: &ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng, budget: &mut dyn ThinkingLimit) -> Option<ChainDecision> {
        let at = view.current();
        let mut search = Search::new(view, self.node_cap, budget);
        let mut moves = search.moves_from(at);
        if moves.is_empty() {
            return None;
        }
        let kills: Vec<LinkId> = moves.iter().filter(|&&(_, n)| n == 0).map(|&(l, _)| l).collect();
        let rate = if view.opponent() == Opponent::Person { self.trap_rate } else { self.kill_rate };
        let (link, basis) = if !kills.is_empty() && unit(rng) < rate {
            let familiar: Vec<LinkId> = kills.iter().copied().filter(|&l| has_familiar(view, l)).collect();
            (pick(rng, if familiar.is_empty() { &kills } else { &familiar }), Basis::Kill)
        } else {
            if kills.len() < moves.len() {
                moves.retain(|&(_, n)| n > 0);
            }
            // Equal values keep this order: fewest answers, then a familiar word, first.
            moves.sort_unstable_by_key(|&(l, n)| (n, !has_familiar(view, l), l));
            let mut found = None;
            for depth in 1..=self.depth.max(1) {
                let Some((best, value)) = search.best(at, &moves, depth) else { break };
                found = Some((best, depth));
                // The best move first at the next depth: the window closes sooner.
                let i = moves.iter().position(|&(l, _)| l == best).expect("the best is a candidate");
                moves[..=i].rotate_right(1);
                if value.abs() >= WIN - 64 {
                    break;
                }
            }
            match found {
                Some((best, depth)) => (Some(best), Basis::Search { depth }),
                None => (None, Basis::Fallback),
            }
        };
        let word = match link {
            Some(link) => longest(view, link, rng),
            None => medium::choose(view, rng)?.0,
        };
        Some(ChainDecision { word, thinking_ms: thinking(rng, 700, 1_500), basis })
    }
}

impl Hard {
    /// This level's judgement of every link the side to move may play, best first, with its
    /// value for the mover: a link that leaves no answer is a win; the others are valued by this
    /// level's search, deepened to its depth while the node cap and `budget` allow (the deepest
    /// round that finished counts; before any, fewer answers left is better). Equal values keep
    /// the order of fewest answers left. No randomness: the kill rate is for play, not judgement.
    pub fn judge(&self, view: &ChainRobotView<'_, '_>, budget: &mut dyn ThinkingLimit) -> Vec<(LinkId, i32)> {
        let at = view.current();
        let mut search = Search::new(view, self.node_cap, budget);
        let mut moves = search.moves_from(at);
        moves.sort_unstable_by_key(|&(l, n)| (n, l));
        let mut judged: Vec<(LinkId, i32)> = moves.iter().map(|&(l, n)| (l, if n == 0 { WIN } else { -super::search::leaf(n) })).collect();
        let live: Vec<(LinkId, u32)> = moves.iter().filter(|&&(_, n)| n > 0).copied().collect();
        for depth in 2..=self.depth.max(1) {
            let Some(values) = search.values(at, &live, depth) else { break };
            for (l, v) in values {
                if let Some(j) = judged.iter_mut().find(|j| j.0 == l) {
                    j.1 = v;
                }
            }
        }
        judged.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        judged
    }
}

/// Whether a value of [`Hard::judge`] is a forced win for the mover (a link leaving no answer,
/// or one the search proved wins).
pub fn is_win(value: i32) -> bool {
    value >= WIN - 64
}

/// Whether `link` has an unused familiar word.
fn has_familiar(view: &ChainRobotView<'_, '_>, link: LinkId) -> bool {
    let dict = view.dictionary();
    dict.link(link).words().any(|w| !view.is_used(w) && dict.is_familiar(w))
}

/// The unused word of `link` with the most syllables, among its familiar ones if it has any,
/// ties at random.
fn longest(view: &ChainRobotView<'_, '_>, link: LinkId, rng: &mut ChaCha8Rng) -> WordId {
    let dict = view.dictionary();
    let words: Vec<WordId> = familiar_or_all(view, dict.link(link).words().filter(|&w| !view.is_used(w)).collect());
    let most = words.iter().map(|&w| dict.syllables_in(w)).max().unwrap_or(0);
    let longest: Vec<WordId> = words.into_iter().filter(|&w| dict.syllables_in(w) == most).collect();
    pick(rng, &longest).expect("a link with a word left")
}
