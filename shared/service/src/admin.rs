//! Admin views: the replay timeline of any game with its recorded draw, the game in GCG, and an
//! account's games. The caller's admin right is checked by the HTTP layer.

use engine::gcg::to_gcg;
use engine::timeline::{Timeline, timeline};
use engine::{Premium, Setup, Square};
use serde::Serialize;
use store::{Account, AccountGame, GameRecord};
use uuid::Uuid;

use crate::view::{DrawView, draw_view};
use crate::{Service, ServiceError};

/// Everything the replay page shows.
#[derive(Debug, Clone, Serialize)]
pub struct AdminReplay {
    /// The game.
    pub game_id: Uuid,
    /// The variant id.
    pub variant: String,
    /// open, active or finished.
    pub status: String,
    /// Why it ended, if it has.
    pub end_reason: Option<String>,
    /// Seats: id and name (absent while open).
    pub seats: Vec<AdminSeat>,
    /// The recorded first-move draw.
    pub draw: Vec<DrawView>,
    /// Premium of each square, row by row: "tw", "dw", "tl", "dl" or "".
    pub premiums: Vec<&'static str>,
    /// Points of each letter (upper case).
    pub values: std::collections::BTreeMap<String, i32>,
    /// Step 0 (the deal) and one step per move.
    pub timeline: Timeline,
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
}

impl Service {
    /// The replay of any game.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::Replay`] for a journal that does not replay.
    pub async fn admin_replay(&self, game_id: Uuid) -> Result<AdminReplay, ServiceError> {
        let record = self.store.game(game_id).await?;
        let rules = record.variant.rules();
        let timeline = timeline(&setup(&record), &record.journal)?;
        let premiums = Square::all()
            .map(|sq| match rules.layout.premium(sq) {
                Premium::TripleWord => "tw",
                Premium::DoubleWord => "dw",
                Premium::TripleLetter => "tl",
                Premium::DoubleLetter => "dl",
                Premium::None => "",
            })
            .collect();
        Ok(AdminReplay {
            game_id,
            variant: record.variant.id().to_string(),
            status: record.status.id().to_string(),
            end_reason: record.end_reason.clone(),
            seats: seats(&record),
            draw: draw_view(&record),
            premiums,
            values: rules.letters.iter().map(|l| (l.ch.to_string(), i32::from(l.value))).collect(),
            timeline,
        })
    }

    /// The game in GCG.
    ///
    /// # Errors
    /// As [`Service::admin_replay`].
    pub async fn admin_gcg(&self, game_id: Uuid) -> Result<String, ServiceError> {
        let record = self.store.game(game_id).await?;
        let names: Vec<String> = seats(&record).into_iter().map(|s| s.display_name).collect();
        Ok(to_gcg(&setup(&record), &record.journal, &names, &format!("wordgame {} game {}", record.variant.id(), record.game_id))?)
    }

    /// An account and its games.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for an unknown account.
    pub async fn admin_account(&self, account_id: Uuid) -> Result<AdminAccount, ServiceError> {
        let account = self.store.account(account_id).await?;
        let games = self.store.account_games(account_id).await?;
        Ok(AdminAccount { account, games })
    }
}

/// The engine setup a stored game was created with.
pub(crate) fn setup(record: &GameRecord) -> Setup {
    Setup { variant: record.variant, seats: record.seats, seed: record.seed, no_repeat_words: record.no_repeat_words }
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
