//! The endgame: with the bag empty a leave is worth nothing and a play that goes out ends the
//! game with the box rule's settlement (docs/RULES.md: the player going out adds the other racks'
//! sum, each other player subtracts their own).
//!
//! - [`static_value`] values one play from the rack settlement alone, for hints and the easy and
//!   medium levels;
//! - [`solve`] searches a two-player endgame exactly (both racks are known): negamax with
//!   alpha-beta, iterative deepening, asking the injected [`ThinkingLimit`] at every node; out of time,
//!   the deepest completed iteration stands, and before the first, the caller's static best;
//! - [`best_reply`] is one opponent's best answer, for tables of three or four, where each
//!   opponent is weighed on its own rack.

use crate::best_plays::{all_plays, best_plays};
use crate::board::Board;
use crate::game::Game;
use crate::leave::LeaveTable;
use crate::movegen::{GeneratedPlay, MoveGenerator, Ranking};
use crate::rack::Rack;
use crate::seat::Seat;
use crate::variant::Rules;
use vocabulary::{ThinkingLimit, Work};

/// Plays an inner node of the search tries at most, best first by score and going out.
const WIDTH: usize = 14;

/// Plays the root tries at most, best static endgame value first (and passing).
const ROOT_WIDTH: usize = 40;

/// The deepest iteration the search tries (plies).
const MAX_DEPTH: u32 = 24;

/// Points of the tiles on `rack`.
pub fn rack_points(rules: &Rules, rack: &Rack) -> i32 {
    rack.tiles().map(|t| rules.rack_tile_value(t)).sum()
}

/// The points the other seats hold, `seat` left out.
fn others_points(game: &Game, seat: Seat) -> i32 {
    (0..game.seats()).filter(|&s| s != seat.index()).map(|s| rack_points(game.rules(), game.rack(Seat(s as u8)))).sum()
}

/// Whether `play` empties `rack`.
pub fn goes_out(play: &GeneratedPlay, rack: &Rack) -> bool {
    play.tiles_placed() == rack.len()
}

/// The static endgame value of `play` from `rack`, in points: its score; going out, twice the
/// points `others` hold (the player going out gains them, each other player loses their own);
/// otherwise less the points kept, which the player is likely to lose when another goes out.
pub fn static_value(rules: &Rules, play: &GeneratedPlay, rack: &Rack, others: i32) -> i32 {
    if goes_out(play, rack) { play.score + 2 * others } else { play.score - rack_points(rules, &play.leave(rack)) }
}

/// The best `n` plays of `seat`'s rack in `game` for a hint or a robot: by static equity while
/// tiles remain in the bag; with the bag empty, by [`static_value`] (its equity field then holds
/// that value in thousandths).
pub fn ranked(game: &Game, generator: &MoveGenerator<'_>, seat: Seat, n: usize, leave: &LeaveTable) -> Vec<GeneratedPlay> {
    let rack = game.rack(seat);
    if !game.bag().is_empty() {
        return best_plays(game, generator, rack, n, Ranking::Equity(leave));
    }
    let others = others_points(game, seat);
    let mut plays = all_plays(game, generator, rack);
    for p in &mut plays {
        p.equity = 1000 * static_value(game.rules(), p, rack, others);
    }
    // Stable: among equal values the score order (and the generator's fixed order) stands.
    plays.sort_by_key(|p| std::cmp::Reverse(p.equity));
    plays.truncate(n);
    plays
}

/// The best static answer of `seat` on `board` (points, from its own view): its best
/// [`static_value`] against the points the others hold, or 0 when it has no play.
pub fn best_reply(rules: &Rules, generator: &MoveGenerator<'_>, board: &Board, rack: &Rack, others: i32) -> i32 {
    generator.all(board, rack).iter().map(|p| static_value(rules, p, rack, others)).max().unwrap_or(0).max(0)
}

/// What the two-player search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The play to make; `None` to pass.
    pub play: Option<GeneratedPlay>,
    /// The spread it gains over the rest of the game, settlement included (points).
    pub value: i32,
    /// Plies of the deepest completed iteration.
    pub depth: u32,
    /// Whether that iteration saw every line to the end of the game with every play.
    pub exact: bool,
    /// The best play of that iteration and its value, when it is not [`Solution::play`]
    /// (the search chose to pass): what to play if that pass is not to be trusted.
    pub best_play: Option<(GeneratedPlay, i32)>,
}

/// The search's state of one endgame.
struct Search<'a, 'b> {
    rules: &'a Rules,
    generator: &'a MoveGenerator<'a>,
    /// Consecutive scoreless turns that end the game.
    limit: u32,
    budget: &'b mut dyn ThinkingLimit,
    /// Iterations completed, the budget's rounds.
    iterations: u32,
    out_of_time: bool,
    /// Whether the current iteration cut a line short (depth or width).
    cut: bool,
}

/// Solves the endgame of a two-seat `game` with the bag empty for the seat to move, over the
/// root plays `candidates` (legal under the game's rules, best static first: the first
/// `ROOT_WIDTH` (40) are tried, and passing). `None` when no iteration completed in the budget, or the game is not such an endgame.
///
/// Passing is searched last at the root and chosen only when it is worth strictly more than
/// every play: a play and a pass of equal value (a stuck opponent lets either wait) is the
/// play, so no pass throws away a scoring move the search cannot tell apart from it.
pub fn solve(game: &Game, generator: &MoveGenerator<'_>, candidates: &[GeneratedPlay], budget: &mut dyn ThinkingLimit) -> Option<Solution> {
    if game.seats() != 2 || !game.bag().is_empty() || game.is_over() {
        return None;
    }
    let me = game.to_move().index();
    let racks = [*game.rack(Seat(me as u8)), *game.rack(Seat(1 - me as u8))];
    let rules = game.rules();
    let mut search = Search { rules, generator, limit: rules.end.limit(2), budget, iterations: 0, out_of_time: false, cut: false };
    let mut order: Vec<Option<GeneratedPlay>> = candidates.iter().take(ROOT_WIDTH).copied().map(Some).collect();
    order.push(None);
    let root_cut = candidates.len() > ROOT_WIDTH;
    let mut best: Option<Solution> = None;
    for depth in 1..=MAX_DEPTH {
        search.cut = false;
        let Some((at, value, best_play)) = search.root(game.board(), racks, game.scoreless_turns(), &order, depth) else { break };
        let exact = !search.cut && !root_cut;
        let best_play = best_play.filter(|_| order[at].is_none()).and_then(|(i, v)| order[i].map(|p| (p, v)));
        best = Some(Solution { play: order[at], value, depth, exact, best_play });
        search.iterations += 1;
        // The best play leads the next iteration; the pass stays last.
        if order[at].is_some() {
            let first = order.remove(at);
            order.insert(0, first);
        }
        if exact {
            break;
        }
    }
    best
}

/// Beyond any spread.
const INF: i32 = 1_000_000;

impl Search<'_, '_> {
    /// The index of the best root move and its value, and the best play's (the pass, searched
    /// last, left out), or `None` out of time.
    #[allow(clippy::type_complexity)]
    fn root(
        &mut self,
        board: &Board,
        racks: [Rack; 2],
        scoreless: u32,
        order: &[Option<GeneratedPlay>],
        depth: u32,
    ) -> Option<(usize, i32, Option<(usize, i32)>)> {
        let (mut best, mut alpha) = (0, -INF);
        let mut best_play = None;
        for (i, mv) in order.iter().enumerate() {
            let v = self.after(board, racks, scoreless, *mv, depth, alpha, INF)?;
            if v > alpha {
                alpha = v;
                best = i;
                if mv.is_some() {
                    best_play = Some((i, v));
                }
            }
        }
        Some((best, alpha, best_play))
    }

    /// The value for the side to move (`racks[0]`) of making `mv` (`None`: pass) and the
    /// opponent's best answer after it, searched `depth - 1` plies further, within `alpha..beta`.
    #[allow(clippy::too_many_arguments)]
    fn after(
        &mut self,
        board: &Board,
        racks: [Rack; 2],
        scoreless: u32,
        mv: Option<GeneratedPlay>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let points = |r: &Rack| rack_points(self.rules, r);
        let Some(p) = mv else {
            if scoreless + 1 >= self.limit {
                return Some(points(&racks[1]) - points(&racks[0]));
            }
            return Some(-self.node(board, [racks[1], racks[0]], scoreless + 1, depth - 1, -beta, -alpha)?);
        };
        let left = p.leave(&racks[0]);
        if left.is_empty() {
            return Some(p.score + 2 * points(&racks[1]));
        }
        let scoreless = if p.score > 0 { 0 } else { scoreless + 1 };
        if scoreless >= self.limit {
            return Some(p.score + points(&racks[1]) - points(&left));
        }
        let mut next = board.clone();
        for pl in p.placements() {
            next.place(pl);
        }
        Some(p.score - self.node(&next, [racks[1], left], scoreless, depth - 1, p.score - beta, p.score - alpha)?)
    }

    /// Negamax with alpha-beta (fail-soft): the value for the side to move (`racks[0]`).
    fn node(&mut self, board: &Board, racks: [Rack; 2], scoreless: u32, depth: u32, mut alpha: i32, beta: i32) -> Option<i32> {
        if self.out_of_time || self.budget.expired(Work::Rounds(self.iterations)) {
            self.out_of_time = true;
            return None;
        }
        if depth == 0 {
            // The horizon: as the static value has it, the side to move is the likelier to go
            // out, so the other's rack counts against the other; but a side with no play at all
            // cannot go out, and then its own rack counts against it. (Crediting a stuck side
            // with the other's rack made every line that leaves it to move look worse than a
            // pass that ends the game at once: the hard level passed scoring plays away.)
            self.cut = true;
            return Some(if self.generator.all(board, &racks[0]).is_empty() {
                -rack_points(self.rules, &racks[0])
            } else {
                rack_points(self.rules, &racks[1])
            });
        }
        let opponent = rack_points(self.rules, &racks[1]);
        let mut plays = self.generator.all(board, &racks[0]);
        let key = |p: &GeneratedPlay| p.score + if goes_out(p, &racks[0]) { 2 * opponent } else { 0 };
        plays.sort_by_key(|p| std::cmp::Reverse(key(p)));
        if plays.len() > WIDTH {
            plays.truncate(WIDTH);
            self.cut = true;
        }
        let mut best = -INF;
        for mv in plays.into_iter().map(Some).chain(std::iter::once(None)) {
            let v = self.after(board, racks, scoreless, mv, depth, alpha, beta)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}
