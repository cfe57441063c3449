//! Prototypes of the hard level's mid-game simulation, for `ladder --versus`: `hard` alone is
//! the hard level as it was before exchanges joined its candidates (8 static-equity plays, the
//! opponent's best reply on a rack dealt from the unseen tiles, whole rounds, at most 64);
//! `exchange` adds the exchanges, and `exchange+damp` (the reply counted half) is what
//! `engine::robot`'s hard level does now; the other features are switched on over these, to
//! measure against medium (or, with `static:`, the static players) before `engine::robot`
//! changes. With a rack or fewer in the bag, or no play, the engine's hard level decides (the
//! caller's fallback).

use std::time::Instant;

use engine::best_plays::{best_plays, best_plays_on};
use engine::robot::{RobotView, sample};
use engine::{Board, Game, GeneratedPlay, LeaveTable, Move, MoveGenerator, Rack, Ranking};
use rand_chacha::ChaCha8Rng;

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
}

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
                other if let Some(n) = other.strip_prefix("late").and_then(|n| n.parse().ok()) => f.late = Some(n),
                other => {
                    return Err(format!(
                        "unknown prototype feature {other:?} (expected hard, wide, reply, rleave, exchange, ply3, late, lateN, deep, damp, quarter, still, window, race)"
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
    engine::robot::best_exchanges(game.rules(), leave, rack, game.bag().len(), n)
        .into_iter()
        .filter_map(|(out, equity)| Some(Candidate::Exchange { out, kept: rack.minus(&out)?, equity }))
        .collect()
}

/// The prototype's move for the seat to move, or `None` when the engine's hard level decides:
/// a rack or fewer in the bag, or no play.
pub fn decide(
    game: &Game,
    generator: &MoveGenerator<'_>,
    leave: &LeaveTable,
    features: Features,
    rng: &mut ChaCha8Rng,
    until: Instant,
) -> Option<Move> {
    let rules = game.rules();
    if game.bag().len() <= rules.rack_size {
        return None;
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
        Candidate::Play(p) => Move::play(rules, &p.placements()),
        Candidate::Exchange { out, .. } => Move::exchange(rules, &out),
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
        let order = sample(&unseen, if three { unseen.len() } else { rules.rack_size }, rng);
        let (opponent, rest) = order.split_at(rules.rack_size.min(order.len()));
        let opponent = Rack::from_tiles(opponent.iter().copied());
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Variant;
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
    }

    #[test]
    fn exchanges_rank_by_kept_leave_and_every_prototype_move_is_legal() {
        let variant = Variant::Erudit;
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
        ] {
            let features = Features::parse(spec).unwrap();
            let until = Instant::now() + Duration::from_millis(200);
            let mv = decide(&game, &generator, &leave, features, &mut rng, until).expect("a full bag and a play");
            let seat = game.to_move();
            game.play(graph, seat, &mv, engine::Timestamp(0)).expect("the prototype's move is legal");
        }
    }
}
