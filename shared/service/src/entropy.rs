//! Production entropy for the first-move draw: the OS CSPRNG, read fresh for every pick (never
//! the game's bag seed).

use rand::TryRngCore;
use rand::rngs::OsRng;

/// Uniform picks from the operating system's CSPRNG.
#[derive(Debug, Default, Clone, Copy)]
pub struct OsEntropy;

impl games::Entropy for OsEntropy {
    fn pick(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        // Rejection sampling: accept only below the largest multiple of n.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = OsRng.try_next_u64().expect("the OS random source is available");
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}
