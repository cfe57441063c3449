//! The games this process has replayed, kept by their row version: a request for a game that
//! has not changed since reads neither its journal nor replays it (a move's hint, then the
//! move; a client polling a game). Only the games repository ([`super`]) uses them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use games::GameState;
use store::KnownGame;
use uuid::Uuid;

/// How many games a process keeps, the least recently used going first: a Lambda instance
/// serves a few players at a time, a local server a few hundred.
pub(crate) const KEPT_GAMES: usize = 256;

/// A game as replayed at a version: its record's journal and draw, and the game they give.
#[derive(Debug)]
pub(crate) struct Replayed {
    /// The version, journal and draw.
    pub(crate) known: KnownGame,
    /// The game that journal replays to.
    pub(crate) state: GameState,
}

/// The kept games, by id.
#[derive(Debug, Default)]
pub(crate) struct Replays {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    /// Each game with the tick of its last use.
    games: HashMap<Uuid, (Arc<Replayed>, u64)>,
    tick: u64,
}

impl Replays {
    /// The game `id` as last kept, at whatever version that was.
    pub(crate) fn get(&self, id: Uuid) -> Option<Arc<Replayed>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.tick += 1;
        let tick = kept.tick;
        kept.games.get_mut(&id).map(|(game, used)| {
            *used = tick;
            Arc::clone(game)
        })
    }

    /// Keeps `game` as game `id`, in place of what was kept of it; past [`KEPT_GAMES`], the
    /// game used least recently goes.
    pub(crate) fn put(&self, id: Uuid, game: Replayed) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.tick += 1;
        let tick = kept.tick;
        kept.games.insert(id, (Arc::new(game), tick));
        if kept.games.len() > KEPT_GAMES {
            let oldest = kept.games.iter().min_by_key(|(_, (_, used))| *used).map(|(id, _)| *id);
            if let Some(oldest) = oldest {
                kept.games.remove(&oldest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use games::{Families, Lexicons, Position, Stored, Variant};

    use super::*;

    fn replayed(version: &str) -> Replayed {
        let families = Families::new(Arc::new(Lexicons::builtin()));
        let variant = Variant::NOI_TU;
        let setup = families.setup(variant, 2, 7).unwrap();
        let stored = Stored { variant, seats: 2, seed: 7, no_repeat_words: None, setup: Some(&setup.setup), journal: "[]" };
        let state = families.replay(&stored).unwrap().state();
        Replayed { known: KnownGame { version: version.into(), journal: "[]".into(), move_times: Vec::new(), draws: Vec::new() }, state }
    }

    #[test]
    fn a_kept_game_is_found_by_id_and_replaced_by_a_newer_version() {
        let replays = Replays::default();
        let id = Uuid::from_u128(1);
        assert!(replays.get(id).is_none());
        replays.put(id, replayed("10"));
        assert_eq!(replays.get(id).unwrap().known.version, "10");
        replays.put(id, replayed("11"));
        assert_eq!(replays.get(id).unwrap().known.version, "11");
        assert!(replays.get(Uuid::from_u128(2)).is_none());
        let families = Families::new(Arc::new(Lexicons::builtin()));
        assert_eq!(families.resume(Variant::NOI_TU, &replays.get(id).unwrap().state).unwrap().move_count(), 0);
    }

    #[test]
    fn past_the_limit_the_game_used_least_recently_goes() {
        let replays = Replays::default();
        let one = replayed("1");
        for n in 0..KEPT_GAMES as u128 {
            replays.put(Uuid::from_u128(n), Replayed { known: one.known.clone(), state: one.state.clone() });
        }
        // Game 0 is used again, so game 1 is now the least recently used.
        assert!(replays.get(Uuid::from_u128(0)).is_some());
        replays.put(Uuid::from_u128(1_000), replayed("2"));
        assert!(replays.get(Uuid::from_u128(0)).is_some());
        assert!(replays.get(Uuid::from_u128(1)).is_none());
        assert!(replays.get(Uuid::from_u128(2)).is_some());
        assert!(replays.get(Uuid::from_u128(1_000)).is_some());
    }
}
