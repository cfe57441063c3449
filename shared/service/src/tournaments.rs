//! Tournaments run by a director: create one (variant, time control and challenge rule pinned
//! for every game, rounds, pairing system), invite players (who enter by consent: [`entry`]) and
//! withdraw them, pair each round
//! (`tournament::pair_round`), start it (its games are created `drawing`: the players draw their
//! tiles by hand, see [`crate::drawing`]), record forfeits and close it. Anyone signed in may read
//! a tournament, its pairings and standings, and its results in the standard tournament
//! software's `.t` format. Every change holds the tournament's row, so two directors' clicks
//! apply in turn, and is refused, typed and with nothing written, when the state does not allow it.

use chrono::Duration;
use games::{ChallengeRule, TimeControl, Variant};
use serde::{Deserialize, Serialize};
use store::{AccountKind, GameStatus, NewTournament, PairingRow, TournamentRecord, TournamentSettings, TournamentStatus};
use tournament::{Entrant, GameWinner, Pairing, PairingSystem, RoundGame, Standing, TournamentOutcome};
use uuid::Uuid;

mod entry;

pub use entry::EntryStatus;

use crate::error::ErrorCode;
use crate::ports::TournamentEdit;
use crate::push::{TournamentEvent, TournamentEventKind};
use crate::usecases::{Pinned, checked_challenge_rule, checked_time_control, invalid};
use crate::{Caller, Service, ServiceError};

/// The default time a new game's players have to draw their tiles, in seconds.
pub const DEFAULT_DRAW_SECONDS: u32 = 600;

/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 80;

/// The most tournaments one list returns.
pub const MAX_TOURNAMENT_LIST: u32 = 100;

/// A request to create a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateTournament {
    /// Its name (1 to 80 visible characters).
    pub name: String,
    /// The variant of its games (a tile game).
    pub variant: Variant,
    /// Its games' time control (untimed when not given).
    pub time_control: Option<TimeControl>,
    /// Its games' challenge rule (void when not given).
    pub challenge_rule: Option<ChallengeRule>,
    /// Whether its games are rated.
    pub rated: bool,
    /// The pairing system.
    pub pairing: PairingSystem,
    /// Whether the final round is paired King of the Hill.
    pub king_of_the_hill: bool,
    /// How many rounds (1 to 40).
    pub rounds: u32,
    /// How long a new game's players have to draw before the server draws for them (30 s to
    /// 7 days; 10 minutes when not given).
    pub draw_seconds: Option<u32>,
    /// How many moves behind spectators see its live games (0 to
    /// [`crate::spectators::MAX_SPECTATOR_DELAY`]; 0, live, when not given).
    pub spectator_delay: Option<u32>,
}

/// Which side of a table forfeits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ForfeitSide {
    /// The first player.
    First,
    /// The second player.
    Second,
    /// Both (neither showed).
    Both,
}

impl ForfeitSide {
    fn id(self) -> &'static str {
        self.into()
    }
}

/// A tournament as anyone signed in sees it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TournamentView {
    /// Its id.
    pub tournament_id: Uuid,
    /// What its director chose.
    #[serde(flatten)]
    pub settings: TournamentSettings,
    /// `registering`, `running` or `closed`.
    pub status: TournamentStatus,
    /// The latest round paired (0 before the first).
    pub round: u32,
    /// Whether that round's games were created.
    pub round_started: bool,
    /// Its director.
    pub director_id: Uuid,
    /// Whether the caller directs it.
    pub you_direct: bool,
    /// The players, by number.
    pub players: Vec<store::TournamentPlayer>,
    /// Each round paired so far, in order.
    pub pairings: Vec<RoundView>,
    /// The standings after the games with results.
    pub standings: Vec<StandingView>,
    /// The caller's current pairing, if registered and paired in the latest round.
    pub your_pairing: Option<PairingView>,
    /// The caller's place in it: `invited`, `entered`, `withdrawn`, `declined`, or null.
    pub your_entry: Option<EntryStatus>,
    /// Whether anyone may still enter unasked (no round paired yet).
    pub entries_open: bool,
    /// The director's invitations and their answers: shown to its director only (empty for
    /// anyone else).
    pub invitations: Vec<store::TournamentInvitation>,
}

/// One round's pairings.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RoundView {
    /// The round, from 1.
    pub round: u32,
    /// Its tables, in order.
    pub tables: Vec<PairingView>,
}

/// One table of a round.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PairingView {
    /// The round.
    pub round: u32,
    /// The table, from 1.
    pub table: u32,
    /// The first player's number.
    pub first: u32,
    /// The second player's number; null for a bye.
    pub second: Option<u32>,
    /// The game, once the round has started.
    pub game_id: Option<Uuid>,
    /// Its state (`drawing`, `active`, `finished`, `withdrawn` after a forfeit).
    pub game_status: Option<GameStatus>,
    /// The result, once known.
    pub outcome: Option<TournamentOutcome>,
}

/// A line of the standings.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StandingView {
    /// The rank, from 1.
    pub rank: u32,
    /// The player's number.
    pub player_no: u32,
    /// The account.
    pub account_id: Uuid,
    /// Its display name.
    pub display_name: String,
    /// The seeding rating.
    pub rating: i32,
    /// Games won (byes and forfeit wins included).
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Cumulative spread.
    pub spread: i32,
    /// Games with a result, byes included.
    pub played: u32,
    /// Byes had.
    pub byes: u32,
    /// Withdrawn.
    pub withdrawn: bool,
}

/// A tournament in a list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TournamentSummaryView {
    /// Its id.
    pub tournament_id: Uuid,
    /// Its name.
    pub name: String,
    /// The variant.
    pub variant: Variant,
    /// `registering`, `running` or `closed`.
    pub status: TournamentStatus,
    /// The latest round paired.
    pub round: u32,
    /// How many rounds.
    pub rounds: u32,
    /// Registered players.
    pub players: u32,
}

/// Tournaments, newest first.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TournamentList {
    /// The tournaments.
    pub tournaments: Vec<TournamentSummaryView>,
}

impl Service {
    /// Creates a tournament directed by the caller.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`] unless the caller may direct; [`ServiceError::Invalid`]
    /// (`bad_tournament`, `bad_time_control`, `bad_challenge_rule`) for settings out of bounds.
    pub async fn create_tournament(&self, caller: &Caller, req: &CreateTournament) -> Result<TournamentView, ServiceError> {
        if !caller.is_director() {
            return Err(ServiceError::NotDirector);
        }
        let name = crate::clean_name(&req.name)
            .filter(|n| n.chars().count() <= MAX_TOURNAMENT_NAME && req.name.chars().count() <= MAX_TOURNAMENT_NAME)
            .ok_or_else(|| {
                invalid(ErrorCode::BadTournament, format!("a tournament's name has 1 to {MAX_TOURNAMENT_NAME} visible characters"))
            })?;
        if !games::plays_tournaments(req.variant.family()) {
            return Err(invalid(ErrorCode::BadTournament, format!("tournaments are played in tile games, not {}", req.variant)));
        }
        if !(1..=40).contains(&req.rounds) {
            return Err(invalid(ErrorCode::BadTournament, format!("a tournament has 1 to 40 rounds, not {}", req.rounds)));
        }
        let draw_seconds = req.draw_seconds.unwrap_or(DEFAULT_DRAW_SECONDS);
        if !(30..=604_800).contains(&draw_seconds) {
            return Err(invalid(ErrorCode::BadTournament, format!("draw_seconds must be 30..=604800, not {draw_seconds}")));
        }
        let spectator_delay = req.spectator_delay.unwrap_or(0);
        if spectator_delay > crate::spectators::MAX_SPECTATOR_DELAY {
            let most = crate::spectators::MAX_SPECTATOR_DELAY;
            return Err(invalid(ErrorCode::BadTournament, format!("spectator_delay must be 0..={most} moves, not {spectator_delay}")));
        }
        let time_control = checked_time_control(req.variant, req.time_control, None)?;
        let challenge_rule = checked_challenge_rule(req.variant, req.challenge_rule)?;
        self.ensure_caller(caller).await?;
        let id = self.runtime.ids.id();
        self.tournaments
            .create_tournament(&NewTournament {
                tournament_id: id,
                settings: TournamentSettings {
                    name,
                    variant: req.variant,
                    time_control,
                    challenge_rule,
                    rated: req.rated,
                    pairing: req.pairing,
                    king_of_the_hill: req.king_of_the_hill,
                    rounds: req.rounds,
                    draw_seconds,
                    spectator_delay,
                },
                director_id: caller.account_id(),
                created_at: self.now(),
            })
            .await?;
        self.tournament(caller, id).await
    }

    /// The tournament, its pairings and standings.
    ///
    /// # Errors
    /// [`ServiceError::TournamentNotFound`].
    pub async fn tournament(&self, caller: &Caller, id: Uuid) -> Result<TournamentView, ServiceError> {
        let record = self.scored_tournament(id).await?;
        Ok(view(&record, Some(caller)))
    }

    /// The tournament as an admin sees it (no seat of their own in it).
    ///
    /// # Errors
    /// [`ServiceError::TournamentNotFound`].
    pub async fn admin_tournament(&self, id: Uuid) -> Result<TournamentView, ServiceError> {
        let record = self.scored_tournament(id).await?;
        Ok(view(&record, None))
    }

    /// Tournaments, newest first: all, or only those `player` is registered in.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn tournaments(&self, player: Option<Uuid>) -> Result<TournamentList, ServiceError> {
        let list = self.tournaments.tournaments(player, MAX_TOURNAMENT_LIST).await?;
        Ok(TournamentList {
            tournaments: list
                .into_iter()
                .map(|t| TournamentSummaryView {
                    tournament_id: t.tournament_id,
                    name: t.name,
                    variant: t.variant,
                    status: t.status,
                    round: t.round,
                    rounds: t.rounds,
                    players: t.players,
                })
                .collect(),
        })
    }

    /// Invites `account` (a human): the director's registration, which enters nobody until
    /// the player accepts ([`Service::enter_tournament`]). An invitation the player declined
    /// may be made again.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`]; [`ServiceError::AccountNotFound`];
    /// [`ServiceError::Invalid`] (`bad_tournament`) for a robot;
    /// [`ServiceError::AlreadyRegistered`] for a player already in or invited;
    /// [`ServiceError::TournamentState`] once closed.
    pub async fn register_player(&self, caller: &Caller, id: Uuid, account: Uuid) -> Result<TournamentView, ServiceError> {
        let mut tx = self.directed(caller, id).await?;
        if tx.tournament().status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed".into()));
        }
        let found = self.accounts.account(account).await.map_err(|e| match e {
            store::StoreError::NotFound => ServiceError::AccountNotFound(account),
            other => other.into(),
        })?;
        if found.kind != AccountKind::Human {
            return Err(invalid(ErrorCode::BadTournament, "tournaments are played by people: a robot cannot be registered".into()));
        }
        if matches!(entry::entry_of(tx.tournament(), account), Some(EntryStatus::Entered | EntryStatus::Withdrawn | EntryStatus::Invited)) {
            return Err(ServiceError::AlreadyRegistered);
        }
        tx.invite(account, self.now()).await?;
        self.commit(tx, caller).await
    }

    /// `account`'s seed: their rating in the tournament's variant and speed (a newcomer's
    /// default when they have none).
    async fn seed_rating(&self, settings: &TournamentSettings, account: Uuid) -> Result<i32, ServiceError> {
        let speed = settings.time_control.speed();
        let rating = self
            .accounts
            .ratings_of(account)
            .await?
            .into_iter()
            .find(|r| r.variant == settings.variant && r.speed == speed)
            .map_or(ratings::DEFAULT_RATING, |r| r.rating);
        Ok(rating.round() as i32)
    }

    /// Withdraws `account` from the tournament: it is paired no more, its results stand. The
    /// director, or the player for themselves.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`] for anyone else; [`ServiceError::NotRegistered`];
    /// [`ServiceError::TournamentState`] once closed.
    pub async fn withdraw_player(&self, caller: &Caller, id: Uuid, account: Uuid) -> Result<TournamentView, ServiceError> {
        self.rescore(Some(id), i64::MAX).await?;
        let mut tx = self.tournaments.tournament_for_change(id).await.map_err(not_found)?;
        if !directs(tx.tournament(), caller) && caller.account_id() != account {
            return Err(ServiceError::NotDirector);
        }
        if tx.tournament().status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed".into()));
        }
        let player = tx.tournament().players.iter().find(|p| p.account_id == account).ok_or(ServiceError::NotRegistered)?;
        if !player.withdrawn {
            let no = player.player_no;
            tx.withdraw(no).await?;
        }
        self.commit(tx, caller).await
    }

    /// Pairs the next round by the tournament's system (King of the Hill for the final round
    /// when asked), once every game of the round before has a result.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`]; [`ServiceError::TournamentState`] when closed, when every
    /// round is paired, when the latest round has not started or has games without a result,
    /// or with fewer than two players left.
    pub async fn pair_round(&self, caller: &Caller, id: Uuid) -> Result<TournamentView, ServiceError> {
        let mut tx = self.directed(caller, id).await?;
        let t = tx.tournament();
        if t.status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed".into()));
        }
        if t.round >= t.settings.rounds {
            return Err(ServiceError::TournamentState(format!("all {} rounds are paired", t.settings.rounds)));
        }
        if t.round > 0 && !t.round_started {
            return Err(ServiceError::TournamentState(format!("round {} is paired but not started", t.round)));
        }
        let history = round_games(t);
        if history.iter().any(|g| g.outcome.is_none()) {
            return Err(ServiceError::TournamentState(format!("round {} has games without a result", t.round)));
        }
        let round = t.round + 1;
        let koth = t.settings.king_of_the_hill && round == t.settings.rounds;
        let pairings = tournament::pair_round(t.settings.pairing, &entrants(t), &history, round, koth).map_err(|e| match e {
            tournament::PairingError::TooFewPlayers => ServiceError::TournamentState("fewer than two players are left to pair".into()),
            other => ServiceError::TournamentState(other.to_string()),
        })?;
        let rows: Vec<(u32, Option<u32>)> = pairings.iter().map(|p| (p.first, p.second)).collect();
        tx.pair(round, &rows, self.now()).await?;
        self.commit(tx, caller).await
    }

    /// Starts round `round`, the latest paired: creates its games, each `drawing` until its
    /// players have drawn their tiles, and tells each player their game is ready.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`]; [`ServiceError::TournamentState`] unless `round` is the
    /// latest round and not started.
    pub async fn start_round(&self, caller: &Caller, id: Uuid, round: u32) -> Result<TournamentView, ServiceError> {
        let mut tx = self.directed(caller, id).await?;
        let t = tx.tournament();
        if t.status == TournamentStatus::Closed || round != t.round || round == 0 || t.round_started {
            return Err(ServiceError::TournamentState(format!("round {round} is not the latest round waiting to start")));
        }
        let pinned = Pinned {
            time_control: t.settings.time_control,
            challenge: t.settings.challenge_rule,
            rated: t.settings.rated,
            hints: crate::hints::allowance(t.settings.variant, t.settings.rated, None),
        };
        let deadline = self.now() + Duration::seconds(i64::from(t.settings.draw_seconds));
        let account = |no: u32| t.players.iter().find(|p| p.player_no == no).map(|p| p.account_id);
        let mut games = Vec::new();
        let mut events = Vec::new();
        for p in t.pairings.iter().filter(|p| p.round == round) {
            let (Some(first), Some(second)) = (account(p.first_no), p.second_no.and_then(account)) else { continue };
            let new = store::NewGame {
                tournament_id: Some(t.tournament_id),
                draw_deadline: Some(deadline),
                ..self.new_game(t.settings.variant, GameStatus::Drawing, pinned, vec![Some(first), Some(second)], Vec::new())?
            };
            for player in [first, second] {
                for kind in [TournamentEventKind::RoundReady, TournamentEventKind::DrawATile] {
                    events.push(TournamentEvent { kind, tournament_id: t.tournament_id, round, game_id: new.game_id, account: player });
                }
            }
            games.push((p.table_no, new));
        }
        tx.start_round(&games, self.now()).await?;
        let view = self.commit(tx, caller).await?;
        if !events.is_empty() {
            self.notifier.told(&events).await;
        }
        Ok(view)
    }

    /// Records a forfeit at table `table` of round `round`; a game still being drawn or played
    /// there is withdrawn (no result of its own, no rating change).
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`]; [`ServiceError::TournamentState`] for a table that does
    /// not exist, a bye, or a game that is over.
    pub async fn record_forfeit(
        &self,
        caller: &Caller,
        id: Uuid,
        round: u32,
        table: u32,
        side: ForfeitSide,
    ) -> Result<TournamentView, ServiceError> {
        let mut tx = self.directed(caller, id).await?;
        let t = tx.tournament();
        if t.status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed".into()));
        }
        let pairing = t
            .pairings
            .iter()
            .find(|p| p.round == round && p.table_no == table)
            .ok_or_else(|| ServiceError::TournamentState(format!("round {round} has no table {table}")))?;
        if pairing.second_no.is_none() {
            return Err(ServiceError::TournamentState(format!("table {table} of round {round} is a bye")));
        }
        if pairing.game_status.as_deref() == Some("finished") {
            return Err(ServiceError::TournamentState(format!("the game at table {table} of round {round} is over")));
        }
        tx.forfeit(round, table, side.id(), self.now()).await?;
        self.commit(tx, caller).await
    }

    /// Closes the tournament once every game has a result.
    ///
    /// # Errors
    /// [`ServiceError::NotDirector`]; [`ServiceError::TournamentState`] when closed already or
    /// while games of the latest round have no result.
    pub async fn close_tournament(&self, caller: &Caller, id: Uuid) -> Result<TournamentView, ServiceError> {
        let mut tx = self.directed(caller, id).await?;
        if tx.tournament().status == TournamentStatus::Closed {
            return Err(ServiceError::TournamentState("the tournament is closed already".into()));
        }
        if round_games(tx.tournament()).iter().any(|g| g.outcome.is_none()) {
            return Err(ServiceError::TournamentState("some games have no result yet: record a forfeit or wait".into()));
        }
        tx.close(self.now()).await?;
        self.commit(tx, caller).await
    }

    /// The results so far in the standard tournament software's `.t` format.
    ///
    /// # Errors
    /// [`ServiceError::TournamentNotFound`].
    pub async fn tournament_export(&self, id: Uuid) -> Result<String, ServiceError> {
        let record = self.scored_tournament(id).await?;
        Ok(tournament::tsh_export(&entrants(&record), &round_games(&record)))
    }

    /// The tournament, its finished games' winners all recorded first
    /// ([`Service::rescore`]): what its standings, pairings and export read.
    async fn scored_tournament(&self, id: Uuid) -> Result<TournamentRecord, ServiceError> {
        self.rescore(Some(id), i64::MAX).await?;
        self.tournaments.tournament(id).await.map_err(not_found)
    }

    /// The tournament locked for a change by its director (its finished games' winners
    /// recorded first, as for a read).
    async fn directed(&self, caller: &Caller, id: Uuid) -> Result<TournamentEdit, ServiceError> {
        self.rescore(Some(id), i64::MAX).await?;
        let tx = self.tournaments.tournament_for_change(id).await.map_err(not_found)?;
        if !directs(tx.tournament(), caller) {
            return Err(ServiceError::NotDirector);
        }
        Ok(tx)
    }

    async fn commit(&self, tx: TournamentEdit, caller: &Caller) -> Result<TournamentView, ServiceError> {
        let record = tx.commit().await.map_err(|e| match e {
            store::StoreError::Conflict(_) => ServiceError::Conflict,
            other => other.into(),
        })?;
        Ok(view(&record, Some(caller)))
    }
}

/// Whether `caller` directs `t`: its director, while they hold the role.
fn directs(t: &TournamentRecord, caller: &Caller) -> bool {
    caller.is_director() && t.director_id == caller.account_id()
}

fn not_found(e: store::StoreError) -> ServiceError {
    match e {
        store::StoreError::NotFound => ServiceError::TournamentNotFound,
        other => other.into(),
    }
}

/// The players as pairing, standings and the export see them: those who entered (themselves,
/// or by accepting an invitation), withdrawn ones marked. Invitations are not players, so
/// nothing is paired for anyone who has not entered.
pub(crate) fn entrants(t: &TournamentRecord) -> Vec<Entrant> {
    t.players.iter().map(|p| Entrant { no: p.player_no, name: p.display_name.clone(), rating: p.rating, withdrawn: p.withdrawn }).collect()
}

/// Every pairing with its result as pairing and standings see them.
pub(crate) fn round_games(t: &TournamentRecord) -> Vec<RoundGame> {
    t.pairings
        .iter()
        .map(|p| RoundGame { round: p.round, pairing: Pairing { first: p.first_no, second: p.second_no }, outcome: outcome(p) })
        .collect()
}

/// A table's result: a bye; a forfeit the director recorded; a finished game's result as the
/// game decided it (its recorded winners, [`TournamentOutcome::of_game`]), with its scores for the
/// spread. None while the game is unfinished or its winners are not yet recorded.
pub(crate) fn outcome(p: &PairingRow) -> Option<TournamentOutcome> {
    let Some(second) = p.second_no else { return Some(TournamentOutcome::Bye) };
    match p.forfeit.as_deref() {
        Some("first") => return Some(TournamentOutcome::Forfeit { loser: p.first_no }),
        Some("second") => return Some(TournamentOutcome::Forfeit { loser: second }),
        Some(_) => return Some(TournamentOutcome::DoubleForfeit),
        None => {}
    }
    let winner = GameWinner::of(p.first_won?, p.second_won?)?;
    Some(TournamentOutcome::of_game(p.first_no, second, p.first_score?, p.second_score?, winner))
}

/// The tournament as `viewer` sees it (an admin: nobody's pairing).
fn view(t: &TournamentRecord, viewer: Option<&Caller>) -> TournamentView {
    let games = round_games(t);
    let standings = tournament::standings(&entrants(t), &games);
    let tables: Vec<PairingView> = t
        .pairings
        .iter()
        .zip(&games)
        .map(|(p, g)| PairingView {
            round: p.round,
            table: p.table_no,
            first: p.first_no,
            second: p.second_no,
            game_id: p.game_id,
            game_status: p.game_status.as_deref().and_then(GameStatus::from_id),
            outcome: g.outcome,
        })
        .collect();
    let pairings =
        (1..=t.round).map(|round| RoundView { round, tables: tables.iter().filter(|p| p.round == round).cloned().collect() }).collect();
    let me = viewer.and_then(|c| t.players.iter().find(|p| p.account_id == c.account_id())).map(|p| p.player_no);
    let your_pairing = me.and_then(|no| tables.iter().find(|p| p.round == t.round && (p.first == no || p.second == Some(no))).cloned());
    TournamentView {
        tournament_id: t.tournament_id,
        settings: t.settings.clone(),
        status: t.status,
        round: t.round,
        round_started: t.round_started,
        director_id: t.director_id,
        you_direct: viewer.is_some_and(|c| directs(t, c)),
        players: t.players.clone(),
        pairings,
        standings: standings.iter().map(|s| standing_view(t, s)).collect(),
        your_pairing,
        your_entry: viewer.and_then(|c| entry::entry_of(t, c.account_id())),
        entries_open: t.status == TournamentStatus::Registering,
        invitations: if viewer.is_none_or(|c| directs(t, c)) { t.invitations.clone() } else { Vec::new() },
    }
}

fn standing_view(t: &TournamentRecord, s: &Standing) -> StandingView {
    let player = t.players.iter().find(|p| p.player_no == s.player);
    StandingView {
        rank: s.rank,
        player_no: s.player,
        account_id: player.map(|p| p.account_id).unwrap_or_default(),
        display_name: player.map(|p| p.display_name.clone()).unwrap_or_default(),
        rating: player.map_or(0, |p| p.rating),
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
        spread: s.spread,
        played: s.played,
        byes: s.byes,
        withdrawn: player.is_some_and(|p| p.withdrawn),
    }
}
