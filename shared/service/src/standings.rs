//! Ratings as players look them up: their own account (`me`), another account's ratings and
//! recent changes, and the leaderboard of a variant and speed.

use chrono::{DateTime, Utc};
use games::{Speed, Variant};
use ratings::{Rating, periods_in};
use serde::Serialize;
use uuid::Uuid;

use crate::error::ErrorCode;
use crate::usecases::invalid;
use crate::{Caller, Service, ServiceError};

/// The most leaderboard rows one page holds.
pub const MAX_LEADERBOARD_PAGE: usize = 100;
/// How many recent changes an account's ratings show.
const HISTORY: i64 = 20;

/// One rating, as shown: as of now (the deviation grown by the days without a rated game).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RatingView {
    /// The variant.
    pub variant: Variant,
    /// The speed.
    pub speed: Speed,
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation now, rounded.
    pub deviation: i32,
    /// Whether it is provisional (deviation at least 110).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
}

/// One rated game's change to an account's rating.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RatingChangeView {
    /// The game.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// The speed.
    pub speed: Speed,
    /// The rating before, rounded.
    pub before: i32,
    /// The rating after, rounded.
    pub after: i32,
    /// When.
    #[serde(serialize_with = "store::timestamp::millis")]
    pub at: DateTime<Utc>,
}

/// The caller's own account.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MeView {
    /// The account id: what a friend needs to invite the caller.
    pub account_id: Uuid,
    /// The name shown to others.
    pub display_name: String,
    /// Every rating the caller has.
    pub ratings: Vec<RatingView>,
    /// Who may watch the caller's games: `standard`, `always` or `never` (see
    /// [`crate::spectators`]).
    pub spectating: store::Spectating,
}

/// An account's ratings and recent changes.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct AccountRatings {
    /// The account.
    pub account_id: Uuid,
    /// Its name.
    pub display_name: String,
    /// Every rating it has.
    pub ratings: Vec<RatingView>,
    /// Its last rated games' changes, the newest first.
    pub history: Vec<RatingChangeView>,
}

/// A page of the leaderboard.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LeaderboardPage {
    /// The players, best first.
    pub players: Vec<RankedView>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// A leaderboard row.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RankedView {
    /// The player.
    pub account_id: Uuid,
    /// Their name.
    pub display_name: String,
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Rated games played.
    pub games: u32,
}

fn rating_view(r: &store::StoredRating, now: DateTime<Utc>) -> RatingView {
    let kept = Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility };
    let current = kept.after_idle(periods_in((now - r.rated_at).num_seconds()));
    RatingView {
        variant: r.variant,
        speed: r.speed,
        rating: current.rating.round() as i32,
        deviation: current.deviation.round() as i32,
        provisional: current.is_provisional(),
        games: r.games,
    }
}

/// A leaderboard cursor: the last row's rating (its bits) and account.
fn write_cursor(rating: f64, account: Uuid) -> String {
    format!("{:016x}.{}", rating.to_bits(), account.simple())
}

fn parse_cursor(cursor: &str) -> Result<(f64, Uuid), ServiceError> {
    let bad = || invalid(ErrorCode::BadCursor, format!("{cursor:?} is not a cursor this service wrote"));
    let (bits, id) = cursor.split_once('.').ok_or_else(bad)?;
    let rating = f64::from_bits(u64::from_str_radix(bits, 16).map_err(|_| bad())?);
    if !rating.is_finite() || bits.len() != 16 {
        return Err(bad());
    }
    Ok((rating, Uuid::try_parse(id).map_err(|_| bad())?))
}

impl Service {
    /// The caller's own account: its id, name and ratings. The account is made here if it is
    /// new, so the id a newcomer is shown can be invited or registered at once.
    ///
    /// # Errors
    /// [`ServiceError::ReservedIdentity`] for a robot's id; database errors.
    pub async fn me(&self, caller: &Caller) -> Result<MeView, ServiceError> {
        let now = self.now();
        let account = self.ensure_caller(caller).await?;
        let ratings = self.accounts.ratings_of(caller.account_id()).await?;
        Ok(MeView {
            account_id: account.account_id,
            display_name: account.display_name,
            ratings: ratings.iter().map(|r| rating_view(r, now)).collect(),
            spectating: account.spectating,
        })
    }

    /// An account's ratings and its last rated games' changes.
    ///
    /// # Errors
    /// [`ServiceError::AccountNotFound`]; database errors.
    pub async fn account_ratings(&self, account: Uuid) -> Result<AccountRatings, ServiceError> {
        let now = self.now();
        let found = self.accounts.account(account).await.map_err(|e| match e {
            store::StoreError::NotFound => ServiceError::AccountNotFound(account),
            other => other.into(),
        })?;
        let ratings = self.accounts.ratings_of(account).await?;
        let history = self.store.rating_history(account, HISTORY).await?;
        Ok(AccountRatings {
            account_id: account,
            display_name: found.display_name,
            ratings: ratings.iter().map(|r| rating_view(r, now)).collect(),
            history: history
                .iter()
                .map(|c| RatingChangeView {
                    game_id: c.game_id,
                    variant: c.variant,
                    speed: c.speed,
                    before: c.rating_before.round() as i32,
                    after: c.rating_after.round() as i32,
                    at: c.rated_at,
                })
                .collect(),
        })
    }

    /// The established players of `variant` at `speed`, best first, a page at a time.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] (`bad_cursor`) for a cursor this service did not write;
    /// database errors.
    pub async fn leaderboard(
        &self,
        variant: Variant,
        speed: Speed,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<LeaderboardPage, ServiceError> {
        let after = cursor.map(parse_cursor).transpose()?;
        let limit = limit.clamp(1, MAX_LEADERBOARD_PAGE);
        let mut rows = self.store.leaderboard(variant, speed, after, limit as i64 + 1).await?;
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next_cursor = more.then(|| rows.last().map(|r| write_cursor(r.rating.rating, r.rating.account_id))).flatten();
        Ok(LeaderboardPage {
            players: rows
                .iter()
                .map(|r| RankedView {
                    account_id: r.rating.account_id,
                    display_name: r.display_name.clone(),
                    rating: r.rating.rating.round() as i32,
                    deviation: r.rating.deviation.round() as i32,
                    games: r.rating.games,
                })
                .collect(),
            next_cursor,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaderboard_cursors_round_trip_and_foreign_ones_are_refused() {
        let id = Uuid::new_v4();
        assert_eq!(parse_cursor(&write_cursor(1712.25, id)).unwrap(), (1712.25, id));
        for bad in ["", "x", "7ff8000000000000.00000000000000000000000000000000", "12.", "zz.00000000000000000000000000000000"] {
            assert!(parse_cursor(bad).is_err(), "{bad:?}");
        }
    }
}
