//! Prototypes of the hard level's mid-game simulation, for `ladder --versus`: `hard` alone is
//! the hard level as it was before exchanges joined its candidates (8 static-equity plays, the
//! opponent's best reply on a rack dealt from the unseen tiles, whole rounds, at most 64);
//! `exchange` adds the exchanges, and `exchange+damp` (the reply counted half) is what
//! `engine::robot`'s hard level does now; the other features are switched on over these, to
//! measure against medium (or, with `static:`, the static players) before `engine::robot`
//! changes. With a rack or fewer in the bag, or no play, the engine's hard level decides (the
//! caller's fallback), except that `win` values the pre-endgame its own way. `peek` and
//! `peekkept` are oracles for measurement (the opponent's real rack, or the tiles it really
//! kept from its last play), never robots.

use std::time::Instant;

use engine::best_plays::{best_plays, best_plays_on};
use engine::lab::sample;
use engine::robot::{LevelRobot, RobotView};
use engine::seat::Seat;
use engine::{Board, Game, GeneratedPlay, LeaveTable, MoveGenerator, Rack, Ranking, TileMove};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;

/// Candidates per decision with [`Features::wide`].
const WIDE: usize = 16;

/// Candidates per decision otherwise (the engine's hard level).
const CANDIDATES: usize = 8;

/// Exchanges that join the candidates with [`Features::exchange`]: the best by kept-leave value.
const EXCHANGES: usize = 3;

/// The bag size at or under which [`Features::late`] turns the three-ply horizon on.
pub const LATE: usize = 20;

/// The most simulation rounds (the engine's `max_rounds`).
const MAX_ROUNDS: u32 = 64;

/// How far below the best static equity a candidate of [`Features::window`] may be (thousandths).
const WINDOW: i32 = 6_000;

/// The most simulation rounds with [`Features::deep`] (the budget still stops it).
const DEEP_ROUNDS: u32 = 1024;

/// The rounds after which [`Features::race`] first halves the candidates.
const RACE_FIRST: u32 = 8;

/// Which changes to the hard level's mid-game simulation a prototype makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// 16 candidates instead of 8.
    pub wide: bool,
    /// The opponent answers by static equity among unplayed words, valued by its equity.
    pub reply: bool,
    /// The opponent's reply, chosen by score, is valued by its score plus the value of the leave
    /// it keeps (with [`Features::reply`] its equity already holds that leave).
    pub rleave: bool,
    /// The best few exchanges are candidates too (score 0, their kept leave's value).
    pub exchange: bool,
    /// Three plies: after the reply the robot draws from the rest of the unseen tiles and its
    /// best static-equity next play counts instead of its static leave.
    pub ply3: bool,
    /// [`Features::ply3`] only with this many tiles or fewer in the bag (`late`: [`LATE`];
    /// `lateN`: N).
    pub late: Option<usize>,
    /// Up to [`DEEP_ROUNDS`] rounds instead of [`MAX_ROUNDS`]: the budget alone stops it.
    pub deep: bool,
    /// The opponent's reply counts half in a two-ply simulation: its estimate shrunk toward
    /// static equity (a three-ply one counts it in full).
    pub damp: bool,
    /// The opponent's reply counts a quarter in a two-ply simulation.
    pub quarter: bool,
    /// No simulation: the best candidate by static equity (exchanges by kept leave).
    pub still: bool,
    /// Only candidates within [`WINDOW`] of the best static equity are simulated.
    pub window: bool,
    /// Successive halving: after [`RACE_FIRST`] rounds, and each time the rounds double, the
    /// worse half of the candidates still running drops out (two always stay); rounds run until
    /// the budget (at most [`DEEP_ROUNDS`]), so the contenders get the rounds the others leave.
    pub race: bool,
    /// An oracle for measurement only, never a robot: the simulation deals the opponent its
    /// real rack (the robot's draws still come from the bag), bounding what inferring the
    /// opponent's rack from its plays could gain.
    pub peek: bool,
    /// An oracle for measurement only, never a robot: the simulation deals the opponent the
    /// tiles it really kept from its last play (its rack before that play, rebuilt from the
    /// journal, less the tiles it placed) and fills its rack from the rest of the unseen tiles;
    /// after any other move it deals as usual. Bounds what a perfect [`Features::infer`] could gain.
    pub peek_kept: bool,
    /// Infers the opponent's kept tiles from its last play: a dealt rack's first tiles (as many
    /// as it kept) must be such that the play it made was its best by score (`infer`), or by
    /// score or by equity within a tolerance (`inferu`); a round's rack holds one of the
    /// leaves found consistent (see [`simulate`]), or is dealt as usual when none was.
    pub infer: Option<InferBy>,
    /// Plays for wins, not points: each round's value v counts through the win utility
    /// [`win_utility`] of the lead after it (a normal spread of [`PLY_SIGMA`] a ply still to come),
    /// blended with v itself; and the pre-endgame (1 to a rack of tiles in the bag) is the
    /// engine's simulation valued the same way.
    pub win: bool,
}

/// The spread's standard deviation per ply still to come (about 92 over a whole game of 24).
const PLY_SIGMA: f64 = 19.0;

/// The share of [`Features::win`]'s value that comes from the win utility; the rest is the
/// points themselves, so that a lost or won position still ranks its moves.
const WIN_SHARE: f64 = 0.8;

/// A utility of ending `lead` points ahead with the spread still to come normal with deviation
/// `sigma`: the win probability scaled so that it moves one for one with points at an even
/// lead (σ·√(2π)·Φ(lead/σ)); flat far ahead or behind.
fn win_utility(lead: f64, sigma: f64) -> f64 {
    sigma * (2.0 * std::f64::consts::PI).sqrt() * normal_cdf(lead / sigma)
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26, error < 1.5e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// [`Features::win`]'s value (thousandths) of a round's value `v` (thousandths) with the robot
/// `lead` points ahead before it and `sigma` the spread still to come.
fn for_wins(v: i64, lead: i32, sigma: f64) -> i64 {
    let points = v as f64 / 1000.0;
    (1000.0 * (WIN_SHARE * win_utility(f64::from(lead) + points, sigma) + (1.0 - WIN_SHARE) * points)) as i64
}

/// How [`Features::infer`] judges a kept leave consistent with the opponent's last play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InferBy {
    /// The play was its best by score.
    Score,
    /// The play was within [`INFER_SCORE`] of its best by score, or within [`INFER_EQUITY`] of
    /// its best by equity.
    Either,
}

/// The most kept leaves [`Features::infer`] deals and judges per decision.
const INFER_TRIES: usize = 2_000;

/// Points below its best score a play may be under [`InferBy::Either`].
const INFER_SCORE: i32 = 2;

/// Equity below its best (thousandths) a play may be under [`InferBy::Either`].
const INFER_EQUITY: i32 = 5_000;

impl Features {
    /// The features named in `spec`, `+`-separated (`hard` alone: none, the engine's hard level).
    ///
    /// # Errors
    /// The unknown name.
    pub fn parse(spec: &str) -> Result<Features, String> {
        let mut f = Features::default();
        for name in spec.split('+') {
            match name {
                "hard" => {}
                "wide" => f.wide = true,
                "reply" => f.reply = true,
                "rleave" => f.rleave = true,
                "exchange" => f.exchange = true,
                "ply3" => f.ply3 = true,
                "late" => f.late = Some(LATE),
                "deep" => f.deep = true,
                "damp" => f.damp = true,
                "quarter" => f.quarter = true,
                "still" => f.still = true,
                "window" => f.window = true,
                "race" => f.race = true,
                "peek" => f.peek = true,
                "peekkept" => f.peek_kept = true,
                "win" => f.win = true,
                "infer" => f.infer = Some(InferBy::Score),
                "inferu" => f.infer = Some(InferBy::Either),
                other if let Some(n) = other.strip_prefix("late").and_then(|n| n.parse().ok()) => f.late = Some(n),
                other => {
                    return Err(format!(
                        "unknown prototype feature {other:?} (expected hard, wide, reply, rleave, exchange, ply3, late, lateN, deep, damp, quarter, still, window, race, peek, peekkept, infer, inferu, win)"
                    ));
                }
            }
        }
        Ok(f)
    }

    /// Whether the horizon is three plies with `bag` tiles in the bag.
    fn three_plies(self, bag: usize) -> bool {
        self.ply3 || self.late.is_some_and(|n| bag <= n)
    }
}

impl std::fmt::Display for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let late = match self.late {
            Some(LATE) | None => "late".to_string(),
            Some(n) => format!("late{n}"),
        };
        let names = [
            (self.wide, "wide"),
            (self.reply, "reply"),
            (self.rleave, "rleave"),
            (self.exchange, "exchange"),
            (self.ply3, "ply3"),
            (self.late.is_some(), late.as_str()),
            (self.deep, "deep"),
            (self.damp, "damp"),
            (self.quarter, "quarter"),
            (self.still, "still"),
            (self.window, "window"),
            (self.race, "race"),
            (self.peek, "peek"),
            (self.peek_kept, "peekkept"),
            (self.infer == Some(InferBy::Score), "infer"),
            (self.infer == Some(InferBy::Either), "inferu"),
            (self.win, "win"),
        ];
        let on: Vec<&str> = names.iter().filter(|n| n.0).map(|n| n.1).collect();
        if on.is_empty() { f.write_str("hard") } else { f.write_str(&on.join("+")) }
    }
}

/// A candidate move: a play, or an exchange of `out` keeping `kept`.
#[derive(Debug, Clone, Copy)]
enum Candidate {
    Play(GeneratedPlay),
    Exchange { out: Rack, kept: Rack, equity: i32 },
}

impl Candidate {
    fn score(&self) -> i32 {
        match self {
            Candidate::Play(p) => p.score,
            Candidate::Exchange { .. } => 0,
        }
    }

    fn equity(&self) -> i32 {
        match self {
            Candidate::Play(p) => p.equity,
            Candidate::Exchange { equity, .. } => *equity,
        }
    }

    /// The tiles kept and how many are drawn after the move.
    fn kept(&self, rack: &Rack) -> (Rack, usize) {
        match self {
            Candidate::Play(p) => (p.leave(rack), p.tiles_placed()),
            Candidate::Exchange { out, kept, .. } => (*kept, out.len()),
        }
    }

    fn board_after(&self, board: &Board) -> Board {
        let mut board = board.clone();
        if let Candidate::Play(p) = self {
            for t in p.placements() {
                board.place(t);
            }
        }
        board
    }
}

/// The best `n` exchanges of the seat to move by the value of the leave they keep (the
/// engine's hard level's own choice), as candidates.
fn best_exchanges(game: &Game, leave: &LeaveTable, n: usize) -> Vec<Candidate> {
    let rack = game.rack(game.to_move());
    leave
        .best_exchanges(game.rules(), rack, game.bag().len(), n)
        .into_iter()
        .filter_map(|(out, equity)| Some(Candidate::Exchange { out, kept: rack.minus(&out)?, equity }))
        .collect()
}

/// The prototype's move for the seat to move (`robot`: the engine's hard level, whose
/// pre-endgame valuation `win` reuses), or `None` when the engine's hard level decides: a rack
/// or fewer in the bag (but for `win`'s pre-endgame), or no play.
pub fn decide(
    game: &Game,
    robot: &LevelRobot<'_>,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    features: Features,
    rng: &mut ChaCha8Rng,
    until: Instant,
) -> Option<TileMove> {
    let rules = game.rules();
    if game.bag().len() <= rules.rack_size {
        return if features.win && !game.bag().is_empty() && game.seats() == 2 {
            pre_endgame(game, robot, generator, leave, rng, until)
        } else {
            None
        };
    }
    let rack = *game.rack(game.to_move());
    let n = if features.wide { WIDE } else { CANDIDATES };
    let mut candidates: Vec<Candidate> =
        best_plays(game, generator, &rack, n, Ranking::Equity(leave)).into_iter().map(Candidate::Play).collect();
    if candidates.is_empty() {
        return None;
    }
    // An exchange is a scoreless turn: never one that brings the game near its scoreless end.
    if features.exchange && game.scoreless_turns() + 2 < rules.end.limit(game.seats()) {
        candidates.extend(best_exchanges(game, leave, EXCHANGES));
    }
    if features.window {
        let top = candidates.iter().map(Candidate::equity).max().expect("a candidate");
        candidates.retain(|c| c.equity() >= top - WINDOW);
    }
    let best = if candidates.len() == 1 || features.still {
        *candidates.iter().enumerate().max_by_key(|(i, c)| (c.equity(), -(*i as i64))).expect("a candidate").1
    } else {
        simulate(game, generator, leave, features, &candidates, rng, until)
    };
    Some(match best {
        Candidate::Play(p) => TileMove::play(rules, &p.placements()),
        Candidate::Exchange { out, .. } => TileMove::exchange(rules, &out),
    })
}

/// Whole rounds until `until` (at most [`MAX_ROUNDS`]), each dealing one ordering of the unseen
/// tiles shared by every candidate (the opponent's rack first, then the robot's draw); the best
/// total, or the first candidate when no round completes.
fn simulate(
    game: &Game,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    features: Features,
    candidates: &[Candidate],
    rng: &mut ChaCha8Rng,
    until: Instant,
) -> Candidate {
    let rules = game.rules();
    let rack = *game.rack(game.to_move());
    let unseen = RobotView::new(game).unseen();
    let played = game.no_repeat_words().then(|| game.played_words());
    let three = features.three_plies(game.bag().len());
    // The reply's damping: two plies only; with three, the robot's next play answers the reply.
    let damping = if features.quarter {
        4
    } else if features.damp {
        2
    } else {
        1
    };
    // The opponent's kept leaves consistent with its last play: dealt uniformly and judged for
    // a quarter of the time left, kept with their multiplicity (a sample of the posterior).
    let kept_pool = if features.peek_kept {
        really_kept(game).map(|kept| vec![kept])
    } else {
        features.infer.and_then(|by| Inference::of(game, by)).map(|mut inf| {
            let now = Instant::now();
            let stop = now + until.saturating_duration_since(now) / 4;
            let mut pool = Vec::new();
            for _ in 0..INFER_TRIES {
                if Instant::now() >= stop {
                    break;
                }
                let first = sample(&unseen, inf.kept, rng);
                if inf.consistent(generator, leave, &first) {
                    pool.push(Rack::from_tiles(first));
                }
            }
            pool
        })
    };
    let me = game.to_move().index();
    let lead = game.scores()[me] - game.scores()[1 - me];
    // The plies after the reply, at about four tiles a ply and a rack's worth to play out.
    let sigma = PLY_SIGMA * ((game.bag().len() + rules.rack_size) as f64 / 4.0 - 1.0).max(1.0).sqrt();
    let mut totals = vec![0i64; candidates.len()];
    let max_rounds = if features.deep || features.race { DEEP_ROUNDS } else { MAX_ROUNDS };
    // The candidates still simulated (all but under `race`).
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    let mut rounds = 0;
    'rounds: while rounds < max_rounds {
        if features.race && rounds >= RACE_FIRST && rounds.is_power_of_two() && alive.len() > 2 {
            alive.sort_by_key(|&i| (std::cmp::Reverse(totals[i]), i));
            alive.truncate(alive.len().div_ceil(2).max(2));
            alive.sort_unstable();
        }
        let (opponent, rest) = if features.peek {
            let bag: Vec<_> = game.bag().tiles().collect();
            (*game.rack(Seat(1 - game.to_move().0)), sample(&bag, if three { bag.len() } else { 0 }, rng))
        } else {
            let n = if three { unseen.len() } else { rules.rack_size };
            let order = match &kept_pool {
                Some(pool) if !pool.is_empty() => {
                    let kept = pool[(rng.next_u64() % pool.len() as u64) as usize];
                    let mut rest = unseen.clone();
                    for t in kept.tiles() {
                        let i = rest.iter().position(|&u| u == t).expect("a kept tile is unseen");
                        rest.swap_remove(i);
                    }
                    let mut order: Vec<_> = kept.tiles().collect();
                    order.extend(sample(&rest, n - order.len(), rng));
                    order
                }
                _ => sample(&unseen, n, rng),
            };
            let at = rules.rack_size.min(order.len());
            (Rack::from_tiles(order[..at].iter().copied()), order[at..].to_vec())
        };
        let mut round = vec![0i64; candidates.len()];
        for &i in &alive {
            let c = &candidates[i];
            if Instant::now() >= until {
                break 'rounds;
            }
            let mut board = c.board_after(game.board());
            let reply = if features.reply {
                best_plays_on(rules, &board, played, generator, &opponent, 1, Ranking::Equity(leave)).first().map(|r| (*r, r.equity))
            } else {
                generator.top(&board, &opponent, 1, Ranking::Score).first().map(|r| {
                    let kept = if features.rleave { leave.value(&r.leave(&opponent)) } else { 0 };
                    (*r, 1000 * r.score + kept)
                })
            };
            let reply_value = i64::from(reply.map_or(0, |r| r.1));
            round[i] = if three {
                let (mut mine, drawn) = c.kept(&rack);
                rest.iter().take(drawn).for_each(|&t| mine.add(t));
                if let Some((r, _)) = reply {
                    for p in r.placements() {
                        board.place(p);
                    }
                }
                let next = generator.top(&board, &mine, 1, Ranking::Equity(leave)).first().map_or(0, |p| p.equity);
                1000 * i64::from(c.score()) - reply_value + i64::from(next)
            } else {
                i64::from(c.equity()) - reply_value / damping
            };
            if features.win {
                round[i] = for_wins(round[i], lead, sigma);
            }
        }
        totals.iter_mut().zip(round).for_each(|(t, r)| *t += r);
        rounds += 1;
    }
    if rounds == 0 {
        return candidates[0];
    }
    let best = alive.iter().copied().max_by_key(|&i| (totals[i], -(i as i64))).unwrap_or(0);
    candidates[best]
}

/// The engine's pre-endgame simulation (1 to a rack of tiles in the bag, two seats: the real
/// unseen pool dealt into the opponent's rack and the bag; [`engine::lab::pre_endgame_value`]),
/// each round's value counted for wins ([`Features::win`]) with about one ply of spread still
/// to come. `None` without a choice to make.
fn pre_endgame(
    game: &Game,
    robot: &LevelRobot<'_>,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    rng: &mut ChaCha8Rng,
    until: Instant,
) -> Option<TileMove> {
    let rack = *game.rack(game.to_move());
    let candidates = best_plays(game, generator, &rack, CANDIDATES, Ranking::Equity(leave));
    if candidates.len() <= 1 {
        return None;
    }
    let unseen = RobotView::new(game).unseen();
    let bag_size = game.bag().len();
    let me = game.to_move().index();
    let lead = game.scores()[me] - game.scores()[1 - me];
    let mut totals = vec![0i64; candidates.len()];
    let mut rounds = 0;
    'rounds: while rounds < MAX_ROUNDS {
        let pool = sample(&unseen, unseen.len(), rng);
        let (bag, opponent) = pool.split_at(bag_size);
        let opponent = Rack::from_tiles(opponent.iter().copied());
        let mut round = vec![0i64; candidates.len()];
        for (i, c) in candidates.iter().enumerate() {
            if Instant::now() >= until {
                break 'rounds;
            }
            let board = Candidate::Play(*c).board_after(game.board());
            round[i] = for_wins(1000 * engine::lab::pre_endgame_value(robot, board, c, &rack, bag, &opponent), lead, PLY_SIGMA);
        }
        totals.iter_mut().zip(round).for_each(|(t, r)| *t += r);
        rounds += 1;
    }
    if rounds == 0 {
        return None;
    }
    let best = (0..candidates.len()).max_by_key(|&i| (totals[i], -(i as i64)))?;
    Some(TileMove::play(game.rules(), &candidates[best].placements()))
}

/// The tiles the opponent really kept from its last play, when the journal's last entry is
/// its play that kept some ([`Features::peek_kept`], an oracle): its rack before that play,
/// rebuilt from the journal, less the tiles it placed.
fn really_kept(game: &Game) -> Option<Rack> {
    let (last, squares) = opponents_last_play(game)?;
    let earlier = &game.journal()[..game.journal().len() - 1];
    let before = engine::replay(game.setup(), earlier).ok()?;
    let played = Rack::from_tiles(squares.iter().filter_map(|&sq| game.board().get(sq)).map(|t| t.rack_tile()));
    before.rack(last.seat).minus(&played).filter(|kept| !kept.is_empty())
}

/// The journal's last entry and the squares its tiles filled, when it is a play by a seat other
/// than the one to move (what [`really_kept`] and [`Inference`] read the opponent's leave from).
fn opponents_last_play(game: &Game) -> Option<(&engine::JournalEntry, Vec<engine::Square>)> {
    let last = game.journal().last()?;
    let engine::Action::Play { tiles, .. } = &last.action else { return None };
    (last.seat != game.to_move()).then(|| (last, tiles.iter().map(|t| t.square).collect()))
}

/// What the opponent's last play tells of the tiles it kept ([`Features::infer`]).
struct Inference {
    /// The board before that play.
    before: Board,
    /// The tiles it placed.
    played: Rack,
    /// Its score.
    score: i32,
    /// How many tiles it kept.
    kept: usize,
    by: InferBy,
    /// Kept leaves already judged.
    judged: std::collections::HashMap<Rack, bool>,
}

impl Inference {
    /// From the journal's last entry, when it is the opponent's play that kept tiles.
    fn of(game: &Game, by: InferBy) -> Option<Inference> {
        let (last, squares) = opponents_last_play(game)?;
        let kept = game.rules().rack_size.checked_sub(squares.len()).filter(|&k| k > 0)?;
        let mut before = Board::new();
        let mut played = Rack::new();
        for (sq, tile) in game.board().tiles() {
            if squares.contains(&sq) {
                played.add(tile.rack_tile());
            } else {
                before.place(engine::tile::Placement { square: sq, tile });
            }
        }
        Some(Inference { before, played, score: last.score, kept, by, judged: std::collections::HashMap::new() })
    }

    /// Whether the first tiles of `order`, kept beside the tiles played, make that play a
    /// choice the opponent would have made.
    fn consistent(&mut self, generator: &MoveGenerator<'_>, leave: &LeaveTable, order: &[engine::tile::RackTile]) -> bool {
        let Some(first) = order.get(..self.kept) else { return true };
        let kept = Rack::from_tiles(first.iter().copied());
        if let Some(&ok) = self.judged.get(&kept) {
            return ok;
        }
        let mut rack = kept;
        self.played.tiles().for_each(|t| rack.add(t));
        let best = generator.top(&self.before, &rack, 1, Ranking::Score).first().map_or(0, |p| p.score);
        let ok = match self.by {
            InferBy::Score => best <= self.score,
            InferBy::Either => {
                best <= self.score + INFER_SCORE || {
                    let top = generator.top(&self.before, &rack, 1, Ranking::Equity(leave)).first().map_or(0, |p| p.equity);
                    top <= 1000 * self.score + leave.value(&kept) + INFER_EQUITY
                }
            }
        };
        self.judged.insert(kept, ok);
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::TileVariant;
    use engine::lexicon::builtin_graph;
    use engine::robot::seeded;
    use std::time::Duration;

    #[test]
    fn features_parse_by_name_and_reject_unknown_ones() {
        assert_eq!(Features::parse("hard"), Ok(Features::default()));
        let f = Features::parse("exchange+ply3").unwrap();
        assert!(f.exchange && f.ply3 && !f.wide && !f.reply && f.late.is_none());
        assert!(Features::parse("late").unwrap().three_plies(LATE));
        assert!(!Features::parse("late").unwrap().three_plies(LATE + 1));
        assert_eq!(f.to_string(), "exchange+ply3");
        let f = Features::parse("exchange+late30").unwrap();
        assert!(f.three_plies(30) && !f.three_plies(31));
        assert_eq!(f.to_string(), "exchange+late30");
        assert_eq!(Features::parse("late20").unwrap().to_string(), "late");
        assert!(Features::parse("latex").is_err());
        let f = Features::parse("exchange+damp+rleave").unwrap();
        assert!(f.rleave && f.damp && !f.reply);
        assert_eq!(f.to_string(), "rleave+exchange+damp");
        assert_eq!(Features::default().to_string(), "hard");
        let f = Features::parse("damp+quarter+still").unwrap();
        assert!(f.damp && f.quarter && f.still && !f.exchange);
        assert_eq!(f.to_string(), "damp+quarter+still");
        let f = Features::parse("exchange+late+race").unwrap();
        assert!(f.race && f.exchange && !f.deep);
        assert_eq!(f.to_string(), "exchange+late+race");
        assert!(Features::parse("exchange+bogus").unwrap_err().contains("bogus"));
        let f = Features::parse("exchange+damp+peek+infer+win").unwrap();
        assert!(f.peek && f.win && f.infer == Some(InferBy::Score));
        assert_eq!(f.to_string(), "exchange+damp+peek+infer+win");
        assert_eq!(Features::parse("inferu").unwrap().infer, Some(InferBy::Either));
        assert_eq!(Features::parse("inferu").unwrap().to_string(), "inferu");
        let f = Features::parse("exchange+damp+peekkept").unwrap();
        assert!(f.peek_kept && !f.peek && f.infer.is_none());
        assert_eq!(f.to_string(), "exchange+damp+peekkept");
    }

    #[test]
    fn the_kept_oracle_rebuilds_the_rack_the_opponent_played_from() {
        let variant = TileVariant::ScrabbleEn;
        let generator = MoveGenerator::new(variant.rules(), builtin_graph(variant));
        let mut checked = 0;
        for seed in 1..20 {
            let mut game = Game::new(variant, 2, seed).unwrap();
            assert_eq!(really_kept(&game), None, "no move yet");
            let rack = *game.rack(game.to_move());
            let Some(best) = play_best_by_score(&mut game, &generator) else { continue };
            let kept = best.leave(&rack);
            assert_eq!(really_kept(&game), (!kept.is_empty()).then_some(kept), "seed {seed}");
            if let Some(k) = really_kept(&game) {
                assert!(game.rack(Seat(1 - game.to_move().0)).contains_all(&k), "kept tiles are still on its rack");
                checked += 1;
            }
        }
        assert!(checked > 10, "{checked} first plays checked");
    }

    /// Plays the seat to move's best play by score, as the pure-score player does, and returns it.
    fn play_best_by_score(game: &mut Game, generator: &MoveGenerator<'_>) -> Option<GeneratedPlay> {
        let seat = game.to_move();
        let best = generator.top(game.board(), game.rack(seat), 1, Ranking::Score).first().copied()?;
        game.play(builtin_graph(TileVariant::ScrabbleEn), seat, &TileMove::play(game.rules(), &best.placements()), engine::Timestamp(0))
            .unwrap();
        Some(best)
    }

    #[test]
    fn win_values_the_pre_endgame_and_only_win_does() {
        let variant = TileVariant::ScrabbleEn;
        let graph = builtin_graph(variant);
        let generator = MoveGenerator::new(variant.rules(), graph);
        let leave = LeaveTable::standard(variant.rules());
        let mut game = Game::new(variant, 2, 11).unwrap();
        while game.bag().len() > 7 {
            play_best_by_score(&mut game, &generator).expect("a play");
        }
        assert!(!game.bag().is_empty(), "seed 11 reaches a pre-endgame");
        let robot = LevelRobot::new(engine::robot::Level::Hard, &game, graph);
        let mut rng = seeded(11);
        let until = Instant::now() + Duration::from_millis(200);
        assert_eq!(decide(&game, &robot, &generator, &leave, Features::parse("exchange+damp").unwrap(), &mut rng, until), None);
        let win = Features::parse("exchange+damp+win").unwrap();
        let mv = decide(&game, &robot, &generator, &leave, win, &mut rng, until).expect("win decides the pre-endgame");
        let seat = game.to_move();
        game.play(graph, seat, &mv, engine::Timestamp(0)).expect("its move is legal");
    }

    #[test]
    fn the_win_utility_follows_points_at_an_even_lead_and_flattens_far_from_it() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
        assert!((normal_cdf(-1.0) + normal_cdf(1.0) - 1.0).abs() < 1e-7);
        let slope = |lead: f64| win_utility(lead + 0.5, 30.0) - win_utility(lead - 0.5, 30.0);
        assert!((slope(0.0) - 1.0).abs() < 1e-3, "one for one at an even lead: {}", slope(0.0));
        assert!(slope(90.0) < 0.02 && slope(-90.0) < 0.02, "flat three deviations away");
        assert!(for_wins(5_000, 0, 30.0) > for_wins(0, 0, 30.0));
        assert!(for_wins(5_000, 200, 30.0) > for_wins(0, 200, 30.0), "the points still rank a won position");
    }

    #[test]
    fn inference_takes_back_the_last_play_and_accepts_the_leave_a_pure_score_player_kept() {
        let variant = TileVariant::ScrabbleEn;
        let generator = MoveGenerator::new(variant.rules(), builtin_graph(variant));
        let leave = LeaveTable::standard(variant.rules());
        let mut checked = 0;
        for seed in 1..40 {
            let mut game = Game::new(variant, 2, seed).unwrap();
            for _ in 0..2 {
                let rack = *game.rack(game.to_move());
                let board = game.board().clone();
                let Some(best) = play_best_by_score(&mut game, &generator) else { break };
                let Some(mut inf) = Inference::of(&game, InferBy::Score) else {
                    assert_eq!(best.tiles_placed(), 7, "only a play of the whole rack keeps nothing");
                    continue;
                };
                assert_eq!(inf.before, board, "the board before the play");
                assert_eq!(inf.played.len(), best.tiles_placed());
                assert_eq!(inf.kept, 7 - best.tiles_placed());
                let kept: Vec<_> = best.leave(&rack).tiles().collect();
                assert!(inf.consistent(&generator, &leave, &kept), "seed {seed}: the kept leave is consistent");
                // A blank kept beside the tiles played scores more (any play can take it on).
                let mut with_blank: Vec<_> = kept.clone();
                with_blank[0] = engine::tile::RackTile::Blank;
                let mut wider = inf.played;
                with_blank.iter().for_each(|&t| wider.add(t));
                let top = generator.top(&board, &wider, 1, Ranking::Score)[0].score;
                assert_eq!(inf.consistent(&generator, &leave, &with_blank), top <= best.score, "seed {seed}");
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked} plays checked");
    }

    #[test]
    fn exchanges_rank_by_kept_leave_and_every_prototype_move_is_legal() {
        let variant = TileVariant::Erudit;
        let graph = builtin_graph(variant);
        let mut game = Game::new(variant, 2, 7).unwrap();
        let leave = LeaveTable::standard(game.rules());
        let ex = best_exchanges(&game, &leave, EXCHANGES);
        assert_eq!(ex.len(), EXCHANGES);
        assert!(ex.windows(2).all(|w| w[0].equity() >= w[1].equity()));
        let generator = MoveGenerator::new(game.rules(), graph);
        let mut rng = seeded(7);
        for spec in [
            "exchange+ply3+reply",
            "exchange+damp",
            "exchange+quarter",
            "exchange+still",
            "exchange+damp+window",
            "wide",
            "late",
            "exchange+rleave+late",
            "exchange+late+race",
            "exchange+damp+peek",
            "exchange+damp+peekkept",
            "exchange+damp+infer",
            "exchange+damp+inferu",
            "exchange+damp+win",
        ] {
            let features = Features::parse(spec).unwrap();
            let until = Instant::now() + Duration::from_millis(200);
            let robot = LevelRobot::new(engine::robot::Level::Hard, &game, graph);
            let mv = decide(&game, &robot, &generator, &leave, features, &mut rng, until).expect("a full bag and a play");
            let seat = game.to_move();
            game.play(graph, seat, &mv, engine::Timestamp(0)).expect("the prototype's move is legal");
        }
    }
}
