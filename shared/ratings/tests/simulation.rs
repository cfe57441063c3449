//! A seeded population through the rating code: 1,000 players with hidden true strengths play
//! 20,000 rated games between random pairs (the stronger wins as often as the Elo curve of the
//! true strengths says); the ratings recovered rank the players as their true strengths do
//! (Spearman's ρ at least 0.9), and a newcomer's deviation falls below the provisional bound
//! within a known number of games. The seed is printed; figures in docs/RATINGS.md.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use ratings::{PROVISIONAL_DEVIATION, Rating, Score};

const PLAYERS: usize = 1_000;
const GAMES: usize = 20_000;
const SEED: u64 = 20_261_205;

/// A uniform number in [0, 1).
fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Ranks of `values` (1 = smallest; no ties in continuous values).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut rank = vec![0.0; values.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as f64 + 1.0;
    }
    rank
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let d2: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - y) * (x - y)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// True strengths: a bell around 1500 with a spread of about 300 (the sum of uniforms).
fn population(rng: &mut ChaCha8Rng) -> Vec<f64> {
    (0..PLAYERS).map(|_| 1500.0 + 300.0 * ((0..12).map(|_| unit(rng)).sum::<f64>() - 6.0)).collect()
}

/// A game between two random players, won as the Elo curve of their true strengths says.
fn random_game(rng: &mut ChaCha8Rng, truth: &[f64]) -> (usize, usize, Score) {
    let a = (rng.next_u64() % PLAYERS as u64) as usize;
    let mut b = (rng.next_u64() % PLAYERS as u64) as usize;
    while b == a {
        b = (rng.next_u64() % PLAYERS as u64) as usize;
    }
    let p_win = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
    (a, b, if unit(rng) < p_win { Score::Win } else { Score::Loss })
}

#[test]
fn ratings_recover_the_true_order_of_a_seeded_population() {
    eprintln!("seed {SEED}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let truth = population(&mut rng);
    let mut rating = vec![Rating::default(); PLAYERS];
    let mut played = vec![0u32; PLAYERS];
    let mut settled_after: Vec<Option<u32>> = vec![None; PLAYERS];
    for _ in 0..GAMES {
        let (a, b, score) = random_game(&mut rng, &truth);
        let (ra, rb) = Rating::rated_game(rating[a], rating[b], score);
        (rating[a], rating[b]) = (ra, rb);
        for p in [a, b] {
            played[p] += 1;
            if settled_after[p].is_none() && !rating[p].is_provisional() {
                settled_after[p] = Some(played[p]);
            }
        }
    }
    let recovered: Vec<f64> = rating.iter().map(|r| r.rating).collect();
    let rho = spearman(&truth, &recovered);
    let mut settled: Vec<u32> = settled_after.iter().flatten().copied().collect();
    settled.sort_unstable();
    let (median, p90) = (settled[settled.len() / 2], settled[settled.len() * 9 / 10]);
    eprintln!(
        "Spearman rho {rho:.4}; {} of {PLAYERS} players no longer provisional (deviation < {PROVISIONAL_DEVIATION}), after a median of {median} games (90th percentile {p90})",
        settled.len()
    );
    assert!(rho >= 0.9, "rho {rho}");
    assert!(settled.len() >= PLAYERS * 95 / 100, "most players settle within their 40 games: {}", settled.len());
    assert!(median <= 20, "a newcomer settles within 20 games: median {median}");
}

/// Rated games a pair may play against each other in a day (the service's
/// `RATED_GAMES_PER_PAIR_PER_DAY`): later ones are casual.
const PAIR_GAMES_A_DAY: u32 = 3;

/// One player's rating after beating a second account of their own `per_day` times a day for
/// `days` days, rated as the service rates (each new day grows both deviations by a period),
/// with at most `cap` of each day's games rated.
fn farmed(days: u32, per_day: u32, cap: u32) -> Rating {
    let (mut farmer, mut puppet) = (Rating::default(), Rating::default());
    for day in 0..days {
        if day > 0 {
            (farmer, puppet) = (farmer.after_idle(1), puppet.after_idle(1));
        }
        for _ in 0..per_day.min(cap) {
            (farmer, puppet) = Rating::rated_game(farmer, puppet, Score::Win);
        }
    }
    farmer
}

#[test]
fn the_pair_limit_leaves_a_random_population_alone_and_caps_a_farmer() {
    // The same population over 20 days of 1,000 games, with the pair limit: random pairs almost
    // never meet four times in a day, so the ratings recover the order as before.
    eprintln!("seed {SEED}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let truth = population(&mut rng);
    let mut rating = vec![Rating::default(); PLAYERS];
    let mut capped = 0usize;
    for _day in 0..GAMES / 1_000 {
        let mut met: std::collections::HashMap<(usize, usize), u32> = std::collections::HashMap::new();
        for _ in 0..1_000 {
            let (a, b, score) = random_game(&mut rng, &truth);
            let n = met.entry((a.min(b), a.max(b))).or_default();
            *n += 1;
            if *n > PAIR_GAMES_A_DAY {
                capped += 1;
                continue;
            }
            (rating[a], rating[b]) = Rating::rated_game(rating[a], rating[b], score);
        }
    }
    let rho = spearman(&truth, &rating.iter().map(|r| r.rating).collect::<Vec<_>>());
    eprintln!("with the pair limit: Spearman rho {rho:.4}, {capped} of {GAMES} games played casual");
    assert!(rho >= 0.9 && capped == 0, "rho {rho}, capped {capped}");
    // The reproduction: 40 wins a day against one's own second account.
    let (free, limited) = (farmed(1, 40, u32::MAX), farmed(1, 40, PAIR_GAMES_A_DAY));
    let (free_10, limited_10) = (farmed(10, 40, u32::MAX), farmed(10, 40, PAIR_GAMES_A_DAY));
    eprintln!(
        "farming 40 wins a day: after a day {:.0} without the limit, {:.0} with it; after ten days {:.0} and {:.0}",
        free.rating, limited.rating, free_10.rating, limited_10.rating
    );
    assert!(free.rating > 1900.0 && limited.rating < 1800.0, "{free:?} {limited:?}");
    assert!(limited_10.rating < free_10.rating);
}
