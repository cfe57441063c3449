//! Consent before any clock: a game that seats another human (a new game naming them, or a
//! rematch) starts as an invitation. Nobody moves, no clock runs and nothing counts until
//! every invited human accepts (by joining); any invitee may decline, which withdraws the game
//! with no result for anyone; only the inviter may withdraw it; unanswered, it expires with the
//! open games (the sweep withdraws it).

use games::Seat;
use store::{GameRecord, GameStatus};
use uuid::Uuid;

use crate::caller::seat_of;
use crate::ports::GameEdit;
use crate::view::{GameView, build};
use crate::{Caller, Service, ServiceError};

/// Whether `record` is an invitation some invitee has not accepted yet.
pub(crate) fn awaiting(record: &GameRecord) -> bool {
    record.status == GameStatus::Open && record.players.iter().any(|p| p.invited)
}

/// Refuses anything that plays (a move, a preview, a hint, a resignation, a timeout, a robot)
/// while the game waits for its invitees, or for its players' draw.
pub(crate) fn ensure_not_awaiting(record: &GameRecord) -> Result<(), ServiceError> {
    if record.status == GameStatus::Drawing {
        return Err(ServiceError::DrawInProgress);
    }
    if awaiting(record) {
        return Err(ServiceError::AwaitingAcceptance);
    }
    Ok(())
}

/// Whether `account` received the invitation of `record` (accepted or not): anyone seated but
/// the inviter. Invitations made before the inviter was recorded know only who has not
/// accepted yet.
fn invitee(record: &GameRecord, account: Uuid, seat: Seat) -> bool {
    match record.invited_by {
        Some(by) => by != account,
        None => record.players[seat.index()].invited,
    }
}

/// Refuses a withdrawal by an invitee: only the inviter may withdraw an invitation.
pub(crate) fn ensure_inviter(record: &GameRecord, account: Uuid, seat: Seat) -> Result<(), ServiceError> {
    if awaiting(record) && invitee(record, account, seat) {
        return Err(ServiceError::NotInviter);
    }
    Ok(())
}

impl Service {
    /// Declines the invitation the caller received: the game is withdrawn, with no result for
    /// anyone. An invitee who accepted may still decline while others have not.
    ///
    /// # Errors
    /// [`ServiceError::NotYourGame`] when the caller has no seat (checked first, as on every
    /// game); [`ServiceError::NotInvited`] for the inviter, or a game no longer waiting for
    /// acceptance; [`ServiceError::NotFound`].
    #[tracing::instrument(skip(self, caller), fields(account = %caller.account_id()))]
    pub async fn decline(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let tx = self.game_store.lock_game(game_id, None, None).await?;
        let seat = seat_of(tx.game(), caller)?;
        if !awaiting(tx.game()) || !invitee(tx.game(), caller.account_id(), seat) {
            return Err(ServiceError::NotInvited);
        }
        let mut record = tx.game().clone();
        tx.withdraw().await?;
        record.status = GameStatus::Withdrawn;
        let game = self.games.rebuild(&record)?;
        Ok(build(&record, &game, Some(seat), self.now()))
    }

    /// Accepts the invitation of the caller in `seat` (locked in `tx`): once nobody else is
    /// invited the game starts (its clock, and a robot that leads, move at once).
    ///
    /// # Errors
    /// [`ServiceError::TooManyGames`] when the caller sits in as many other unfinished games as
    /// one may; storage failures.
    pub(crate) async fn accept(&self, mut tx: GameEdit, seat: Seat) -> Result<GameView, ServiceError> {
        let account = tx.game().players[seat.index()].account.as_ref().map(|a| a.account_id).ok_or(ServiceError::NotInvited)?;
        self.ensure_room(&mut tx, account).await?;
        tx.accept_invitation(seat.index()).await?;
        self.limit_rated_pair(&mut tx).await?;
        let mut game = self.games.rebuild(tx.game())?;
        Ok(self.commit_moves(tx, &mut game, Some(seat), None).await?.game)
    }

    /// Refuses to seat `account` in the game of `tx` when it already sits in
    /// [`crate::MAX_UNFINISHED_GAMES`] other unfinished games.
    pub(crate) async fn ensure_room(&self, tx: &mut GameEdit, account: Uuid) -> Result<(), ServiceError> {
        let limit = crate::MAX_UNFINISHED_GAMES;
        if tx.unfinished_games_besides(account).await? >= u64::from(limit) {
            return Err(ServiceError::TooManyGames { limit });
        }
        Ok(())
    }
}
