//! `wordgame positions`: benchmark and golden positions from seeded self-play.
//!
//! Each game is played by the equity robot on both seats (see `selfplay`). From each finished
//! game it takes one early, one middle and one late position (the player to move first in the
//! CGP), until it has `--count`.

use engine::cgp::CgpPosition;
use engine::{Game, LeaveTable, Seat, TileVariant};

use crate::CliError;
use crate::selfplay::{StaticStrategy, play_game};

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
    let variant: TileVariant = args.variant.parse()?;
    let leave = LeaveTable::heuristic(variant.rules());
    let (mut printed, mut with_blank) = (0, 0);
    for k in 0.. {
        if printed >= args.count {
            break;
        }
        let mut snapshots = Vec::new();
        let robot = StaticStrategy::Equity(&leave);
        play_game(variant, args.seed + k, [robot, robot], |game, _| snapshots.push(snapshot(game)));
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
    let position = CgpPosition {
        board: game.board().clone(),
        racks: order.iter().map(|&s| *game.rack(Seat(s as u8))).collect(),
        scores: order.iter().map(|&s| game.scores()[s]).collect(),
        zero_turns: game.scoreless_turns(),
        lexicon: Some(game.rules().variant.id().to_string()),
    };
    (position.to_cgp(game.rules()), game.rack(game.to_move()).blanks() > 0)
}
