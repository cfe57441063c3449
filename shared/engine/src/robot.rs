//! Robots at three levels. A robot reads a position through [`RobotView`] (it cannot play it:
//! the caller validates its move like anyone's) and returns a move with a `thinking_ms` the
//! caller uses to pace the reveal; nothing sleeps. Difficulty comes from how well a level plays,
//! never from refusing to win. All levels draw their plays from the same filtered, re-scored list
//! as hints ([`crate::best_plays::best_plays`]), so in Эрудит they never repeat a main word.
//!
//! - easy: a beginner: a high-temperature softmax over the scores of plays it could find, where
//!   short plays forming one word are much easier to find;
//! - medium: a club player: the best static equity (score + leave) among its 40 best plays whose
//!   main word has at most seven letters and that place fewer than seven tiles (no bingo), else
//!   the best of the 40;
//! - hard: static equity picks candidates (with a play on the rack and more than a rack in the
//!   bag, also its best three exchanges by kept leave, unless a scoreless turn would bring the
//!   game near its scoreless end), then a Monte Carlo simulation (opponent racks drawn from the
//!   unseen tiles, two plies: equity less half the best reply's score) within a time budget; in the
//!   pre-endgame (1 to 7 tiles in the bag, two seats) the simulation deals the real unseen pool
//!   into the opponent's rack and the bag and values three plies with no static leave; with the
//!   bag empty it solves the endgame ([`crate::endgame::solve`]), or with three or four seats
//!   weighs each opponent's best answer on its own rack.
//!
//! With the bag empty every level ranks by the endgame value ([`crate::endgame::ranked`]): a
//! leave is worth nothing and going out gains the settlement.
//!
//! The engine reads no clock: the hard level's time budget is injected as a [`ThinkingLimit`] (the
//! service in production and the ladder pass a wall-clock one, 40 ms from the request; tests
//! pass a fixed number of rounds).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::best_plays::best_plays;
use crate::board::Board;
use crate::endgame;
use crate::game::Game;
use crate::leave::LeaveTable;
use crate::lexicon::WordGraph;
use crate::movegen::{GeneratedPlay, MoveGenerator, Ranking, exchanges};
use crate::moves::TileMove;
use crate::rack::Rack;
use crate::seat::Seat;
use crate::tile::RackTile;
use crate::variant::Rules;
/// The robot's level and its budget: the vocabulary every family shares.
pub use vocabulary::{Level, ThinkingLimit, Work};

/// What a robot may see: the position from its own seat, read-only.
pub struct RobotView<'a> {
    game: &'a Game,
}

impl<'a> RobotView<'a> {
    /// The view of the seat to move in `game`.
    pub fn new(game: &'a Game) -> RobotView<'a> {
        RobotView { game }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The robot's own rack.
    pub fn rack(&self) -> &Rack {
        self.game.rack(self.game.to_move())
    }

    /// Tiles the robot cannot see: the bag and the other racks together.
    pub fn unseen(&self) -> Vec<RackTile> {
        let me = self.game.to_move();
        let mut tiles: Vec<RackTile> = self.game.bag().tiles().collect();
        for s in 0..self.game.seats() {
            if s != me.index() {
                tiles.extend(self.game.rack(Seat(s as u8)).tiles());
            }
        }
        tiles.sort();
        tiles
    }

    /// Tiles left in the bag.
    pub fn bag_size(&self) -> usize {
        self.game.bag().len()
    }

    /// Every seat's score.
    pub fn scores(&self) -> &[i32] {
        self.game.scores()
    }
}

/// A budget of a fixed number of simulation rounds: deterministic, for tests.
#[derive(Debug, Clone, Copy)]
pub struct Rounds(pub u32);

impl ThinkingLimit for Rounds {
    fn expired(&mut self, done: Work) -> bool {
        matches!(done, Work::Rounds(rounds) if rounds >= self.0)
    }
}

/// A robot's decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The move to submit.
    pub mv: TileMove,
    /// The play chosen, if the move is a play.
    pub play: Option<GeneratedPlay>,
    /// How long a person would seem to think, for the caller to pace the reveal.
    pub thinking_ms: u32,
}

/// A robot: it reads a position and proposes a move; it cannot play it.
pub trait Robot {
    /// Its level.
    fn level(&self) -> Level;

    /// Its move for the seat to move in `view`. `rng` makes its choices repeatable; `budget`
    /// stops any simulation.
    fn decide(&self, view: &RobotView<'_>, rng: &mut ChaCha8Rng, budget: &mut dyn ThinkingLimit) -> Decision;
}

/// The robot of each level, over the move generator.
pub struct LevelRobot<'a> {
    level: Level,
    generator: MoveGenerator<'a>,
    leave: LeaveTable,
    rules: &'static Rules,
    /// The most simulation rounds the hard level runs (the budget may stop it sooner).
    max_rounds: u32,
}

impl<'a> LevelRobot<'a> {
    /// A robot of `level` for `game`'s variant over `lexicon`.
    pub fn new(level: Level, game: &Game, lexicon: &'a WordGraph) -> LevelRobot<'a> {
        let rules = game.rules();
        LevelRobot { level, rules, generator: MoveGenerator::new(rules, lexicon), leave: LeaveTable::standard(rules), max_rounds: 64 }
    }
}

impl Robot for LevelRobot<'_> {
    fn level(&self) -> Level {
        self.level
    }

    fn decide(&self, view: &RobotView<'_>, rng: &mut ChaCha8Rng, budget: &mut dyn ThinkingLimit) -> Decision {
        let game = view.game;
        let (play, thinking_ms) = match self.level {
            Level::Easy => (self.easy(game, view, rng), 400 + rng.next_u32() % 501),
            Level::Medium => {
                let p = self.medium(game);
                (p, 700 + p.map_or(0, |p| 90 * p.tiles_placed() as u32 + 6 * p.score.max(0) as u32).min(2_300))
            }
            Level::Hard => match self.hard(game, view, rng, budget) {
                Some(Candidate::Exchange { out, .. }) => {
                    return Decision { mv: TileMove::exchange(game.rules(), &out), play: None, thinking_ms: 900 + 60 * out.len() as u32 };
                }
                Some(Candidate::Play(p)) => (Some(p), 900 + (120 * p.tiles_placed() as u32 + 8 * p.score.max(0) as u32).min(3_100)),
                None => (None, 900),
            },
        };
        match play {
            Some(p) => Decision { mv: TileMove::play(game.rules(), &p.placements()), play: Some(p), thinking_ms },
            None => Decision { mv: self.no_play(game, view), play: None, thinking_ms: thinking_ms.min(1_500) },
        }
    }
}

impl LevelRobot<'_> {
    /// Without a play: exchange the tiles with the worst leave value where allowed, else pass.
    fn no_play(&self, game: &Game, view: &RobotView<'_>) -> TileMove {
        let rules = game.rules();
        let best = exchanges(rules, view.rack(), view.bag_size()).into_iter().max_by_key(|ex| {
            let kept = view.rack().minus(ex).unwrap_or_default();
            self.leave.value(&kept)
        });
        match best {
            Some(ex) => TileMove::exchange(rules, &ex),
            None => TileMove::Pass,
        }
    }

    fn easy(&self, game: &Game, view: &RobotView<'_>, rng: &mut ChaCha8Rng) -> Option<GeneratedPlay> {
        // With the bag empty a play's worth is its endgame value (going out gains the settlement).
        let endgame = view.bag_size() == 0;
        let plays = if endgame {
            endgame::ranked(game, &self.generator, game.to_move(), 60, &self.leave)
        } else {
            best_plays(game, &self.generator, view.rack(), 60, Ranking::Score)
        };
        let worth = |p: &GeneratedPlay| if endgame { p.equity / 1000 } else { p.score };
        let top = worth(plays.first()?);
        // Findable: short plays forming one word; a beginner rarely lays long or multi-word plays.
        let weights: Vec<f64> = plays
            .iter()
            .map(|p| {
                let words = 1 + p.tiles_placed().saturating_sub(1).min(3) as i32 * i32::from(p.word_len() > p.tiles_placed());
                let findable = 0.35f64.powi(words - 1) * 0.55f64.powi(p.word_len().saturating_sub(4) as i32);
                ((f64::from(worth(p) - top)) / 9.0).exp() * findable
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = (f64::from(rng.next_u32()) / f64::from(u32::MAX)) * total;
        for (p, w) in plays.iter().zip(&weights) {
            if pick < *w {
                return Some(*p);
            }
            pick -= w;
        }
        plays.last().copied()
    }

    fn medium(&self, game: &Game) -> Option<GeneratedPlay> {
        let plays = endgame::ranked(game, &self.generator, game.to_move(), 40, &self.leave);
        plays.iter().find(|p| p.word_len() <= 7 && p.tiles_placed() < 7).or(plays.first()).copied()
    }

    fn hard(&self, game: &Game, view: &RobotView<'_>, rng: &mut ChaCha8Rng, budget: &mut dyn ThinkingLimit) -> Option<Candidate> {
        if view.bag_size() == 0 {
            return self.endgame(game, budget).map(Candidate::Play);
        }
        let rules = game.rules();
        let plays = best_plays(game, &self.generator, view.rack(), CANDIDATES, Ranking::Equity(&self.leave));
        if plays.len() <= 1 && view.bag_size() <= rules.rack_size || plays.is_empty() {
            return plays.first().copied().map(Candidate::Play);
        }
        if view.bag_size() <= rules.rack_size && game.seats() == 2 {
            return self.pre_endgame(game, view, plays, rng, budget).map(Candidate::Play);
        }
        let mut candidates: Vec<Candidate> = plays.into_iter().map(Candidate::Play).collect();
        // With more than a rack in the bag, the best exchanges; but an exchange is a scoreless
        // turn: none that brings the game near its scoreless end.
        if view.bag_size() > rules.rack_size && game.scoreless_turns() + 2 < rules.end.limit(game.seats()) {
            let best = self.leave.best_exchanges(rules, view.rack(), view.bag_size(), EXCHANGES);
            candidates.extend(best.into_iter().map(|(out, equity)| Candidate::Exchange { out, equity }));
        }
        if candidates.len() == 1 {
            return candidates.pop();
        }
        let unseen = view.unseen();
        // Value of a candidate: its equity less half the opponent's best reply (thousandths).
        self.simulate(
            game,
            candidates,
            budget,
            || Rack::from_tiles(sample(&unseen, rules.rack_size, rng)),
            |opponent, c, board| {
                let reply = self.generator.top(&board, opponent, 1, Ranking::Score).first().map_or(0, |r| r.score);
                i64::from(c.equity()) - REPLY_WEIGHT * i64::from(reply)
            },
        )
    }

    /// Whole rounds of simulation within the budget and `max_rounds`: each round `deal` draws
    /// the hidden tiles, then `value` values each candidate on the board after it. A round counts
    /// only whole, so every candidate has the same number of samples; out of time before the
    /// first round ends, the static ranking (the first candidate) stands.
    fn simulate<T>(
        &self,
        game: &Game,
        candidates: Vec<Candidate>,
        budget: &mut dyn ThinkingLimit,
        mut deal: impl FnMut() -> T,
        value: impl Fn(&T, &Candidate, Board) -> i64,
    ) -> Option<Candidate> {
        let mut totals = vec![0i64; candidates.len()];
        let mut rounds = 0u32;
        'rounds: while rounds < self.max_rounds {
            let hidden = deal();
            let mut round = vec![0i64; candidates.len()];
            for (i, c) in candidates.iter().enumerate() {
                if budget.expired(Work::Rounds(rounds)) {
                    break 'rounds;
                }
                let mut board = game.board().clone();
                if let Candidate::Play(p) = c {
                    p.placements().into_iter().for_each(|t| board.place(t));
                }
                round[i] = value(&hidden, c, board);
            }
            for (t, r) in totals.iter_mut().zip(round) {
                *t += r;
            }
            rounds += 1;
        }
        if rounds == 0 {
            return candidates.first().copied();
        }
        let best = (0..candidates.len()).max_by_key(|&i| (totals[i], -(i as i64)))?;
        Some(candidates[best])
    }
}

impl LevelRobot<'_> {
    /// The bag is empty: with two seats, the exact search within the budget (the best static
    /// endgame value when no iteration completes); with three or four, each candidate's static
    /// value less the best answer of the strongest opponent, each on its own rack. `None`: pass.
    fn endgame(&self, game: &Game, budget: &mut dyn ThinkingLimit) -> Option<GeneratedPlay> {
        let ranked = endgame::ranked(game, &self.generator, game.to_move(), usize::MAX, &self.leave);
        let fallback = ranked.first().copied();
        if ranked.is_empty() && game.seats() > 2 {
            return None;
        }
        if game.seats() == 2 {
            return match endgame::solve(game, &self.generator, &ranked, budget) {
                // A pass only on the search's word to the end of the game: on a value cut at
                // its horizon, a scoring play is never thrown away for it.
                Some(solution) => match (solution.play, solution.best_play) {
                    (None, Some((play, _))) if !solution.exact && play.score > 0 => Some(play),
                    (play, _) => play,
                },
                None => fallback,
            };
        }
        let rules = game.rules();
        let me = game.to_move();
        let rack = game.rack(me);
        let mut best: Option<(i32, GeneratedPlay)> = None;
        for c in ranked.iter().take(8) {
            if budget.expired(Work::Rounds(0)) {
                return best.map(|b| b.1).or(fallback);
            }
            let value = c.equity / 1000;
            if endgame::goes_out(c, rack) {
                // Going out ends the game: nobody answers.
                if best.is_none_or(|b| value > b.0) {
                    best = Some((value, *c));
                }
                continue;
            }
            let mut board = game.board().clone();
            for p in c.placements() {
                board.place(p);
            }
            let left = c.leave(rack);
            let mut threat = 0;
            for o in (0..game.seats()).filter(|&s| s != me.index()) {
                let racks = (0..game.seats()).map(|s| if s == me.index() { left } else { *game.rack(Seat(s as u8)) });
                let others: i32 = racks.enumerate().filter(|&(s, _)| s != o).map(|(_, r)| endgame::rack_points(rules, &r)).sum();
                threat = threat.max(endgame::best_reply(rules, &self.generator, &board, game.rack(Seat(o as u8)), others));
            }
            if best.is_none_or(|b| value - threat > b.0) {
                best = Some((value - threat, *c));
            }
        }
        best.map(|b| b.1).or(fallback)
    }

    /// The pre-endgame (1 to a rack of tiles in the bag, two seats): each candidate is valued by
    /// simulation over the real unseen pool, not a static leave: the opponent's rack and the bag
    /// drawn from it, the robot's draw, the opponent's best answer (going out where the bag is
    /// then empty), and the robot's best next play; its own leave counts only through that play.
    fn pre_endgame(
        &self,
        game: &Game,
        view: &RobotView<'_>,
        candidates: Vec<GeneratedPlay>,
        rng: &mut ChaCha8Rng,
        budget: &mut dyn ThinkingLimit,
    ) -> Option<GeneratedPlay> {
        let unseen = view.unseen();
        let bag_size = view.bag_size();
        let rack = view.rack();
        let candidates = candidates.into_iter().map(Candidate::Play).collect();
        let chosen = self.simulate(
            game,
            candidates,
            budget,
            || {
                let pool = sample(&unseen, unseen.len(), rng);
                let (bag, opponent) = pool.split_at(bag_size);
                (bag.to_vec(), Rack::from_tiles(opponent.iter().copied()))
            },
            |(bag, opponent), c, board| {
                let Candidate::Play(c) = c else { unreachable!("the pre-endgame simulates plays only") };
                1000 * self.pre_endgame_value(board, c, rack, bag, opponent)
            },
        );
        chosen.and_then(|c| match c {
            Candidate::Play(p) => Some(p),
            Candidate::Exchange { .. } => None,
        })
    }

    /// The pre-endgame simulation's value of `play` in points, on one deal of the unseen pool:
    /// `board` is the board after the play, `bag` the bag in drawing order, `opponent` its rack.
    /// The play's score less the opponent's best answer (going out where the bag is then empty),
    /// plus the robot's best next play; its own leave counts only through that play.
    pub(crate) fn pre_endgame_value(&self, mut board: Board, play: &GeneratedPlay, rack: &Rack, bag: &[RackTile], opponent: &Rack) -> i64 {
        let rules = self.rules;
        let mut mine = play.leave(rack);
        let drawn = play.tiles_placed().min(bag.len());
        bag[..drawn].iter().for_each(|&t| mine.add(t));
        let bag_empty = drawn == bag.len();
        let (reply, reply_value) = self.best_answer(&board, opponent, endgame::rack_points(rules, &mine), bag_empty);
        let mut value = i64::from(play.score) - i64::from(reply_value);
        if !reply.is_some_and(|r| bag_empty && endgame::goes_out(&r, opponent)) {
            if let Some(r) = reply {
                for p in r.placements() {
                    board.place(p);
                }
            }
            let left = reply.map_or(*opponent, |r| r.leave(opponent));
            value += i64::from(self.best_answer(&board, &mine, endgame::rack_points(rules, &left), bag_empty).1);
        }
        value
    }

    /// The best answer of `rack` on `board` and its value: by score, or with the bag empty by
    /// the static endgame value against the `others` points the other rack holds.
    fn best_answer(&self, board: &Board, rack: &Rack, others: i32, bag_empty: bool) -> (Option<GeneratedPlay>, i32) {
        if !bag_empty {
            let top = self.generator.top(board, rack, 1, Ranking::Score).first().copied();
            return (top, top.map_or(0, |p| p.score));
        }
        let rules = self.rules;
        self.generator
            .all(board, rack)
            .into_iter()
            .map(|p| (Some(p), endgame::static_value(rules, &p, rack, others)))
            .max_by_key(|&(_, v)| v)
            .unwrap_or((None, 0))
    }
}

/// Plays the hard level simulates in the mid-game.
const CANDIDATES: usize = 8;

/// Exchanges that join the hard level's candidates: the best by kept-leave value.
const EXCHANGES: usize = 3;

/// What a point of the opponent's best reply costs a mid-game candidate, in thousandths: half a
/// point. The reply is that of one dealt rack by score alone, a noisy and pessimistic estimate;
/// counted in full it lost to static equity (see docs/ROBOTS.md, "The reply's weight").
const REPLY_WEIGHT: i64 = 500;

/// A move the hard level simulates.
#[derive(Debug, Clone, Copy)]
enum Candidate {
    /// A play.
    Play(GeneratedPlay),
    /// An exchange of `out`: it scores nothing, so its equity is the kept leave's value.
    Exchange { out: Rack, equity: i32 },
}

impl Candidate {
    /// Score plus leave value, in thousandths.
    fn equity(&self) -> i32 {
        match self {
            Candidate::Play(p) => p.equity,
            Candidate::Exchange { equity, .. } => *equity,
        }
    }
}

/// `n` tiles drawn at random from `pool` without replacement (a partial Fisher–Yates shuffle):
/// how the hard level deals hidden racks.
pub(crate) fn sample(pool: &[RackTile], n: usize, rng: &mut ChaCha8Rng) -> Vec<RackTile> {
    let mut pool = pool.to_vec();
    let n = n.min(pool.len());
    for i in 0..n {
        let j = i + (rng.next_u64() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

/// A seeded random source for a robot (ChaCha8): the same seed, the same choices.
pub fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
