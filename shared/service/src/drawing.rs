//! The manual first-move draw of a tournament game: "player N draws a tile". The game is
//! created `drawing`, its players seated in pairing order; each call of [`Service::draw_tile`]
//! draws one tile for one player from the draw's state rebuilt from the recorded picks
//! (`games::draw_step`, the same draw every game uses, a step at a time). Ties draw again among
//! the tied only. When a leader emerges the seats are put in the draw's order (the leader at seat
//! 0) and the game starts, its clock with it. A player who has not drawn by the game's draw
//! deadline gets the director's default: the server draws for them ([`Service::default_draw`],
//! run by the sweep and by any draw call that comes late).
//!
//! Every call holds the game's row, so two calls race cleanly: one draws, the other finds the
//! state it left. A call may carry an idempotency key (`client_draw_id`): a retry of the same
//! request answers with the game as it is, another request under the key is refused.

use games::{DrawError, Position};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use store::{DrawRow, DrawnBy, GameStatus, GameUpdate};
use uuid::Uuid;

use crate::ports::GameEdit;
use crate::push::{TournamentEvent, TournamentEventKind};
use crate::runtime::Picks;
use crate::view::{GameView, build, participant_of, picks, running};
use crate::{Caller, Service, ServiceError};

/// A request to draw a tile.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawTile {
    /// The client's id for this call: a retry with the same id and body answers again, without
    /// drawing; with another body it is refused.
    #[serde(default)]
    pub client_draw_id: Option<Uuid>,
    /// The player drawn for, by account: the tournament's director drawing for a player
    /// (absent: the caller draws for themselves).
    #[serde(default)]
    pub player: Option<Uuid>,
}

impl Service {
    /// Draws one tile for the caller (or, by the tournament's director, for `player`) in a
    /// tournament game being drawn; the game as the caller sees it after.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`]; [`ServiceError::NotYourGame`] for someone not seated (nor
    /// directing); [`ServiceError::NotDirector`] drawing for another without directing;
    /// [`ServiceError::NothingToDraw`] once the draw is over or when the player has no tile to
    /// draw now; [`ServiceError::IdempotencyKeyReused`].
    #[tracing::instrument(skip(self, caller, req), fields(account = %caller.account_id()))]
    pub async fn draw_tile(&self, caller: &Caller, game_id: Uuid, req: &DrawTile) -> Result<GameView, ServiceError> {
        let mut tx = self.game_store.lock_game(game_id, None, None).await?;
        let hash = draw_hash(caller, req);
        if let Some(key) = req.client_draw_id
            && let Some(first) = tx.keyed_pick(key).await?
        {
            if first.request_hash.as_deref() != Some(&hash[..]) {
                return Err(ServiceError::IdempotencyKeyReused);
            }
            drop(tx);
            return self.game_after_draw(caller, game_id).await;
        }
        let player = req.player.unwrap_or(caller.account_id());
        let drawn_by = if player == caller.account_id() {
            DrawnBy::Player
        } else {
            let tournament = tx.game().tournament_id.ok_or(ServiceError::NotDirector)?;
            let t = self.tournaments.tournament(tournament).await?;
            if !(caller.is_director() && t.director_id == caller.account_id()) {
                return Err(ServiceError::NotDirector);
            }
            DrawnBy::Director
        };
        let participant = participant_of(tx.game(), player).ok_or(if drawn_by == DrawnBy::Player {
            ServiceError::NotYourGame
        } else {
            ServiceError::NothingToDraw("that player has no seat in this game".into())
        })?;
        if tx.game().status != GameStatus::Drawing {
            return Err(ServiceError::NothingToDraw("the draw for who moves first is over".into()));
        }
        if tx.game().draw_deadline.is_some_and(|d| self.now() >= d) {
            // Late: the director's default applies to everyone who has not drawn.
            self.draw_for_the_rest(tx).await?;
            return self.game_after_draw(caller, game_id).await;
        }
        let key = req.client_draw_id.map(|k| (k, hash));
        self.step(&mut tx, participant, drawn_by, key).await?;
        self.settle_draw(tx).await?;
        self.game_after_draw(caller, game_id).await
    }

    /// Applies the default draw to the drawing game `game_id` if its deadline has passed: the
    /// server draws for every player who has not, until a leader emerges. Whether it did.
    ///
    /// # Errors
    /// Storage failures; a recorded draw that does not replay.
    pub(crate) async fn default_draw(&self, game_id: Uuid) -> Result<bool, ServiceError> {
        let tx = self.game_store.lock_game(game_id, None, None).await?;
        if tx.game().status != GameStatus::Drawing || tx.game().draw_deadline.is_none_or(|d| self.now() < d) {
            return Ok(false);
        }
        self.draw_for_the_rest(tx).await?;
        Ok(true)
    }

    async fn draw_for_the_rest(&self, mut tx: GameEdit) -> Result<(), ServiceError> {
        loop {
            let state = games::draw_state(tx.game().variant, tx.game().seats, &picks(tx.game())).map_err(corrupt)?;
            let Some(&next) = state.pending.first() else { break };
            self.step(&mut tx, next, DrawnBy::Server, None).await?;
        }
        self.settle_draw(tx).await
    }

    /// Draws one tile for `participant` and records it.
    async fn step(
        &self,
        tx: &mut GameEdit,
        participant: usize,
        drawn_by: DrawnBy,
        key: Option<(Uuid, [u8; 32])>,
    ) -> Result<(), ServiceError> {
        let (pick, _) =
            games::draw_step(tx.game().variant, tx.game().seats, &picks(tx.game()), participant, &mut Picks(self.runtime.draws.as_ref()))
                .map_err(|e| match e {
                DrawError::Over => ServiceError::NothingToDraw("the draw for who moves first is over".into()),
                DrawError::NotToDraw(_) => ServiceError::NothingToDraw(
                    "no tile to draw now: drawn this round already (waiting for the others), or out of the tie-break".into(),
                ),
                other => corrupt(other),
            })?;
        let row = DrawRow {
            round: pick.round as i16,
            pick_no: pick.pick_no as i16,
            account_id: tx.game().players[participant].account.as_ref().map(|a| a.account_id),
            letter: pick.letter.map(|c| c.to_string()),
            is_blank: pick.is_blank,
            rank: pick.rank,
        };
        tx.record_pick(&row, key, drawn_by, self.now(), false).await?;
        Ok(())
    }

    /// Writes the game after its picks and commits: still drawing, or started with the leader
    /// at seat 0; then tells the players what the draw wants of them.
    async fn settle_draw(&self, mut tx: GameEdit) -> Result<(), ServiceError> {
        let state = games::draw_state(tx.game().variant, tx.game().seats, &picks(tx.game())).map_err(corrupt)?;
        let now = self.now();
        let accounts: Vec<Uuid> = tx.game().players.iter().filter_map(|p| p.account.as_ref().map(|a| a.account_id)).collect();
        let game = self.games.rebuild(tx.game())?;
        let update = match state.leader {
            Some(leader) => {
                let mut seats = accounts.clone();
                seats.rotate_left(leader);
                tx.reseat(&seats).await?;
                let mut record = tx.game().clone();
                record.status = GameStatus::Active;
                record.started_at = Some(now);
                let deadline = running(&record, &game).and_then(|seat| crate::view::tally(&record, &game).deadline(seat));
                GameUpdate {
                    move_count: 0,
                    status: GameStatus::Active,
                    turn_deadline: deadline,
                    started_at: Some(now),
                    finished_at: None,
                    end_reason: None,
                    winners: None,
                    to_move: Some(0),
                    scores: game.scores(),
                }
            }
            None => GameUpdate {
                move_count: 0,
                status: GameStatus::Drawing,
                turn_deadline: None,
                started_at: None,
                finished_at: None,
                end_reason: None,
                winners: None,
                to_move: None,
                scores: game.scores(),
            },
        };
        let (game_id, tournament) = (tx.game().game_id, tx.game().tournament_id);
        let told: Vec<Uuid> = match state.leader {
            Some(_) => accounts.clone(),
            // The pick just made closed a round in a tie: the tied draw again.
            None if tx.game().draws.last().is_some_and(|d| (d.round as u16) < state.round) => {
                state.pending.iter().map(|p| accounts[*p]).collect()
            }
            None => Vec::new(),
        };
        self.games.finish(tx, (&[], &update, &[]), &game).await?;
        if let (Some(tournament_id), false) = (tournament, told.is_empty()) {
            let round = self
                .tournaments
                .tournament(tournament_id)
                .await
                .ok()
                .and_then(|t| t.pairings.iter().find(|p| p.game_id == Some(game_id)).map(|p| p.round));
            let kind = if state.leader.is_some() { TournamentEventKind::DrawOver } else { TournamentEventKind::DrawATile };
            let events: Vec<TournamentEvent> = told
                .into_iter()
                .map(|account| TournamentEvent { kind, tournament_id, round: round.unwrap_or(0), game_id, account })
                .collect();
            self.notifier.told(&events).await;
        }
        Ok(())
    }

    /// The game as the caller sees it after a draw (a director not seated sees it as a
    /// spectator: no rack).
    async fn game_after_draw(&self, caller: &Caller, game_id: Uuid) -> Result<GameView, ServiceError> {
        let (record, game) = self.games.read(game_id).await?;
        let seat = crate::caller::seat_of(&record, caller).ok();
        Ok(build(&record, &game, seat, self.now()))
    }

    /// Applies the default draw to every drawing game past its deadline (at most `limit`); how
    /// many it drew.
    ///
    /// # Errors
    /// Storage failures.
    pub(crate) async fn default_draws(&self, limit: u32) -> Result<u32, ServiceError> {
        let mut done = 0;
        for id in self.store.overdue_draws(self.now(), limit).await? {
            match self.default_draw(id).await {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(e) => tracing::error!(game_id = %id, error = %e, "sweep: the default draw failed"),
            }
        }
        Ok(done)
    }
}

fn corrupt(e: DrawError) -> ServiceError {
    ServiceError::Replay(e.to_string())
}

/// SHA-256 of the caller and the request: the same call hashes the same.
fn draw_hash(caller: &Caller, req: &DrawTile) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"draw");
    hasher.update(caller.account_id().as_bytes());
    hasher.update(req.player.unwrap_or(caller.account_id()).as_bytes());
    hasher.finalize().into()
}
