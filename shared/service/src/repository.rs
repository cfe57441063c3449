//! The games repository: the one place the use cases get a game's record with its rebuilt game
//! and hand back a change to write. It owns the kept games ([`Replays`]): a read names the
//! version this process holds, so a game unchanged since is neither aggregated again by the
//! database nor replayed; a game read and replayed, or written, is kept for the next request.

mod replays;

use std::sync::Arc;

use games::{AnyGame, Families, Position};
use store::{GameRecord, GameUpdate, KnownGame, NewMove};
use uuid::Uuid;

use crate::ServiceError;
use crate::ports::{GameEdit, GameStore};
use crate::runtime::timestamp;
use replays::{Replayed, Replays};

/// The games: the store's game reads and writes, the families that rebuild them, the kept
/// games (shared by the repository's clones).
#[derive(Clone)]
pub(crate) struct Games {
    store: Arc<dyn GameStore>,
    families: Families,
    kept: Arc<Replays>,
}

impl Games {
    /// Games in `store`, rebuilt by `families`, nothing kept yet.
    pub(crate) fn new(store: Arc<dyn GameStore>, families: Families) -> Games {
        Games { store, families, kept: Arc::default() }
    }

    /// Game `id` read without a lock, and the game it replays to.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; storage errors; a journal that does not replay.
    pub(crate) async fn read(&self, id: Uuid) -> Result<(GameRecord, AnyGame<'_>), ServiceError> {
        // What this process kept of the game, handed to the read and to the rebuild alike.
        let kept = self.kept.get(id);
        let mut record = self.store.game_since(id, kept.as_ref().map(|k| &k.known)).await?;
        let mut game = self.rebuild_from(&record, kept.as_deref(), true)?;
        crate::view::clock_deadline(&mut record, &mut game);
        Ok((record, game))
    }

    /// Game `id` read whole (nothing taken from what this process holds), and the game it
    /// replays to: for pages that read a game seldom, such as the admin's.
    ///
    /// # Errors
    /// As [`Games::read`].
    pub(crate) async fn get(&self, id: Uuid) -> Result<(GameRecord, AnyGame<'_>), ServiceError> {
        let mut record = self.store.game(id).await?;
        let mut game = self.rebuild(&record)?;
        crate::view::clock_deadline(&mut record, &mut game);
        Ok((record, game))
    }

    /// Game `id` read for a change, locked or not (then its write applies only if the game is
    /// unchanged), with the move recorded under `client_move_id` if any, and the game it
    /// replays to.
    ///
    /// # Errors
    /// As [`Games::read`].
    pub(crate) async fn read_for_change(
        &self,
        id: Uuid,
        client_move_id: Option<Uuid>,
        lock: bool,
    ) -> Result<(GameEdit, AnyGame<'_>), ServiceError> {
        let kept = self.kept.get(id);
        let known = kept.as_ref().map(|k| &k.known);
        let mut tx = match lock {
            true => self.store.lock_game(id, client_move_id, known).await?,
            false => self.store.read_game_for_move(id, client_move_id, known).await?,
        };
        let mut game = self.rebuild_from(tx.game(), kept.as_deref(), true)?;
        crate::view::clock_deadline(tx.game_mut(), &mut game);
        Ok((tx, game))
    }

    /// The game of a record had otherwise (a game created, a seat filled, a game withdrawn),
    /// with its deadline: the game kept at the record's version, if any, else replayed (and not
    /// kept: the record may not be written yet).
    ///
    /// # Errors
    /// A journal that does not replay; a word graph that cannot be loaded.
    pub(crate) fn rebuild(&self, record: &GameRecord) -> Result<AnyGame<'_>, ServiceError> {
        self.rebuild_from(record, self.kept.get(record.game_id).as_deref(), false)
    }

    /// Writes `moves` and `update` in `tx` and commits, then keeps `game` as written: the next
    /// request (the other side's hint and move) finds it unchanged.
    ///
    /// # Errors
    /// [`ServiceError::Conflict`] if the game changed since `tx` read it (nothing written);
    /// storage errors.
    pub(crate) async fn finish(
        &self,
        tx: GameEdit,
        (moves, update, ratings): (&[NewMove], &GameUpdate, &[store::RatingWrite]),
        game: &AnyGame<'_>,
    ) -> Result<(), ServiceError> {
        let id = tx.game().game_id;
        let known = tx.finish(moves, update, ratings).await?;
        self.kept.put(id, Replayed { known, state: game.state() });
        Ok(())
    }

    /// The game of `record`: `kept`'s, resumed, if it is at the record's version, else
    /// replayed from the record, and then kept if `keep` (a record just read, so unchanged).
    fn rebuild_from(&self, record: &GameRecord, kept: Option<&Replayed>, keep: bool) -> Result<AnyGame<'_>, ServiceError> {
        let mut game = match kept.filter(|k| k.known.version == record.version) {
            Some(kept) => self.families.resume(record.variant, &kept.state)?,
            None => {
                let game = self.families.replay(&stored(record))?;
                if keep {
                    self.kept.put(record.game_id, Replayed { known: KnownGame::of(record), state: game.state() });
                }
                game
            }
        };
        game.set_deadline(record.turn_deadline.map(timestamp));
        Ok(game)
    }
}

/// The game of `record` as its family reads it back: the setup columns, the setup as data and
/// the journal.
pub fn stored(record: &GameRecord) -> games::Stored<'_> {
    games::Stored {
        variant: record.variant,
        seats: record.seats,
        seed: record.seed,
        no_repeat_words: record.no_repeat_words,
        setup: record.setup.as_deref(),
        journal: &record.journal,
    }
}
