//! `wordgame positions`: benchmark and golden positions from seeded self-play.
//!
//! Each game is played by the equity robot of the move generator (best score + leave; a full
//! exchange, or a pass, when it has no play). From each finished game it takes one early, one
//! middle and one late position (the player to move first in the CGP), until it has `--count`.

use engine::cgp::Position;
use engine::lexicon::builtin_graph;
use engine::movegen::exchanges;
use engine::{Game, LeaveTable, Move, MoveGenerator, PlacementInput, Ranking, Seat, TileInput, Timestamp, Variant};

use crate::CliError;

/// Arguments of `wordgame positions`.
#[derive(clap::Args)]
pub struct Args {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// How many positions to print.
    #[arg(long, default_value_t = 500)]
    count: usize,
    /// The first game's seed; game k uses seed + k.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the command.
///
/// # Errors
/// [`CliError::Input`] for an unknown variant.
pub fn run(args: &Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse().map_err(|e: engine::variant::VariantError| CliError::Input(e.to_string()))?;
    let rules = variant.rules();
    let generator = MoveGenerator::new(rules, builtin_graph(variant));
    let leave = LeaveTable::heuristic(rules);
    let (mut printed, mut with_blank) = (0, 0);
    for k in 0.. {
        if printed >= args.count {
            break;
        }
        let mut game = Game::new(variant, 2, args.seed + k).expect("two seats");
        let mut snapshots = Vec::new();
        while !game.is_over() {
            snapshots.push(snapshot(&game));
            let seat = game.to_move();
            let rack = *game.rack(seat);
            let mv = match generator.top(game.board(), &rack, 1, Ranking::Equity(&leave)).first() {
                Some(best) => Move::Play {
                    placements: best
                        .placements()
                        .iter()
                        .map(|p| PlacementInput {
                            square: p.square.to_string(),
                            letter: Some(rules.char_of(p.tile.letter())),
                            blank: p.tile.is_blank(),
                        })
                        .collect(),
                },
                None => match exchanges(rules, &rack, game.bag().len()).into_iter().max_by_key(|r| r.len()) {
                    Some(all) => Move::Exchange { tiles: all.tiles().map(|t| TileInput::from_rack_tile(rules, t)).collect() },
                    None => Move::Pass,
                },
            };
            game.play(builtin_graph(variant), seat, &mv, Timestamp(0)).expect("generated moves are legal");
        }
        let n = snapshots.len();
        for at in [n / 8, n / 2, n.saturating_sub(2)] {
            if printed < args.count
                && let Some((cgp, blank)) = snapshots.get(at)
            {
                println!("{cgp}");
                printed += 1;
                with_blank += usize::from(*blank);
            }
        }
    }
    eprintln!(
        "{printed} positions, {with_blank} with a blank on the rack to move ({:.1}%)",
        100.0 * with_blank as f64 / printed.max(1) as f64
    );
    Ok(())
}

/// The position as CGP with the player to move first, and whether that rack holds a blank.
fn snapshot(game: &Game) -> (String, bool) {
    let seats = game.seats();
    let order: Vec<usize> = (0..seats).map(|i| (game.to_move().index() + i) % seats).collect();
    let position = Position {
        board: game.board().clone(),
        racks: order.iter().map(|&s| *game.rack(Seat(s as u8))).collect(),
        scores: order.iter().map(|&s| game.scores()[s]).collect(),
        zero_turns: game.scoreless_turns(),
        lexicon: Some(game.rules().variant.id().to_string()),
    };
    (position.to_cgp(game.rules()), game.rack(game.to_move()).blanks() > 0)
}
