//! Admin views: the replay timeline of any game of any family with its recorded draw, a tile
//! game in GCG, and an account's games. The caller's admin right is checked by the HTTP layer.

use chrono::{DateTime, Utc};
use games::{EndReason, Outcome, Position, Timeline, Variant};
use serde::Serialize;
use store::{Account, AccountGame, GameFilter, GameRecord, GameStatus, ListedGame, SpentToken};
use uuid::Uuid;

use crate::lobby::{parse_cursor, write_cursor};
use crate::view::{DrawView, draw_view};
use crate::{Service, ServiceError};

/// Everything the replay page shows.
#[derive(Debug, Clone, Serialize)]
pub struct AdminReplay {
    /// The game.
    pub game_id: Uuid,
    /// The variant.
    pub variant: Variant,
    /// Its lifecycle state.
    pub status: GameStatus,
    /// Why it ended, if it has.
    pub end_reason: Option<EndReason>,
    /// How it ended: the seat concerned, the winners and each seat's settlement.
    pub outcome: Option<Outcome>,
    /// Seats: id and name (absent while open).
    pub seats: Vec<AdminSeat>,
    /// The recorded draw for who moves first.
    pub draw: Vec<DrawView>,
    /// The family's steps: for a tile game the premiums, letter values and timeline; for a
    /// chain its opening and steps.
    #[serde(flatten)]
    pub steps: Timeline,
}

/// A seat on the replay page.
#[derive(Debug, Clone, Serialize)]
pub struct AdminSeat {
    /// The seat.
    pub seat: usize,
    /// Who sits there.
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: String,
}

/// An account's profile page.
#[derive(Debug, Clone)]
pub struct AdminAccount {
    /// The account.
    pub account: Account,
    /// Its games, most recent first.
    pub games: Vec<AccountGame>,
    /// Its ratings and their recent changes.
    pub ratings: crate::AccountRatings,
    /// The opponents it played the most rated games against in the last
    /// [`FREQUENT_PAIR_DAYS`] days, most first, each flagged at [`FREQUENT_PAIR_GAMES`] or
    /// more (rating farming shows as one pair playing rated game after game).
    pub rated_opponents: Vec<RatedOpponentView>,
}

/// The window, in days, over which the admin account page counts rated games per opponent.
pub const FREQUENT_PAIR_DAYS: i64 = 30;
/// Rated games against one opponent in that window from which the page flags the pair.
pub const FREQUENT_PAIR_GAMES: u32 = 10;

/// An opponent on the admin account page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedOpponentView {
    /// The opponent.
    pub account_id: Uuid,
    /// Their name.
    pub display_name: String,
    /// Rated games between the two in the window.
    pub games: u32,
    /// Whether that is [`FREQUENT_PAIR_GAMES`] or more.
    pub flagged: bool,
}

/// Games on one page of the admin's list.
pub const ADMIN_GAMES_PAGE: usize = 50;

/// What the admin's game list looks for, as the page's form sends it.
#[derive(Debug, Clone, Default)]
pub struct AdminGameQuery<'a> {
    /// A variant.
    pub variant: Option<Variant>,
    /// A lifecycle state.
    pub status: Option<GameStatus>,
    /// An account id, or part of a display name.
    pub player: Option<&'a str>,
    /// The previous page's `next_cursor`.
    pub cursor: Option<&'a str>,
}

/// One page of the admin's game list.
#[derive(Debug, Clone)]
pub struct AdminGamesPage {
    /// The games, most recently changed first.
    pub games: Vec<ListedGame>,
    /// The cursor of the next page; absent on the last.
    pub next_cursor: Option<String>,
}

impl Service {
    /// Recent games of any family matching `query`, a page at a time.
    ///
    /// # Errors
    /// [`ServiceError::Invalid`] for a cursor this service did not write (`bad_cursor`).
    pub async fn admin_games(&self, query: &AdminGameQuery<'_>) -> Result<AdminGamesPage, ServiceError> {
        let filter = GameFilter { variant: query.variant, status: query.status, player: query.player.map(str::to_string) };
        let after = query.cursor.filter(|c| !c.is_empty()).map(parse_cursor).transpose()?;
        let mut games = self.store.find_games(&filter, after, ADMIN_GAMES_PAGE as i64 + 1).await?;
        let more = games.len() > ADMIN_GAMES_PAGE;
        games.truncate(ADMIN_GAMES_PAGE);
        let next_cursor = more.then(|| games.last().map(|g| write_cursor(g.updated_at, g.game_id))).flatten();
        Ok(AdminGamesPage { games, next_cursor })
    }

    /// The replay of any game.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::Replay`] for a journal that does not replay.
    pub async fn admin_replay(&self, game_id: Uuid) -> Result<AdminReplay, ServiceError> {
        let (record, game) = self.games.get(game_id).await?;
        Ok(AdminReplay {
            game_id,
            variant: record.variant,
            status: record.status,
            end_reason: record.end_reason,
            outcome: game.outcome(),
            seats: seats(&record),
            draw: draw_view(&record),
            steps: game.timeline()?,
        })
    }

    /// A tile game in GCG (the tile family's export).
    ///
    /// # Errors
    /// As [`Service::admin_replay`]; [`ServiceError::NotFound`] for a chain game.
    pub async fn admin_gcg(&self, game_id: Uuid) -> Result<String, ServiceError> {
        let (record, game) = self.games.get(game_id).await?;
        let names: Vec<String> = seats(&record).into_iter().map(|s| s.display_name).collect();
        let title = format!("wordgame {} game {}", record.variant.id(), record.game_id);
        let id = record.game_id.to_string();
        let header = games::GcgHeader { id: &id, names: &names, title: &title };
        Ok(game.export(&header).ok_or(ServiceError::NotFound)??)
    }

    /// An account and its games.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for an unknown account.
    pub async fn admin_account(&self, account_id: Uuid) -> Result<AdminAccount, ServiceError> {
        let account = self.accounts.account(account_id).await?;
        let games = self.store.account_games(account_id).await?;
        let ratings = self.account_ratings(account_id).await?;
        let since = self.now() - chrono::Duration::days(FREQUENT_PAIR_DAYS);
        let rated_opponents = self
            .store
            .rated_opponents(account_id, since, 10)
            .await?
            .into_iter()
            .map(|o| RatedOpponentView {
                account_id: o.account_id,
                display_name: o.display_name,
                games: o.games,
                flagged: o.games >= FREQUENT_PAIR_GAMES,
            })
            .collect();
        Ok(AdminAccount { account, games, ratings, rated_opponents })
    }
}

fn seats(record: &GameRecord) -> Vec<AdminSeat> {
    record
        .players
        .iter()
        .map(|p| AdminSeat {
            seat: p.seat,
            account_id: p.account.as_ref().map(|a| a.account_id),
            display_name: p.account.as_ref().map_or_else(|| "(open seat)".to_string(), |a| a.display_name.clone()),
        })
        .collect()
}

impl Service {
    /// Signs an admin session out: `session_id` (a digest of its token) is refused from now on,
    /// until `expires_at`, when the token would have expired anyway.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn revoke_admin_session(&self, session_id: &str, expires_at: DateTime<Utc>) -> Result<(), ServiceError> {
        self.store.spend_admin_token(SpentToken::Session, session_id, expires_at, self.now()).await?;
        Ok(())
    }

    /// Whether admin session `session_id` was signed out (and has not expired since).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn admin_session_revoked(&self, session_id: &str) -> Result<bool, ServiceError> {
        Ok(self.store.admin_token_spent(SpentToken::Session, session_id, self.now()).await?)
    }

    /// Redeems one-time sign-in code `jti`, valid until `expires_at`: whether this is its first
    /// use (false: it was redeemed before, by this process or any other).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn redeem_signin_code(&self, jti: &str, expires_at: DateTime<Utc>) -> Result<bool, ServiceError> {
        Ok(self.store.spend_admin_token(SpentToken::SigninCode, jti, expires_at, self.now()).await?)
    }
}
