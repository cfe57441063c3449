//! Building the engine's whole-leave tables (`shared/engine/data/leaves/<variant>.lv`) from seeded
//! self-play: a [`LeaveFit`] plays its generations of games and fits a table, by default the fit
//! each shipped file was made with ([`LeaveFit::shipped`]), which `wordgame data leaves` writes.
//! Two recipes: the rack census ([`census`], English) and residuals over the heuristic of a
//! target read from each seat's turns ([`residuals`], the Russian alphabets: the next equity).
//! The research crate `lab` runs the same fits with other parameters and targets and measures
//! what the tables gain.

pub mod census;
pub mod residuals;

use engine::leave::SuperLeaves;
use engine::{LeaveTable, TileVariant};

use crate::CliError;
use residuals::LeaveTarget;

/// A fit of a whole-leave table: its self-play and its recipe.
pub struct LeaveFit {
    /// Self-play games per generation.
    pub games: u64,
    /// Generations: the first plays the heuristic, each next one the table just fitted.
    pub generations: u32,
    /// The first game's seed; each generation's games take the next `games` seeds.
    pub seed: u64,
    /// What the games record and how a leave is valued from it.
    pub recipe: LeaveRecipe,
}

/// How a table is fitted from self-play.
pub enum LeaveRecipe {
    /// The rack census ([`census`]): each full rack's best value, spread over the leaves it
    /// holds; a leave shrunk toward the heuristic by `shrink` pseudo-samples and left out with
    /// fewer than `min_support` samples. The games run on `threads` threads (the same table on
    /// any count).
    Census {
        /// Pseudo-samples of the heuristic's value.
        shrink: f64,
        /// Samples a leave needs to be written.
        min_support: u32,
        /// Threads for the self-play.
        threads: u64,
    },
    /// Residuals over the heuristic ([`residuals`]) of `target`: each leave's own residual
    /// shrunk by `shrink` pseudo-samples; every leave with `min_samples` samples and every
    /// leave of at most `all_up_to` tiles written.
    Residuals {
        /// What a leave kept is worth, read from the seat's turns.
        target: LeaveTarget,
        /// Pseudo-samples each leave's residual is shrunk toward the feature model by.
        shrink: f64,
        /// Samples a seen leave needs to be written.
        min_samples: u32,
        /// Every leave of at most this many tiles is written, seen or not.
        all_up_to: usize,
    },
}

impl LeaveFit {
    /// The fit that made `variant`'s shipped table: English three generations of the rack
    /// census over 100,000 games each, the Russian alphabets one generation of next-equity
    /// residuals over 20,000 games; seeds from 2,000,001.
    pub fn shipped(variant: TileVariant) -> LeaveFit {
        let (games, generations, recipe) = match variant {
            TileVariant::ScrabbleEn => (100_000, 3, LeaveRecipe::Census { shrink: 50.0, min_support: 150, threads: 2 }),
            TileVariant::ScrabbleRu | TileVariant::Erudit => (
                20_000,
                1,
                LeaveRecipe::Residuals { target: Box::new(residuals::next_equity), shrink: 300.0, min_samples: 1, all_up_to: 4 },
            ),
        };
        LeaveFit { games, generations, seed: 2_000_001, recipe }
    }

    /// Plays the fit's games and returns the last generation's table: (key, value in
    /// thousandths) in key order. Progress goes to standard error.
    pub fn run(&self, variant: TileVariant) -> Vec<(u64, i32)> {
        let rules = variant.rules();
        let heuristic = LeaveTable::heuristic(rules);
        let mut playing = heuristic.clone();
        let mut entries = Vec::new();
        for generation in 0..self.generations {
            let seed = self.seed + u64::from(generation) * self.games;
            let label = format!("whole leaves {}", generation + 1);
            entries = match &self.recipe {
                LeaveRecipe::Census { shrink, min_support, threads } => {
                    let census = census::collect(variant, &playing, self.games, seed, *threads, &label);
                    eprintln!("{label}: {} samples of {} distinct racks", census.samples(), census.racks());
                    census::fit(rules, &census, *shrink, *min_support)
                }
                LeaveRecipe::Residuals { target, shrink, min_samples, all_up_to } => {
                    let samples = residuals::collect(variant, &playing, self.games, seed, target, &label);
                    residuals::fit(rules, &samples, *shrink, *min_samples, *all_up_to)
                }
            };
            playing = heuristic.clone().with_superleaves(SuperLeaves::read(to_bytes(&entries)));
        }
        entries
    }
}

/// A table's bytes as the engine reads them: 12-byte entries (key, value; little-endian).
pub fn to_bytes(entries: &[(u64, i32)]) -> Vec<u8> {
    entries.iter().flat_map(|(k, v)| k.to_le_bytes().into_iter().chain(v.to_le_bytes())).collect()
}

/// Writes a table to `path`: packed (`engine::leave::pack`, as the engine compiles its tables
/// in) when the path ends in `.lv`, else as 12-byte entries.
///
/// # Errors
/// [`CliError::Input`] when a table to pack is empty or the file cannot be written.
pub fn write(path: &str, entries: &[(u64, i32)]) -> Result<(), CliError> {
    let bytes = to_bytes(entries);
    let written = if path.ends_with(".lv") {
        engine::leave::pack(&bytes).ok_or_else(|| CliError::Input(format!("{path}: no whole leaves were fitted to pack")))?
    } else {
        bytes
    };
    std::fs::write(path, &written).map_err(|e| CliError::Input(format!("{path}: {e}")))
}
