//! Tournaments on memory: each kept as its record (players, pairings, invitations), the
//! pairings' results read from the games at each read, as the store's statement joins them. A
//! change works on its own copy and writes it, with the round's new games and the games its
//! forfeits withdraw, at its commit, only while the tournament is still at the version it read.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use store::{Conflict, GameStatus, NewGame, NewTournament, PairingRow, StoreError, TournamentInvitation, TournamentPlayer};
use store::{TournamentRecord, TournamentStatus, TournamentSummary};
use uuid::Uuid;

use super::{Kept, MemoryStore};
use crate::ports::{TournamentChange, TournamentEdit, TournamentStore};

/// One tournament as kept: its record (results not filled in) and its version.
pub(super) struct KeptTournament {
    record: TournamentRecord,
    version: u64,
}

impl Kept {
    /// Tournament `id` as a read gives it: the names as the accounts now have them, and each
    /// paired game's status, and once it is finished its players' scores and who won.
    fn tournament(&self, id: Uuid) -> Result<(TournamentRecord, u64), StoreError> {
        let kept = self.tournaments.get(&id).ok_or(StoreError::NotFound)?;
        let mut t = kept.record.clone();
        let name = |account: Uuid| self.accounts.get(&account).map(|a| a.display_name.clone()).unwrap_or_default();
        for p in &mut t.players {
            p.display_name = name(p.account_id);
        }
        for i in &mut t.invitations {
            i.display_name = name(i.account_id);
        }
        let account = |no: u32| t.players.iter().find(|p| p.player_no == no).map(|p| p.account_id);
        let results: Vec<_> = t
            .pairings
            .iter()
            .map(|p| {
                let game = p.game_id.and_then(|g| self.games.get(&g));
                let seat = |no: Option<u32>| {
                    let account = no.and_then(account)?;
                    game?.record.players.iter().position(|s| s.account.as_ref().is_some_and(|a| a.account_id == account))
                };
                let finished = game.filter(|g| g.record.status == GameStatus::Finished);
                let score = |seat: Option<usize>| finished.and(seat).map(|s| finished.and_then(|g| g.scores.get(s).copied()).unwrap_or(0));
                let won = |seat: Option<usize>| finished?.winners.as_ref().map(|w| seat.is_some_and(|s| w.contains(&(s as u8))));
                let (first, second) = (seat(Some(p.first_no)), seat(p.second_no));
                (game.map(|g| g.record.status.id().to_string()), score(first), score(second), won(first), won(second))
            })
            .collect();
        for (p, (status, first_score, second_score, first_won, second_won)) in t.pairings.iter_mut().zip(results) {
            (p.game_status, p.first_score, p.second_score, p.first_won, p.second_won) =
                (status, first_score, second_score, first_won, second_won);
        }
        Ok((t, kept.version))
    }
}

#[async_trait]
impl TournamentStore for MemoryStore {
    async fn create_tournament(&self, t: &NewTournament) -> Result<(), StoreError> {
        let mut kept = self.lock();
        if kept.tournaments.contains_key(&t.tournament_id) {
            return Err(StoreError::Conflict(Conflict::Unique("tournaments_pkey".into())));
        }
        let record = TournamentRecord {
            tournament_id: t.tournament_id,
            settings: t.settings.clone(),
            status: TournamentStatus::Registering,
            round: 0,
            round_started: false,
            director_id: t.director_id,
            created_at: t.created_at,
            updated_at: t.created_at,
            players: Vec::new(),
            pairings: Vec::new(),
            invitations: Vec::new(),
        };
        kept.tournaments.insert(t.tournament_id, KeptTournament { record, version: 0 });
        Ok(())
    }

    async fn tournament(&self, id: Uuid) -> Result<TournamentRecord, StoreError> {
        Ok(self.lock().tournament(id)?.0)
    }

    async fn tournaments(&self, account: Option<Uuid>, limit: u32) -> Result<Vec<TournamentSummary>, StoreError> {
        let kept = self.lock();
        let concerns = |t: &TournamentRecord| {
            account.is_none_or(|a| {
                t.players.iter().any(|p| p.account_id == a) || t.invitations.iter().any(|i| i.account_id == a && i.state == "invited")
            })
        };
        let mut list: Vec<&TournamentRecord> = kept.tournaments.values().map(|k| &k.record).filter(|t| concerns(t)).collect();
        list.sort_by_key(|t| std::cmp::Reverse((t.created_at, t.tournament_id)));
        Ok(list
            .into_iter()
            .take(limit as usize)
            .map(|t| TournamentSummary {
                tournament_id: t.tournament_id,
                name: t.settings.name.clone(),
                variant: t.settings.variant,
                status: t.status,
                round: t.round,
                rounds: t.settings.rounds,
                players: t.players.len() as u32,
                created_at: t.created_at,
            })
            .collect())
    }

    async fn tournament_for_change(&self, id: Uuid) -> Result<TournamentEdit, StoreError> {
        let (record, version) = self.lock().tournament(id)?;
        Ok(Box::new(MemoryTournamentChange { store: self.clone(), record, version, new_games: Vec::new(), forfeited: Vec::new() }))
    }
}

/// A change to one tournament kept by [`MemoryStore`].
struct MemoryTournamentChange {
    store: MemoryStore,
    /// The tournament as read, with this change's steps.
    record: TournamentRecord,
    /// The version read.
    version: u64,
    /// The games the round's start creates, written at the commit.
    new_games: Vec<NewGame>,
    /// The games forfeits withdraw (if still being drawn for or played), at the commit.
    forfeited: Vec<(Uuid, DateTime<Utc>)>,
}

impl MemoryTournamentChange {
    fn pairing(&mut self, round: u32, table: u32) -> Option<&mut PairingRow> {
        self.record.pairings.iter_mut().find(|p| p.round == round && p.table_no == table)
    }

    fn player(&mut self, player_no: u32) -> Option<&mut TournamentPlayer> {
        self.record.players.iter_mut().find(|p| p.player_no == player_no)
    }
}

#[async_trait]
impl TournamentChange for MemoryTournamentChange {
    fn tournament(&self) -> &TournamentRecord {
        &self.record
    }

    async fn register(&mut self, account: Uuid, rating: i32, _now: DateTime<Utc>) -> Result<u32, StoreError> {
        if self.record.players.iter().any(|p| p.account_id == account) {
            return Err(StoreError::Conflict(Conflict::Unique("tournament_players_account".into())));
        }
        let player_no = self.record.players.len() as u32 + 1;
        let player = TournamentPlayer { player_no, account_id: account, display_name: String::new(), rating, withdrawn: false };
        self.record.players.push(player);
        Ok(player_no)
    }

    async fn invite(&mut self, account: Uuid, _now: DateTime<Utc>) -> Result<(), StoreError> {
        // Listed by when invited: an invitation asked again moves to the end.
        self.record.invitations.retain(|i| i.account_id != account);
        let invitation = TournamentInvitation { account_id: account, display_name: String::new(), state: "invited".into() };
        self.record.invitations.push(invitation);
        Ok(())
    }

    async fn answer_invitation(&mut self, account: Uuid, accepted: bool, _now: DateTime<Utc>) -> Result<(), StoreError> {
        for i in self.record.invitations.iter_mut().filter(|i| i.account_id == account) {
            i.state = if accepted { "accepted" } else { "declined" }.into();
        }
        Ok(())
    }

    async fn reenter(&mut self, player_no: u32) -> Result<(), StoreError> {
        if let Some(p) = self.player(player_no) {
            p.withdrawn = false;
        }
        Ok(())
    }

    async fn withdraw(&mut self, player_no: u32) -> Result<(), StoreError> {
        if let Some(p) = self.player(player_no) {
            p.withdrawn = true;
        }
        Ok(())
    }

    async fn pair(&mut self, round: u32, pairings: &[(u32, Option<u32>)], now: DateTime<Utc>) -> Result<(), StoreError> {
        for (table, &(first_no, second_no)) in (1..).zip(pairings) {
            self.record.pairings.push(PairingRow {
                round,
                table_no: table,
                first_no,
                second_no,
                game_id: None,
                forfeit: None,
                game_status: None,
                first_score: None,
                second_score: None,
                first_won: None,
                second_won: None,
            });
        }
        let t = &mut self.record;
        (t.round, t.round_started, t.status, t.updated_at) = (round, false, TournamentStatus::Running, now);
        Ok(())
    }

    async fn start_round(&mut self, games: &[(u32, NewGame)], now: DateTime<Utc>) -> Result<(), StoreError> {
        let round = self.record.round;
        for (table, game) in games {
            if let Some(p) = self.pairing(round, *table) {
                p.game_id = Some(game.game_id);
            }
            self.new_games.push(game.clone());
        }
        (self.record.round_started, self.record.updated_at) = (true, now);
        Ok(())
    }

    async fn forfeit(&mut self, round: u32, table: u32, side: &str, now: DateTime<Utc>) -> Result<(), StoreError> {
        let Some(p) = self.pairing(round, table) else { return Ok(()) };
        p.forfeit = Some(side.to_string());
        if let Some(game) = p.game_id {
            self.forfeited.push((game, now));
        }
        Ok(())
    }

    async fn close(&mut self, now: DateTime<Utc>) -> Result<(), StoreError> {
        (self.record.status, self.record.updated_at) = (TournamentStatus::Closed, now);
        Ok(())
    }

    async fn commit(self: Box<Self>) -> Result<TournamentRecord, StoreError> {
        let this = *self;
        let mut kept = this.store.lock();
        let id = this.record.tournament_id;
        if kept.tournaments.get(&id).map(|t| t.version) != Some(this.version) {
            return Err(StoreError::Conflict(Conflict::Changed));
        }
        // Every game first, so that a game that cannot be created leaves nothing written.
        let created = this.new_games.iter().map(|g| kept.created(g)).collect::<Result<Vec<_>, _>>()?;
        for record in created {
            kept.put(record);
        }
        for (game, at) in this.forfeited {
            let Some(mut record) = kept.games.get(&game).map(|g| g.record.clone()) else { continue };
            if matches!(record.status, GameStatus::Drawing | GameStatus::Active) {
                (record.status, record.turn_deadline, record.draw_deadline, record.updated_at) = (GameStatus::Withdrawn, None, None, at);
                kept.put(record);
            }
        }
        let tournament = kept.tournaments.get_mut(&id).ok_or(StoreError::NotFound)?;
        (tournament.record, tournament.version) = (this.record, this.version + 1);
        Ok(kept.tournament(id)?.0)
    }
}
