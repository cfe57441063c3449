//! What varies from one run to the next, injected at the composition root: the clock, the
//! entropy of the draws, the bag (and robot) seeds and the ids of new games. Production passes
//! [`Runtime::system`]; tests pass a [`ManualClock`] they move by hand and a [`Seeded`] source,
//! so timed paths and creation are deterministic.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use games::Timestamp;
use uuid::Uuid;

use crate::OsEntropy;
use crate::robot::Thinking;

/// Where the current time comes from (the engines never read it themselves).
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until told otherwise: for tests of deadlines.
#[derive(Debug)]
pub struct ManualClock(Mutex<DateTime<Utc>>);

impl ManualClock {
    /// A clock showing `at`.
    pub fn new(at: DateTime<Utc>) -> ManualClock {
        ManualClock(Mutex::new(at))
    }

    /// Moves the clock on by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Uniform choices for the draws that decide who moves first.
pub trait DrawEntropy: Send + Sync {
    /// A uniformly chosen index in `0..n` (`n ≥ 1`).
    fn pick(&self, n: usize) -> usize;
}

/// Fresh 64-bit seeds: a new game's bag (or opening word), a robot's choices.
pub trait Seeds: Send + Sync {
    /// The next seed.
    fn seed(&self) -> u64;
}

/// Ids of new games.
pub trait Ids: Send + Sync {
    /// The next id.
    fn id(&self) -> Uuid;
}

impl DrawEntropy for OsEntropy {
    fn pick(&self, n: usize) -> usize {
        games::Entropy::pick(&mut OsEntropy, n)
    }
}

impl Seeds for OsEntropy {
    fn seed(&self) -> u64 {
        (games::Entropy::pick(&mut OsEntropy, usize::MAX) as u64) ^ ((games::Entropy::pick(&mut OsEntropy, usize::MAX) as u64) << 32)
    }
}

impl Ids for OsEntropy {
    fn id(&self) -> Uuid {
        Uuid::new_v4()
    }
}

/// A deterministic source of picks, seeds and ids (SplitMix64 from a seed): the same seed, the
/// same games. For tests and tools, never for production draws.
#[derive(Debug)]
pub struct Seeded(AtomicU64);

impl Seeded {
    /// A source starting from `seed`.
    pub fn new(seed: u64) -> Seeded {
        Seeded(AtomicU64::new(seed))
    }

    fn next(&self) -> u64 {
        let mut z = self.0.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl DrawEntropy for Seeded {
    fn pick(&self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

impl Seeds for Seeded {
    fn seed(&self) -> u64 {
        self.next()
    }
}

impl Ids for Seeded {
    fn id(&self) -> Uuid {
        uuid::Builder::from_random_bytes((u128::from(self.next()) << 64 | u128::from(self.next())).to_be_bytes()).into_uuid()
    }
}

/// Everything a [`crate::Service`] takes from outside besides its store and its games.
#[derive(Clone)]
pub struct Runtime {
    /// The time.
    pub clock: Arc<dyn Clock>,
    /// The draws' picks.
    pub draws: Arc<dyn DrawEntropy>,
    /// Bag and robot seeds.
    pub seeds: Arc<dyn Seeds>,
    /// New games' ids.
    pub ids: Arc<dyn Ids>,
    /// How long robots and hints may think.
    pub thinking: Thinking,
}

impl Runtime {
    /// Production: the system clock, the OS CSPRNG for draws, seeds and ids, and
    /// [`Thinking::SYSTEM`].
    pub fn system() -> Runtime {
        Runtime {
            clock: Arc::new(SystemClock),
            draws: Arc::new(OsEntropy),
            seeds: Arc::new(OsEntropy),
            ids: Arc::new(OsEntropy),
            thinking: Thinking::SYSTEM,
        }
    }

    /// Tests: `clock`, every pick, seed and id from one [`Seeded`] source, and
    /// [`Thinking::COUNTED`], so the same seed plays the same games on any machine.
    pub fn seeded(clock: Arc<dyn Clock>, seed: u64) -> Runtime {
        let source = Arc::new(Seeded::new(seed));
        Runtime { clock, draws: source.clone(), seeds: source.clone(), ids: source, thinking: Thinking::COUNTED }
    }
}

/// `t` as the families' timestamp (milliseconds since the epoch).
pub(crate) fn timestamp(t: DateTime<Utc>) -> Timestamp {
    Timestamp(t.timestamp_millis())
}

/// The engine's draw interface over a shared [`DrawEntropy`].
pub(crate) struct Picks<'a>(pub &'a dyn DrawEntropy);

impl games::Entropy for Picks<'_> {
    fn pick(&mut self, n: usize) -> usize {
        self.0.pick(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeded_source_repeats_and_a_manual_clock_moves_only_when_told() {
        let (a, b) = (Seeded::new(7), Seeded::new(7));
        assert_eq!((a.seed(), a.id(), a.pick(10)), (b.seed(), b.id(), b.pick(10)));
        assert!((0..100).all(|_| a.pick(3) < 3));
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let clock = ManualClock::new(at);
        assert_eq!(clock.now(), at);
        clock.advance(Duration::seconds(5));
        assert_eq!(clock.now(), at + Duration::seconds(5));
    }
}
