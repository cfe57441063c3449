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

#[test]
fn ratings_recover_the_true_order_of_a_seeded_population() {
    eprintln!("seed {SEED}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    // True strengths: a bell around 1500 with a spread of about 300 (the sum of uniforms).
    let truth: Vec<f64> = (0..PLAYERS).map(|_| 1500.0 + 300.0 * ((0..12).map(|_| unit(&mut rng)).sum::<f64>() - 6.0)).collect();
    let mut rating = vec![Rating::default(); PLAYERS];
    let mut played = vec![0u32; PLAYERS];
    let mut settled_after: Vec<Option<u32>> = vec![None; PLAYERS];
    for _ in 0..GAMES {
        let a = (rng.next_u64() % PLAYERS as u64) as usize;
        let mut b = (rng.next_u64() % PLAYERS as u64) as usize;
        while b == a {
            b = (rng.next_u64() % PLAYERS as u64) as usize;
        }
        let p_win = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
        let score = if unit(&mut rng) < p_win { Score::Win } else { Score::Loss };
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
