//! A seat's hints in a game whose hints are rationed: taking one is one statement, guarded by
//! the game's allowance, so two requests racing for a seat's last hint cannot both have it.

use uuid::Uuid;

use crate::{Store, StoreError};

impl Store {
    /// Counts one more hint taken by `seat` of the game `game_id`, if the game's allowance
    /// (`games.hints_allowed`) leaves it one: the hints the seat has left after this one, or
    /// `None` when it had none left (then nothing is written). A game whose hints are not
    /// rationed (a NULL allowance) counts nothing: `None` as well, so callers take a hint from
    /// a rationed game only.
    ///
    /// # Errors
    /// Database errors.
    pub async fn take_hint(&self, game_id: Uuid, seat: usize) -> Result<Option<u32>, StoreError> {
        let left: Option<i32> = sqlx::query_scalar(
            "UPDATE game_players p SET hints_used = p.hints_used + 1
             FROM games g
             WHERE p.game_id = $1 AND p.seat = $2 AND g.game_id = p.game_id AND p.hints_used < g.hints_allowed
             RETURNING (g.hints_allowed - p.hints_used)::int",
        )
        .bind(game_id)
        .bind(i16::try_from(seat).unwrap_or(i16::MAX))
        .fetch_optional(&self.pool)
        .await?;
        Ok(left.map(|n| u32::try_from(n).unwrap_or(0)))
    }
}
