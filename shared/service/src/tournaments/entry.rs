//! Tournament entry by consent: a player is in a tournament only because they entered it. They
//! enter an announced tournament themselves (before round 1 is paired) and may take the entry
//! back until then; a director's registration is an invitation, which the player accepts (that
//! is their entry, late or not) or declines. Nobody enters, accepts or declines for another
//! ([`consenting`], the one rule every entry change reads), and pairing reads the players alone
//! ([`super::entrants`]), so an invitation nobody accepted is never paired.

use store::{TournamentRecord, TournamentStatus};
use uuid::Uuid;

use super::not_found;
use crate::ports::TournamentEdit;
use crate::{Caller, Service, ServiceError};

/// A player's place in a tournament, as they see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryStatus {
    /// The director invited them; they have not answered.
    Invited,
    /// They entered (themselves, or by accepting): they are paired.
    Entered,
    /// They entered, then withdrew (or were withdrawn): paired no more, results kept.
    Withdrawn,
    /// They declined the director's invitation.
    Declined,
}

/// The one consent rule of an entry: the account whose entry changes is the caller's own.
/// `account`, when a request names one, must be the caller; a director invites, and never
/// enters, accepts or declines for a player.
///
/// # Errors
/// [`ServiceError::NotYourEntry`] for anyone else's account.
pub(crate) fn consenting(caller: &Caller, account: Option<Uuid>) -> Result<Uuid, ServiceError> {
    match account {
        Some(a) if a != caller.account_id() => Err(ServiceError::NotYourEntry),
        _ => Ok(caller.account_id()),
    }
}

/// Where `account` stands in `t`: a player's state, else their invitation's, else nowhere.
pub(crate) fn entry_of(t: &TournamentRecord, account: Uuid) -> Option<EntryStatus> {
    if let Some(p) = t.players.iter().find(|p| p.account_id == account) {
        return Some(if p.withdrawn { EntryStatus::Withdrawn } else { EntryStatus::Entered });
    }
    t.invitations.iter().find(|i| i.account_id == account).and_then(|i| match i.state.as_str() {
        "invited" => Some(EntryStatus::Invited),
        "declined" => Some(EntryStatus::Declined),
        _ => None,
    })
}

/// Whether round 1 has been paired: self-entry and taking an entry back are over.
fn started(t: &TournamentRecord) -> bool {
    t.status != TournamentStatus::Registering
}

impl Service {
    /// Enters the caller in the tournament: accepts their invitation (at any time before the
    /// tournament closes, a late entry starting with no results), or enters them unasked while
    /// it has not started (again, after taking an entry back). Seeded by their rating in the
    /// tournament's variant and speed.
    ///
    /// # Errors
    /// [`ServiceError::NotYourEntry`] when `account` is not the caller;
    /// [`ServiceError::TournamentNotFound`]; [`ServiceError::TournamentState`] once closed;
    /// [`ServiceError::TournamentStarted`] for an entry unasked once round 1 is paired;
    /// [`ServiceError::AlreadyRegistered`] for a player already in.
    pub async fn enter_tournament(&self, caller: &Caller, id: Uuid, account: Option<Uuid>) -> Result<crate::TournamentView, ServiceError> {
        let account = consenting(caller, account)?;
        self.ensure_caller(caller).await?;
        let mut tx = self.entry_tx(id).await?;
        let t = tx.tournament();
        let now = self.now();
        match entry_of(t, account) {
            Some(EntryStatus::Entered) => return Err(ServiceError::AlreadyRegistered),
            Some(EntryStatus::Withdrawn) if started(t) => return Err(ServiceError::TournamentStarted),
            Some(EntryStatus::Withdrawn) => {
                let no = t.players.iter().find(|p| p.account_id == account).map_or(0, |p| p.player_no);
                tx.reenter(no).await?;
            }
            Some(EntryStatus::Invited) => {
                let rating = self.seed_rating(&t.settings, account).await?;
                tx.register(account, rating, now).await?;
                tx.answer_invitation(account, true, now).await?;
            }
            None | Some(EntryStatus::Declined) if started(t) => return Err(ServiceError::TournamentStarted),
            None | Some(EntryStatus::Declined) => {
                let rating = self.seed_rating(&t.settings, account).await?;
                tx.register(account, rating, now).await?;
            }
        }
        self.commit(tx, caller).await
    }

    /// Takes the caller out: declines their invitation (at any time before the tournament
    /// closes), or takes back their entry while the tournament has not started (once it has,
    /// a player leaves by withdrawing, their results kept). Leaving twice changes nothing.
    ///
    /// # Errors
    /// [`ServiceError::NotYourEntry`] when `account` is not the caller;
    /// [`ServiceError::TournamentNotFound`]; [`ServiceError::TournamentState`] once closed;
    /// [`ServiceError::TournamentStarted`] for an entry once round 1 is paired;
    /// [`ServiceError::NotRegistered`] for an account neither in nor invited.
    pub async fn leave_tournament(&self, caller: &Caller, id: Uuid, account: Option<Uuid>) -> Result<crate::TournamentView, ServiceError> {
        let account = consenting(caller, account)?;
        let mut tx = self.entry_tx(id).await?;
        let t = tx.tournament();
        match entry_of(t, account) {
            None => return Err(ServiceError::NotRegistered),
            Some(EntryStatus::Withdrawn | EntryStatus::Declined) => {}
            Some(EntryStatus::Invited) => tx.answer_invitation(account, false, self.now()).await?,
            Some(EntryStatus::Entered) if started(t) => return Err(ServiceError::TournamentStarted),
            Some(EntryStatus::Entered) => {
                let no = t.players.iter().find(|p| p.account_id == account).map_or(0, |p| p.player_no);
                tx.withdraw(no).await?;
            }
        }
        self.commit(tx, caller).await
    }

    /// The tournament locked for a player's own change, refused once closed.
    async fn entry_tx(&self, id: Uuid) -> Result<TournamentEdit, ServiceError> {
        self.rescore(Some(id), i64::MAX).await?;
        let tx = self.tournaments.tournament_for_change(id).await.map_err(not_found)?;
        if tx.tournament().status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed".into()));
        }
        Ok(tx)
    }
}
