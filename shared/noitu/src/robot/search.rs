//! The hard level's search: negamax with alpha-beta over links (parallel words are one move), on
//! a private copy of the remaining-word counts, so the game itself is never touched. Against a
//! person only the familiar words count, for both sides: the position is valued by the answers
//! a person can find ([`ChainRobotView::opponent_knows`]).

use super::Opponent;
use super::{ThinkingLimit, Work};
use crate::dictionary::{Dictionary, LinkId, SyllableId};
use crate::view::ChainRobotView;

/// A won position's value; a win in fewer plies is worth more.
pub(super) const WIN: i32 = 1_000_000;
const INFINITY: i32 = 1_000_000_000;
/// How often (in nodes) the budget is asked.
const POLL: u64 = 256;

/// The value of a quiet position for the side to move: +ln(1 + its words), in thousandths.
pub(super) fn leaf(words: u32) -> i32 {
    (f64::from(words).ln_1p() * 1000.0) as i32
}

/// A search over one position.
pub(super) struct Search<'a> {
    dict: &'a Dictionary,
    /// Unused words of each link.
    left: Vec<u16>,
    /// Unused words beginning with each syllable.
    degree: Vec<u32>,
    nodes: u64,
    node_cap: u64,
    budget: &'a mut dyn ThinkingLimit,
    stopped: bool,
    /// Per ply: the moves (link, opponent's answers after it), reused between nodes.
    moves: Vec<Vec<(LinkId, u32)>>,
}

impl<'a> Search<'a> {
    /// A search of `view`'s position, over the words its opponent knows.
    pub(super) fn new(view: &ChainRobotView<'_, 'a>, node_cap: u64, budget: &'a mut dyn ThinkingLimit) -> Search<'a> {
        let dict = view.dictionary();
        let all = view.opponent() == Opponent::Robot;
        let links = (0..dict.link_count() as u32).map(LinkId);
        let mut left: Vec<u16> = links.map(|l| if all { dict.link(l).len() } else { dict.familiar_len(l) } as u16).collect();
        let syllables = (0..dict.syllable_count() as u32).map(SyllableId);
        let mut degree: Vec<u32> = syllables.map(|s| if all { dict.out_degree(s) } else { dict.familiar_out_degree(s) } as u32).collect();
        for &w in view.used().iter().filter(|&&w| view.opponent_knows(w)) {
            left[dict.link_of(w).index()] -= 1;
            degree[dict.first(w).index()] -= 1;
        }
        Search { dict, left, degree, nodes: 0, node_cap, budget, stopped: false, moves: Vec::new() }
    }

    /// The moves from `at`: each link with a word left and the answers it leaves.
    pub(super) fn moves_from(&self, at: SyllableId) -> Vec<(LinkId, u32)> {
        let mut out = Vec::new();
        self.collect(at, &mut out);
        out
    }

    fn collect(&self, at: SyllableId, out: &mut Vec<(LinkId, u32)>) {
        out.clear();
        for l in self.dict.links_from(at) {
            if self.left[l.index()] > 0 {
                let to = self.dict.link(l).to;
                out.push((l, self.degree[to.index()] - u32::from(to == at)));
            }
        }
    }

    /// The best of `candidates` (moves from `at`) searched `depth` plies deep, with its value;
    /// `None` if the budget or the node cap stopped the search first.
    pub(super) fn best(&mut self, at: SyllableId, candidates: &[(LinkId, u32)], depth: u32) -> Option<(LinkId, i32)> {
        let mut alpha = -INFINITY;
        let mut best = None;
        for &(l, _) in candidates {
            let v = -self.child(at, l, depth - 1, -INFINITY, -alpha, 1);
            if self.stopped {
                return None;
            }
            if v > alpha {
                alpha = v;
                best = Some((l, v));
            }
        }
        best
    }

    /// Each of `candidates` (moves from `at`) with its exact value searched `depth` plies deep
    /// (a full window for each, where [`Search::best`] only proves the best); `None` if the
    /// budget or the node cap stopped the search first.
    pub(super) fn values(&mut self, at: SyllableId, candidates: &[(LinkId, u32)], depth: u32) -> Option<Vec<(LinkId, i32)>> {
        let mut out = Vec::with_capacity(candidates.len());
        for &(l, _) in candidates {
            let v = -self.child(at, l, depth - 1, -INFINITY, INFINITY, 1);
            if self.stopped {
                return None;
            }
            out.push((l, v));
        }
        Some(out)
    }

    /// Plays link `l` from `at`, searches the answer, takes it back.
    fn child(&mut self, at: SyllableId, l: LinkId, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        self.left[l.index()] -= 1;
        self.degree[at.index()] -= 1;
        let v = self.negamax(self.dict.link(l).to, depth, alpha, beta, ply);
        self.left[l.index()] += 1;
        self.degree[at.index()] += 1;
        v
    }

    /// The value of the position at `at` for the side to move.
    fn negamax(&mut self, at: SyllableId, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.tick(1);
        if self.stopped {
            return 0;
        }
        let words = self.degree[at.index()];
        if words == 0 {
            return -(WIN - ply as i32);
        }
        if depth == 0 {
            return leaf(words);
        }
        let depth_of = ply as usize;
        if self.moves.len() <= depth_of {
            self.moves.resize_with(depth_of + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth_of]);
        self.collect(at, &mut moves);
        let value = if moves.iter().any(|&(_, n)| n == 0) {
            // A word that leaves no answer: won next ply.
            WIN - ply as i32 - 1
        } else if depth == 1 {
            // Every answer is a leaf: the best leaves the opponent fewest words.
            self.tick(moves.len() as u64);
            -leaf(moves.iter().map(|&(_, n)| n).min().unwrap_or(0))
        } else {
            moves.sort_unstable_by_key(|&(l, n)| (n, l));
            let mut best = -INFINITY;
            for &(l, _) in &moves {
                let v = -self.child(at, l, depth - 1, -beta, -alpha, ply + 1);
                if self.stopped {
                    break;
                }
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        self.moves[depth_of] = moves;
        value
    }

    /// Counts `n` nodes; asks the budget at the first node and every [`POLL`] nodes after.
    fn tick(&mut self, n: u64) {
        let before = self.nodes;
        self.nodes += n;
        if (before == 0 || before / POLL != self.nodes / POLL)
            && (self.nodes > self.node_cap || self.budget.expired(Work::Nodes(self.nodes)))
        {
            self.stopped = true;
        }
    }
}
