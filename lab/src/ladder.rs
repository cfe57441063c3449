//! `lab ladder`: the wordgame ladder with the research players: prototypes of hard ([`proto`])
//! and hard built up from its parts ([`Part`]), each a [`Contestant`] of `wordgame::ladder`.

use std::time::{Duration, Instant};

use engine::TileMove;
use engine::robot::{Level, Robot, RobotView};
use games::Budget;
use rand_chacha::ChaCha8Rng;
use wordgame::CliError;
use wordgame::ladder::{Contestant, LadderOptions, LadderPairing, LadderPlayer, Turn, run_pairings};
use wordgame::leaves::census;

use crate::proto::{self, Features};

/// Arguments of `lab ladder`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: LadderOptions,
    /// A prototype of hard against medium: `+`-separated features of its mid-game simulation
    /// (`hard`: none; `wide`: 16 candidates; `reply`: the opponent answers by equity among
    /// unplayed words; `rleave`: its reply by score is valued with the leave it keeps;
    /// `exchange`: exchanges are candidates; `ply3`: the robot's next play counts; `late`: `ply3`
    /// with 20 tiles or fewer in the bag, `lateN` with N or fewer; `deep`: up to 1024 rounds;
    /// `damp`: the opponent's reply counts half (two plies only; three count it in full);
    /// `quarter`: it counts a quarter; `still`: no simulation, the best candidate by static
    /// equity, exchanges among them; `window`: only candidates within 6 points of the best static
    /// equity are simulated; `race`: the worse half of the candidates drops out after 8, 16, 32,
    /// … rounds, the rest run to the budget; `peek`: an oracle, never a robot: the simulation
    /// deals the opponent its real rack; `peekkept`: an oracle too: it deals the opponent the
    /// tiles it really kept from its last play; `infer`: the opponent's kept tiles inferred from
    /// its last play, taken as its best by score, `inferu`: by score or by equity within a
    /// tolerance; `win`: each round counted through a win utility of the lead after it, the
    /// pre-endgame too). `static:SPEC`: that prototype against the pure-score and the
    /// static-equity players; `score:SPEC`: against the pure-score player only. `parts`: hard
    /// built up from its parts against the pure-score player, on the same seeds: its static
    /// ranking alone (the best equity among the plays and the best exchange), then with the hard
    /// level deciding with the bag empty, then also with 1 to a rack of tiles in the bag, then
    /// the whole hard level; with the games whose result each part changed.
    #[arg(long)]
    versus: String,
}

/// A prototype of hard: its mid-game simulation with the features on, the hard level elsewhere.
struct Proto(Features);

impl Contestant for Proto {
    fn id(&self) -> String {
        format!("hard ({})", self.0)
    }

    fn level(&self) -> Option<Level> {
        Some(Level::Hard)
    }

    fn decide(&self, turn: &Turn<'_>, rng: &mut ChaCha8Rng, budget: Duration) -> TileMove {
        let until = Instant::now() + budget;
        proto::decide(turn.game, turn.hard, turn.generator, turn.leave, self.0, rng, until)
            .unwrap_or_else(|| turn.hard.decide(&RobotView::new(turn.game), rng, &mut Budget::Until(until)).mv)
    }
}

/// Hard's static ranking ([`census::static_move`]), with the hard level deciding once the bag
/// holds at most this many tiles (`None`: never). Its decisions count under no level.
struct Part(Option<usize>);

impl Contestant for Part {
    fn id(&self) -> String {
        match self.0 {
            None => "hard's static ranking".to_string(),
            Some(0) => "static + hard's endgame".to_string(),
            Some(n) => format!("static + hard at bag ≤ {n}"),
        }
    }

    fn level(&self) -> Option<Level> {
        None
    }

    fn decide(&self, turn: &Turn<'_>, rng: &mut ChaCha8Rng, budget: Duration) -> TileMove {
        if self.0.is_none_or(|n| turn.game.bag().len() > n) {
            census::static_move(turn.game, turn.generator, turn.leave).0
        } else {
            turn.hard.decide(&RobotView::new(turn.game), rng, &mut Budget::Until(Instant::now() + budget)).mv
        }
    }
}

/// Runs the research ladder and prints its tables (Markdown).
///
/// # Errors
/// [`CliError::Input`] for an unknown variant or feature, or an unreadable `--static-leaves`.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant = args.options.tile_variant()?;
    let parse = |spec: &str| Features::parse(spec).map(Proto).map_err(CliError::Input);
    if args.versus == "parts" {
        let parts = [Part(None), Part(Some(0)), Part(Some(variant.rules().rack_size))];
        let mut pairings: Vec<(LadderPlayer, LadderPlayer)> = parts.iter().map(|p| (LadderPlayer::Other(p), LadderPlayer::Score)).collect();
        pairings.push((LadderPlayer::Robot(Level::Hard), LadderPlayer::Score));
        print_parts(&run_pairings(&args.options, &pairings)?);
        return Ok(());
    }
    let (proto, opponents) = if let Some(spec) = args.versus.strip_prefix("static:") {
        (parse(spec)?, vec![LadderPlayer::Score, LadderPlayer::Equity])
    } else if let Some(spec) = args.versus.strip_prefix("score:") {
        (parse(spec)?, vec![LadderPlayer::Score])
    } else {
        (parse(&args.versus)?, vec![LadderPlayer::Robot(Level::Medium)])
    };
    let pairings: Vec<(LadderPlayer, LadderPlayer)> = opponents.into_iter().map(|b| (LadderPlayer::Other(&proto), b)).collect();
    run_pairings(&args.options, &pairings)?;
    Ok(())
}

/// `--versus parts`: each part's win rate and what it changed from the part before on the same
/// seeds and seats: the difference in win rate and the games it turned (won where the part before
/// did not win, lost where it did not lose; draws count half).
fn print_parts(results: &[LadderPairing<'_>]) {
    println!("\n| part | wins | change from the part before | games turned (better / worse) |");
    println!("|---|---|---|---|");
    for (i, p) in results.iter().enumerate() {
        let rate = |q: &LadderPairing| q.results.iter().map(|&r| f64::from(r)).sum::<f64>() / (2.0 * q.games.max(1) as f64);
        let (change, turned) = match i.checked_sub(1).map(|j| &results[j]) {
            None => (String::new(), String::new()),
            Some(before) => {
                let pairs = p.results.iter().zip(&before.results);
                let better = pairs.clone().filter(|(now, was)| now > was).count();
                let worse = pairs.filter(|(now, was)| now < was).count();
                (format!("{:+.1} points", 100.0 * (rate(p) - rate(before))), format!("{better} / {worse}"))
            }
        };
        println!("| {} | {:.1}% | {change} | {turned} |", p.a.id(), 100.0 * rate(p));
    }
}

#[cfg(test)]
mod tests {
    use engine::{LeaveTable, TileVariant};
    use wordgame::ladder::play;

    use super::*;

    #[test]
    fn a_part_plays_hard_s_static_ranking_until_the_hard_level_takes_over() {
        let variant = TileVariant::ScrabbleEn;
        let leave = LeaveTable::standard(variant.rules());
        let game = |part: &Part| play(variant, 7, [LadderPlayer::Other(part), LadderPlayer::Score], 0, Duration::from_millis(2), &leave);
        let (alone, _, static_points) = game(&Part(None));
        assert!(alone.is_over());
        // Where each part's player decides the same way, the games agree move for move, and so do
        // both seats' points in every phase before the hard level takes over.
        for (hard_from, static_phases) in [(0, 4), (variant.rules().rack_size, 3)] {
            let (_, latencies, points) = game(&Part(Some(hard_from)));
            assert!(latencies.is_empty(), "a part's decisions count under no level");
            for seat in 0..2 {
                assert_eq!(points[seat][..static_phases], static_points[seat][..static_phases], "bag ≤ {hard_from}, seat {seat}");
            }
        }
    }
}
