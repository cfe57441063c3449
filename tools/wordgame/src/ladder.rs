//! `wordgame ladder`: seeded robot-vs-robot games between the three levels, first seats
//! alternating (each seed is played both ways), with win rates and their 95% intervals, mean
//! scores, game lengths and decision latency percentiles. Release build recommended.
//! `--variant noi-tu` plays Nối từ instead (the `noitu` engine), the same way. Any other player
//! (the lab's prototypes) plays through [`Contestant`] and [`run_pairings`].

use std::io::Write;
use std::time::{Duration, Instant};

use engine::leave::SuperLeaves;
use engine::lexicon::builtin_graph;
use engine::robot::{Level, LevelRobot, Robot, RobotView, seeded};
use engine::{Game, LeaveTable, MoveGenerator, TileEndReason, TileMove, TileVariant, Timestamp};
use rand_chacha::ChaCha8Rng;
use service::robot::Budget;

use crate::CliError;
use crate::selfplay::{StaticStrategy, best_play, to_move};

/// What every ladder takes: this tool's and the lab's.
#[derive(clap::Args)]
pub struct LadderOptions {
    /// The variant.
    #[arg(long, default_value = "scrabble-en")]
    pub variant: String,
    /// Games per pairing (even: each seed is played with both first seats).
    #[arg(long, default_value_t = 400)]
    pub games: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The hard level's time budget per decision, in milliseconds.
    #[arg(long, default_value_t = 40)]
    pub budget_ms: u64,
    /// The static-equity player's whole-leave table, from this file (as `wordgame data leaves`
    /// or the lab's `leaves --superleaves` writes it) over the heuristic, instead of the variant's
    /// compiled one: for instance a table fitted on other parameters.
    #[arg(long)]
    pub static_leaves: Option<String>,
}

impl LadderOptions {
    /// The tile variant named by `--variant`.
    ///
    /// # Errors
    /// [`CliError::Input`] for an unknown variant.
    pub fn tile_variant(&self) -> Result<TileVariant, CliError> {
        Ok(self.variant.parse()?)
    }
}

/// Arguments of `wordgame ladder`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: LadderOptions,
    /// `static`: instead of the three levels' pairings, hard against a pure-score player and
    /// against a static-equity player (best score + leave value, every play, the whole game,
    /// with the variant's standard leave table: the heuristic and the fitted whole leaves). The
    /// prototypes of hard are the lab's (`cargo run -p lab -- ladder --help`).
    #[arg(long)]
    versus: Option<String>,
}

/// A seat's player: a robot level, one of the static players, or any other [`Contestant`].
#[derive(Clone, Copy)]
pub enum LadderPlayer<'a> {
    /// A robot level.
    Robot(Level),
    /// The pure-score player.
    Score,
    /// The static-equity player (score + leave value).
    Equity,
    /// Any other player, such as the lab's prototypes of hard.
    Other(&'a dyn Contestant),
}

/// A player the ladder knows only by what it decides: the lab's prototypes and parts of hard.
pub trait Contestant {
    /// Its name in the tables.
    fn id(&self) -> String;
    /// The robot level its decisions count under (latency, mean score), if any.
    fn level(&self) -> Option<Level>;
    /// Its move in `turn.game`, within `budget`.
    fn decide(&self, turn: &Turn<'_>, rng: &mut ChaCha8Rng, budget: Duration) -> TileMove;
}

/// What a [`Contestant`] decides with.
pub struct Turn<'a> {
    /// The game, its seat to move deciding.
    pub game: &'a Game,
    /// The hard level for this game.
    pub hard: &'a LevelRobot<'a>,
    /// The variant's move generator.
    pub generator: &'a MoveGenerator<'a>,
    /// The robots' own leaves: the heuristic with the compiled whole leaves.
    pub leave: &'a LeaveTable,
}

impl LadderPlayer<'_> {
    /// The robot level whose latency and mean score the player counts under.
    fn level(self) -> Option<Level> {
        match self {
            LadderPlayer::Robot(l) => Some(l),
            LadderPlayer::Other(c) => c.level(),
            LadderPlayer::Score | LadderPlayer::Equity => None,
        }
    }

    /// Its name in the tables.
    pub fn id(self) -> String {
        match self {
            LadderPlayer::Robot(l) => l.id().to_string(),
            LadderPlayer::Score => "score".to_string(),
            LadderPlayer::Equity => "static equity".to_string(),
            LadderPlayer::Other(c) => c.id(),
        }
    }
}

/// The phases of a game by the tiles in the bag before a move, for where points are won or lost;
/// the last is the rack settlement at the end.
pub const PHASES: [&str; 6] = ["bag ≥ 60", "bag 21–59", "bag 8–20", "bag 1–7", "bag empty", "settlement"];

/// The phase of a move made with `bag` tiles in the bag.
fn phase(bag: usize) -> usize {
    match bag {
        60.. => 0,
        21..=59 => 1,
        8..=20 => 2,
        1..=7 => 3,
        0 => 4,
    }
}

/// Points each seat scored in each of the [`PHASES`].
pub type PhasePoints = [[i64; PHASES.len()]; 2];

/// One pairing's tally.
pub struct LadderPairing<'a> {
    /// The first player of the pairing.
    pub a: LadderPlayer<'a>,
    /// The second.
    pub b: LadderPlayer<'a>,
    /// Games where `a`, or `b`, went out.
    out: [u64; 2],
    wins: u64,
    draws: u64,
    /// Games played.
    pub games: u64,
    score: [i64; 2],
    moves: u64,
    /// Points `a` made less points `b` made, per phase: in all games, and in the games `a` lost.
    phase_diff: [i64; PHASES.len()],
    lost_diff: [i64; PHASES.len()],
    losses: u64,
    /// Each game's result for `a`, in half points (2 a win, 1 a draw), in seed order.
    pub results: Vec<u8>,
}

/// Runs the ladder and prints its tables (Markdown).
///
/// # Errors
/// [`CliError::Input`] for an unknown variant, an unreadable `--static-leaves` table or a
/// `--versus` other than `static`.
pub fn run(args: &Args) -> Result<(), CliError> {
    let options = &args.options;
    if options.variant == noitu::VARIANT {
        noi_tu(options);
        return Ok(());
    }
    let pairings: Vec<(LadderPlayer, LadderPlayer)> = match args.versus.as_deref() {
        None => vec![(Level::Hard, Level::Medium), (Level::Medium, Level::Easy), (Level::Hard, Level::Easy)]
            .into_iter()
            .map(|(a, b)| (LadderPlayer::Robot(a), LadderPlayer::Robot(b)))
            .collect(),
        Some("static") => STATIC_PAIRINGS.to_vec(),
        Some(other) => {
            return Err(CliError::Input(format!(
                "--versus {other}: this ladder knows only `static`; the prototypes of hard are the lab's (cargo run -p lab -- ladder)"
            )));
        }
    };
    run_pairings(options, &pairings)?;
    Ok(())
}

/// `--versus static`: hard against the pure-score player, then against the static-equity player.
pub const STATIC_PAIRINGS: [(LadderPlayer<'static>, LadderPlayer<'static>); 2] =
    [(LadderPlayer::Robot(Level::Hard), LadderPlayer::Score), (LadderPlayer::Robot(Level::Hard), LadderPlayer::Equity)];

/// Plays `options.games` games of each pairing in a tile variant, prints the ladder's tables and
/// returns each pairing's tally.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant or an unreadable `--static-leaves` table.
pub fn run_pairings<'a>(
    options: &LadderOptions,
    pairings: &[(LadderPlayer<'a>, LadderPlayer<'a>)],
) -> Result<Vec<LadderPairing<'a>>, CliError> {
    let variant = options.tile_variant()?;
    let budget = Duration::from_millis(options.budget_ms);
    let static_leave = match &options.static_leaves {
        None => LeaveTable::standard(variant.rules()),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| CliError::Input(format!("{path}: {e}")))?;
            let table = SuperLeaves::read(bytes)
                .ok_or_else(|| CliError::Input(format!("{path}: not a whole-leave table (12-byte entries in key order, or packed)")))?;
            LeaveTable::heuristic(variant.rules()).with_superleaves(Some(table))
        }
    };
    let mut latencies: [Vec<Duration>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    // Decisions with the bag empty, per level: the endgame's share.
    let mut endgame: [Vec<Duration>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut results = Vec::new();
    for &(a, b) in pairings {
        let mut p = LadderPairing {
            a,
            b,
            out: [0, 0],
            wins: 0,
            draws: 0,
            games: 0,
            score: [0, 0],
            moves: 0,
            phase_diff: [0; PHASES.len()],
            lost_diff: [0; PHASES.len()],
            losses: 0,
            results: Vec::new(),
        };
        for g in 0..options.games {
            let a_first = g % 2 == 0;
            let seats = if a_first { [a, b] } else { [b, a] };
            let (game, lat, points) = play(variant, options.seed + g / 2, seats, g, budget, &static_leave);
            for (level, d, bag_empty) in lat {
                latencies[level as usize].push(d);
                if bag_empty {
                    endgame[level as usize].push(d);
                }
            }
            let (sa, sb) = if a_first { (game.scores()[0], game.scores()[1]) } else { (game.scores()[1], game.scores()[0]) };
            if let Some(TileEndReason::WentOut { seat }) = game.end().map(|e| e.reason) {
                p.out[usize::from((seat.index() == 0) != a_first)] += 1;
            }
            p.games += 1;
            p.moves += u64::from(game.move_count());
            p.score[0] += i64::from(sa);
            p.score[1] += i64::from(sb);
            let (ia, ib) = if a_first { (0, 1) } else { (1, 0) };
            let diff: Vec<i64> = (0..PHASES.len()).map(|k| points[ia][k] - points[ib][k]).collect();
            p.phase_diff.iter_mut().zip(&diff).for_each(|(t, d)| *t += d);
            let half_points = match sa.cmp(&sb) {
                std::cmp::Ordering::Greater => {
                    p.wins += 1;
                    2
                }
                std::cmp::Ordering::Equal => {
                    p.draws += 1;
                    1
                }
                std::cmp::Ordering::Less => {
                    p.losses += 1;
                    p.lost_diff.iter_mut().zip(&diff).for_each(|(t, d)| *t += d);
                    0
                }
            };
            p.results.push(half_points);
            progress(&format!("{} vs {}", a.id(), b.id()), g + 1, options.games);
        }
        eprintln!();
        results.push(p);
    }
    println!(
        "Ladder: {variant}, {} games per pairing (first seats alternating), seeds from {}, hard budget {} ms\n",
        options.games, options.seed, options.budget_ms
    );
    println!("| pairing | first wins (95% interval) | mean score | mean game length (moves) | went out first (first / second) |");
    println!("|---|---|---|---|---|");
    for p in &results {
        let n = p.games as f64;
        let (rate, half) = win_rate(p.wins as f64 + 0.5 * p.draws as f64, p.games);
        println!(
            "| {} vs {} | {:.1}% ± {:.1}% | {:.0} vs {:.0} | {:.1} | {:.0}% / {:.0}% |",
            p.a.id(),
            p.b.id(),
            100.0 * rate,
            100.0 * half,
            p.score[0] as f64 / n,
            p.score[1] as f64 / n,
            p.moves as f64 / n,
            100.0 * p.out[0] as f64 / n,
            100.0 * p.out[1] as f64 / n
        );
    }
    println!(
        "\nWhere the points go: the first of the pairing's points less the second's, per game, by the tiles in the bag before the move (all games; the first's losses)\n"
    );
    println!("| pairing | games | {} |", PHASES.join(" | "));
    println!("|---|---|{}", "---|".repeat(PHASES.len()));
    for p in &results {
        for (label, n, diff) in [("all", p.games, &p.phase_diff), ("losses", p.losses, &p.lost_diff)] {
            let cells: Vec<String> = diff.iter().map(|d| format!("{:+.1}", *d as f64 / n.max(1) as f64)).collect();
            println!("| {} vs {} ({label}) | {n} | {} |", p.a.id(), p.b.id(), cells.join(" | "));
        }
    }
    println!("\n| level | mean score (all games) | decisions | latency p50 | p90 | p99 | max | endgame share | endgame p50 | p99 | max |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for level in Level::ALL {
        let (mut sum, mut n) = (0i64, 0i64);
        for p in &results {
            if p.a.level() == Some(level) {
                sum += p.score[0];
                n += p.games as i64;
            }
            if p.b.level() == Some(level) {
                sum += p.score[1];
                n += p.games as i64;
            }
        }
        let all = percentiles(&mut latencies[level as usize]);
        let end = percentiles(&mut endgame[level as usize]);
        println!(
            "| {} | {:.0} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1}% | {:.1} ms | {:.1} ms | {:.1} ms |",
            level.id(),
            sum as f64 / n.max(1) as f64,
            latencies[level as usize].len(),
            all[0],
            all[1],
            all[2],
            all[3],
            100.0 * endgame[level as usize].len() as f64 / latencies[level as usize].len().max(1) as f64,
            end[0],
            end[2],
            end[3]
        );
    }
    Ok(results)
}

/// The win rate of `wins` (draws counted half) in `games` and its 95% interval's half width.
fn win_rate(wins: f64, games: u64) -> (f64, f64) {
    let n = games.max(1) as f64;
    let rate = wins / n;
    (rate, 1.96 * (rate * (1.0 - rate) / n).sqrt())
}

/// The `quantiles` of `lat` in milliseconds (sorting it; 0 for none).
fn quantiles<const N: usize>(lat: &mut [Duration], quantiles: [f64; N]) -> [f64; N] {
    lat.sort();
    quantiles.map(|q| lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1))).map_or(0.0, |d| d.as_secs_f64() * 1000.0))
}

/// p50, p90, p99 and max of `lat` in milliseconds (sorting it).
fn percentiles(lat: &mut [Duration]) -> [f64; 4] {
    quantiles(lat, [0.5, 0.9, 0.99, 1.0])
}

/// One game between `seats`; the finished game, each robot decision's level, latency and whether
/// the bag was empty, and the points each seat made in each phase.
pub fn play(
    variant: TileVariant,
    seed: u64,
    seats: [LadderPlayer<'_>; 2],
    game_no: u64,
    budget: Duration,
    static_leave: &LeaveTable,
) -> (Game, Vec<(Level, Duration, bool)>, PhasePoints) {
    let graph = builtin_graph(variant);
    let mut game = Game::new(variant, 2, seed).expect("two seats");
    // A contestant's leaves are the robots' own: the heuristic with the compiled fitted table.
    let leave = LeaveTable::standard(game.rules());
    let generator = MoveGenerator::new(game.rules(), graph);
    let robot = |p: LadderPlayer| match p {
        LadderPlayer::Robot(level) => Some(LevelRobot::new(level, &game, graph)),
        LadderPlayer::Other(_) => Some(LevelRobot::new(Level::Hard, &game, graph)),
        LadderPlayer::Score | LadderPlayer::Equity => None,
    };
    let robots = [robot(seats[0]), robot(seats[1])];
    let mut rng = seeded(seed ^ (game_no << 32));
    let mut latencies = Vec::new();
    let mut points: PhasePoints = [[0; PHASES.len()]; 2];
    while !game.is_over() {
        let seat = game.to_move();
        let before = game.scores()[seat.index()];
        let when = phase(game.bag().len());
        let bag_empty = game.bag().is_empty();
        let started = Instant::now();
        let mv = match (seats[seat.index()], &robots[seat.index()]) {
            (LadderPlayer::Robot(_), Some(robot)) => {
                robot.decide(&RobotView::new(&game), &mut rng, &mut Budget::Until(started + budget)).mv
            }
            (LadderPlayer::Other(contestant), Some(hard)) => {
                contestant.decide(&Turn { game: &game, hard, generator: &generator, leave: &leave }, &mut rng, budget)
            }
            (player, _) => {
                let strategy =
                    if matches!(player, LadderPlayer::Score) { StaticStrategy::Score } else { StaticStrategy::Equity(static_leave) };
                to_move(&game, best_play(&generator, &game, strategy).as_ref())
            }
        };
        if let Some(level) = seats[seat.index()].level() {
            latencies.push((level, started.elapsed(), bag_empty));
        }
        game.play(graph, seat, &mv, Timestamp(0)).expect("a robot's move is legal");
        let settled = game.end().map_or(0, |e| e.adjustments[seat.index()]);
        points[seat.index()][when] += i64::from(game.scores()[seat.index()] - before - settled);
    }
    for (s, seat_points) in points.iter_mut().enumerate() {
        seat_points[PHASES.len() - 1] += i64::from(game.end().map_or(0, |e| e.adjustments[s]));
    }
    (game, latencies, points)
}

/// One pairing's tally in Nối từ.
struct NoiTuPairing {
    a: Level,
    b: Level,
    wins: u64,
    games: u64,
    words: u64,
    score: [u64; 2],
}

/// The Nối từ ladder: hard vs easy, medium vs easy, hard vs medium (and easy vs easy for the
/// game length of two random players), then each level's decision latency and how the hard
/// level chose.
fn noi_tu(args: &LadderOptions) {
    use noitu::robot::{Basis, Level};

    let dict = noitu::Dictionary::builtin();
    let budget = Duration::from_millis(args.budget_ms);
    let mut latencies: [Vec<Duration>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    // Per level: words played, and of them familiar ones (the most familiar 45% of the list).
    let mut familiar = [(0u64, 0u64); 3];
    let mut lengths: Vec<Vec<u32>> = Vec::new();
    let (mut kills, mut searches, mut deepest, mut fallbacks) = (0u64, 0u64, 0u64, 0u64);
    let mut results = Vec::new();
    for (a, b) in [(Level::Hard, Level::Easy), (Level::Medium, Level::Easy), (Level::Hard, Level::Medium), (Level::Easy, Level::Easy)] {
        let mut p = NoiTuPairing { a, b, wins: 0, games: 0, words: 0, score: [0, 0] };
        lengths.push(Vec::new());
        for g in 0..args.games {
            let a_first = g % 2 == 0;
            let seats = if a_first { [a, b] } else { [b, a] };
            let seed = args.seed + g / 2;
            let mut game = noitu::WordChain::new(&noitu::ChainSetup::new(seed), dict).expect("the built-in dictionary has openings");
            let robots = [noitu::robot::strategy(seats[0]), noitu::robot::strategy(seats[1])];
            let mut rng = noitu::robot::seeded(seed ^ (g << 32));
            while !game.is_over() {
                let seat = game.to_move();
                let started = Instant::now();
                let decision = robots[seat.index()]
                    .decide(
                        &noitu::ChainRobotView::against(&game, noitu::robot::Opponent::Robot),
                        &mut rng,
                        &mut Budget::Until(started + budget),
                    )
                    .expect("a game in progress has a word to play");
                latencies[seats[seat.index()] as usize].push(started.elapsed());
                let f = &mut familiar[seats[seat.index()] as usize];
                *f = (f.0 + 1, f.1 + u64::from(dict.is_familiar(decision.word)));
                if seats[seat.index()] == Level::Hard {
                    match decision.basis {
                        Basis::Kill => kills += 1,
                        Basis::Search { depth } => {
                            searches += 1;
                            deepest += u64::from(depth == noitu::robot::DEFAULT_DEPTH);
                        }
                        _ => fallbacks += 1,
                    }
                }
                game.submit(seat, dict.display(decision.word), Timestamp(0)).expect("a robot's word is legal");
            }
            let a_seat = if a_first { noitu::Seat(0) } else { noitu::Seat(1) };
            let scores = game.scores();
            p.games += 1;
            p.wins += u64::from(game.winner() == Some(a_seat));
            p.words += u64::from(game.chain());
            if let Some(l) = lengths.last_mut() {
                l.push(game.chain());
            }
            p.score[0] += u64::from(scores[a_seat.index()]);
            p.score[1] += u64::from(scores[a_seat.other().index()]);
            progress(&format!("{} vs {}", a.id(), b.id()), g + 1, args.games);
        }
        eprintln!();
        results.push(p);
    }
    let stats = dict.stats();
    println!(
        "Ladder: {}, {} games per pairing (first seats alternating), seeds from {}, hard budget {} ms; dictionary {} words, {} syllables, {} dead ends\n",
        noitu::VARIANT,
        args.games,
        args.seed,
        args.budget_ms,
        stats.words,
        stats.syllables,
        stats.dead_ends
    );
    println!("| pairing | first wins (95% interval) | mean game length (words) | median | mean score |");
    println!("|---|---|---|---|---|");
    for (p, lengths) in results.iter().zip(&mut lengths) {
        let n = p.games as f64;
        let (rate, half) = win_rate(p.wins as f64, p.games);
        lengths.sort_unstable();
        println!(
            "| {} vs {} | {:.1}% ± {:.1}% | {:.1} | {} | {:.0} vs {:.0} |",
            p.a.id(),
            p.b.id(),
            100.0 * rate,
            100.0 * half,
            p.words as f64 / n,
            lengths.get(lengths.len() / 2).copied().unwrap_or(0),
            p.score[0] as f64 / n,
            p.score[1] as f64 / n
        );
    }
    println!("\n| level | decisions | latency p50 | p95 | p99 | max | familiar words |");
    println!("|---|---|---|---|---|---|---|");
    for level in Level::ALL {
        let lat = &mut latencies[level as usize];
        let [p50, p95, p99, max] = quantiles(lat, [0.5, 0.95, 0.99, 1.0]);
        let (played, known) = familiar[level as usize];
        let share = 100.0 * known as f64 / played.max(1) as f64;
        println!("| {} | {} | {p50:.3} ms | {p95:.3} ms | {p99:.3} ms | {max:.3} ms | {share:.1}% |", level.id(), lat.len());
    }
    let hard = (kills + searches + fallbacks).max(1) as f64;
    println!(
        "\nHard decisions: {:.0}% instant wins, {:.0}% searched ({:.0}% of them to depth {}), {:.1}% budget fallbacks",
        100.0 * kills as f64 / hard,
        100.0 * searches as f64 / hard,
        100.0 * deepest as f64 / searches.max(1) as f64,
        noitu::robot::DEFAULT_DEPTH,
        100.0 * fallbacks as f64 / hard
    );
    noi_tu_casual(args, dict);
}

/// The casual player of the Nối từ ladder: a person who knows the common words and not every
/// word of the dictionary, and plays without lookahead. Its vocabulary is drawn once per game
/// from its seed: a word of familiarity f is known with probability [`CASUAL_KNOWS`]`[f]`. On
/// its turn it plays a uniformly random legal word it knows, with no preference for a word that
/// wins at once. With no word it knows, it resigns.
struct Casual<'d> {
    dict: &'d noitu::Dictionary,
    seed: u64,
}

/// The chance a casual player knows a word, by familiarity 0 to 9 (the most familiar words all,
/// the rarest hardly any).
const CASUAL_KNOWS: [f64; 10] = [0.02, 0.1, 0.4, 0.6, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0];

impl Casual<'_> {
    /// Whether this player knows `word`: a hash of the seed and the word against its chance.
    fn knows(&self, word: noitu::WordId) -> bool {
        let mut x = self.seed ^ (word.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        let chance = CASUAL_KNOWS[usize::from(self.dict.familiarity(word).unwrap_or(9))];
        ((x >> 11) as f64 / (1u64 << 53) as f64) < chance
    }

    /// Its word for the seat to move, or `None`: it knows none.
    fn decide(&self, view: &noitu::ChainRobotView<'_, '_>, rng: &mut ChaCha8Rng) -> Option<noitu::WordId> {
        use rand_chacha::rand_core::Rng;
        let known: Vec<noitu::WordId> = view.legal_moves().filter(|&w| self.knows(w)).collect();
        (!known.is_empty()).then(|| known[(rng.next_u64() % known.len() as u64) as usize])
    }
}

/// The casual player against each level (the robots playing against a person): its wins, the
/// game lengths and the share of each robot's words that are familiar, first seats alternating,
/// each seed both ways.
fn noi_tu_casual(args: &LadderOptions, dict: &'static noitu::Dictionary) {
    use noitu::robot::Level;
    println!(
        "\nA casual player (knows the common words, a uniform random word it knows, no lookahead; `Casual` in tools/wordgame/src/ladder.rs) against each level:\n"
    );
    println!(
        "| pairing | casual wins (95% interval) | mean game length (words) | median | casual out of words | robot conceded | robot's familiar words | robot's latency p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let budget = Duration::from_millis(args.budget_ms);
    for level in Level::ALL {
        let (mut wins, mut stuck, mut conceded, mut played, mut familiar) = (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut lengths = Vec::new();
        let mut latencies = Vec::new();
        for g in 0..args.games {
            let casual_first = g % 2 == 0;
            let seed = args.seed + g / 2;
            let casual_seat = if casual_first { noitu::Seat(0) } else { noitu::Seat(1) };
            let mut game = noitu::WordChain::new(&noitu::ChainSetup::new(seed), dict).expect("the built-in dictionary has openings");
            let casual = Casual { dict, seed: seed ^ 0xCA5A };
            let robot = noitu::robot::strategy(level);
            let mut rng = noitu::robot::seeded(seed ^ (g << 32) ^ 0xCA5A);
            while !game.is_over() {
                let seat = game.to_move();
                let view = noitu::ChainRobotView::against(&game, noitu::robot::Opponent::Person);
                let word = if seat == casual_seat {
                    casual.decide(&view, &mut rng)
                } else {
                    let started = Instant::now();
                    let word = robot.decide(&view, &mut rng, &mut Budget::Until(started + budget)).map(|d| d.word);
                    latencies.push(started.elapsed());
                    if let Some(w) = word {
                        played += 1;
                        familiar += u64::from(dict.is_familiar(w));
                    }
                    word
                };
                match word {
                    Some(w) => {
                        game.submit(seat, dict.display(w), Timestamp(0)).expect("a legal word");
                    }
                    None => {
                        // The casual player knows no word here, or the robot no familiar one:
                        // it gives up.
                        if seat == casual_seat {
                            stuck += 1;
                        } else {
                            conceded += 1;
                        }
                        let resign = game.check_resign(seat).expect("a game in progress");
                        game.apply(resign);
                    }
                }
            }
            wins += u64::from(game.winner() == Some(casual_seat));
            lengths.push(game.chain());
            progress(&format!("casual vs {}", level.id()), g + 1, args.games);
        }
        eprintln!();
        lengths.sort_unstable();
        let (rate, half) = win_rate(wins as f64, args.games);
        let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / lengths.len().max(1) as f64;
        let [p99] = quantiles(&mut latencies, [0.99]);
        println!(
            "| casual vs {} | {:.1}% ± {:.1}% | {mean:.1} | {} | {:.0}% | {:.0}% | {:.1}% | {p99:.3} ms |",
            level.id(),
            100.0 * rate,
            100.0 * half,
            lengths.get(lengths.len() / 2).copied().unwrap_or(0),
            100.0 * stuck as f64 / args.games.max(1) as f64,
            100.0 * conceded as f64 / args.games.max(1) as f64,
            100.0 * familiar as f64 / played.max(1) as f64
        );
    }
}

/// A progress bar on stderr, redrawn in place.
pub fn progress(label: &str, done: u64, total: u64) {
    let width = 30;
    let filled = (done * width / total.max(1)) as usize;
    eprint!("\r{label:<16} [{}{}] {done}/{total}", "#".repeat(filled), " ".repeat(width as usize - filled));
    let _ = std::io::stderr().flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_split_the_bag_at_their_bounds() {
        let bounds = [(117, 0), (60, 0), (59, 1), (21, 1), (20, 2), (8, 2), (7, 3), (1, 3), (0, 4)];
        for (bag, want) in bounds {
            assert_eq!(phase(bag), want, "bag {bag}");
        }
    }

    #[test]
    fn each_seat_s_phase_points_add_up_to_its_final_score() {
        for variant in [TileVariant::Erudit, TileVariant::ScrabbleEn] {
            let (game, latencies, points) = play(
                variant,
                3,
                [LadderPlayer::Score, LadderPlayer::Equity],
                0,
                Duration::from_millis(1),
                &LeaveTable::standard(variant.rules()),
            );
            assert!(game.is_over() && latencies.is_empty(), "static players only");
            for (seat, p) in points.iter().enumerate() {
                assert_eq!(p.iter().sum::<i64>(), i64::from(game.scores()[seat]), "{variant} seat {seat}");
            }
            let settled: i64 = points.iter().map(|p| p[PHASES.len() - 1]).sum();
            assert_eq!(settled, game.end().unwrap().adjustments.iter().map(|&a| i64::from(a)).sum::<i64>());
        }
    }
}
