//! Uniform draws from a seeded ChaCha8 stream, exact and repeatable: the opening draw and the
//! robots' choices.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

/// A uniform index below `n` (> 0), by rejection: no modulo bias, and the same stream always
/// gives the same index.
pub(crate) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// A uniform number in [0, 1).
pub(crate) fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// One of `items` at random (`None` if empty).
pub(crate) fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[below(rng, items.len())])
}
