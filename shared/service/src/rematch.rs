//! Rematch: a finished game's player asks for another game with the same players, variant and
//! clock and a fresh draw. Against robots only it starts at once; other humans are seated
//! invited (see [`crate::invitation`]), see it in their games with `awaits_you`, and accept by
//! joining it or decline it.

use store::{AccountKind, GameStatus, NewGame, StoreError};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::view::GameView;
use crate::{Caller, Service, ServiceError};

impl Service {
    /// The rematch of the caller's finished game `game_id`: created now (`true`), or the one
    /// already made (`false`; by the caller or by another player, so two players asking at once
    /// get the same game).
    ///
    /// # Errors
    /// [`ServiceError::NotFinished`] for a game still open or being played (or withdrawn);
    /// [`ServiceError::NotYourGame`]; [`ServiceError::NotFound`]; [`ServiceError::TooManyGames`]
    /// and [`ServiceError::TooManyInvitations`] past the caller's limits.
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn rematch(&self, caller: &Caller, game_id: Uuid) -> Result<(bool, GameView), ServiceError> {
        let record = self.game_store.game(game_id).await?;
        seat_of(&record, caller)?;
        if record.status != GameStatus::Finished {
            return Err(ServiceError::NotFinished("only a finished game can be rematched"));
        }
        if let Some(existing) = self.store.rematch_of(game_id).await? {
            return Ok((false, self.get_game(caller, existing).await?));
        }
        let participants: Vec<Uuid> = record.players.iter().filter_map(|p| p.account.as_ref().map(|a| a.account_id)).collect();
        let human = |id: &Uuid| {
            record.players.iter().filter_map(|p| p.account.as_ref()).any(|a| a.account_id == *id && a.kind == AccountKind::Human)
        };
        self.ensure_caller(caller).await?;
        let (draws, seats) = self.draw(record.variant, &participants)?;
        let invited: Vec<bool> = seats.iter().map(|id| *id != caller.account_id() && human(id)).collect();
        let waiting = invited.iter().any(|i| *i);
        let status = if waiting { GameStatus::Open } else { GameStatus::Active };
        let new = NewGame {
            rematch_of: Some(game_id),
            invited_by: waiting.then(|| caller.account_id()),
            limits: Some(crate::limits::for_new_game(caller.account_id(), false, waiting)),
            invited,
            ..self.new_game(
                record.variant,
                status,
                crate::usecases::Pinned {
                    time_control: record.time_control,
                    challenge: games::challenge_rule_of(record.setup.as_deref())?,
                    rated: record.rated,
                    // The finished game's hints, as the rule reads them for this one.
                    hints: crate::hints::allowance(record.variant, record.rated, record.hints_allowed.and_then(|h| u8::try_from(h).ok())),
                },
                seats.into_iter().map(Some).collect(),
                draws,
            )?
        };
        let mut tx = match self.game_store.create_game(&new).await {
            Ok(tx) => tx,
            // Another player's rematch of the same game committed first: theirs is the rematch.
            Err(StoreError::Conflict(store::Conflict::Unique(_))) => {
                let existing = self.store.rematch_of(game_id).await?.ok_or(ServiceError::Conflict)?;
                return Ok((false, self.get_game(caller, existing).await?));
            }
            Err(e) => return Err(e.into()),
        };
        self.limit_rated_pair(&mut tx).await?;
        let seat = seat_of(tx.game(), caller)?;
        let mut game = self.games.rebuild(tx.game())?;
        let view = self.commit_moves(tx, &mut game, Some(seat), None).await?.game;
        self.announce_invitations(&view).await;
        Ok((true, view))
    }
}
