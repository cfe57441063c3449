//! What a use case can fail with; the HTTP crate maps each to a status and a code. Every code
//! the service answers with (besides the rules' own) is an [`ErrorCode`].

use games::{GameError, Rejected};
use strum::{EnumCount, IntoStaticStr, VariantArray};
use uuid::Uuid;

/// Every machine-readable code a [`ServiceError`] answers with, except a rules refusal, which
/// carries its family's own code. Each is written as its variant's name in snake_case
/// (`UnknownVariant` is `unknown_variant`). The request faults among them (`unknown_variant`,
/// `bad_opponents`, …, `bad_spectating`: the 400s) are what a [`ServiceError::Invalid`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, VariantArray, EnumCount)]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    /// `unknown_variant`: not a variant the service plays.
    UnknownVariant,
    /// `bad_opponents`: too few or too many opponents, a seat twice, a robot named by account.
    BadOpponents,
    /// `unknown_robot_level`: not easy, medium or hard.
    UnknownRobotLevel,
    /// `bad_turn_seconds`: turn seconds out of range.
    BadTurnSeconds,
    /// `bad_time_control`: a time control out of its bounds, of another family, or given twice.
    BadTimeControl,
    /// `bad_challenge_rule`: a challenge rule the family does not play (the chain has only
    /// void).
    BadChallengeRule,
    /// `bad_rating_range`: a rating range out of 25..=1000, or given for a casual game.
    BadRatingRange,
    /// `rating_out_of_range`: a join of a rated game by a player too far from its opener's rating.
    RatingOutOfRange,
    /// `time_over`: a move after the mover's time ran out (its loss is recorded instead).
    TimeOver,
    /// `bad_cursor`: a lobby cursor this service did not write.
    BadCursor,
    /// `unknown_status`: a game status that does not exist.
    UnknownStatus,
    /// `unknown_turn`: a turn filter other than `mine`.
    UnknownTurn,
    /// `robot_identity`
    RobotIdentity,
    /// `placeholder_identity`
    PlaceholderIdentity,
    /// `not_found`
    NotFound,
    /// `account_not_found`
    AccountNotFound,
    /// `too_many_open_games`
    TooManyOpenGames,
    /// `too_many_games`
    TooManyGames,
    /// `too_many_invitations`
    TooManyInvitations,
    /// `awaiting_acceptance`
    AwaitingAcceptance,
    /// `not_inviter`
    NotInviter,
    /// `idempotency_key_reused`
    IdempotencyKeyReused,
    /// `not_started`
    NotStarted,
    /// `rated_game`: a robot asked to sit in a rated game.
    RatedGame,
    /// `game_withdrawn`
    GameWithdrawn,
    /// `unavailable`
    Unavailable,
    /// `not_your_game`
    NotYourGame,
    /// `stale_move`
    StaleMove,
    /// `conflict`
    Conflict,
    /// `not_open`
    NotOpen,
    /// `already_seated`
    AlreadySeated,
    /// `wrong_family`
    WrongFamily,
    /// `not_finished`
    NotFinished,
    /// `not_invited`
    NotInvited,
    /// `unknown_message`: a WebSocket frame that is not a known message.
    UnknownMessage,
    /// `message_too_large`: a WebSocket message over [`crate::MAX_PUSH_MESSAGE`] bytes.
    MessageTooLarge,
    /// `unknown_connection`: a push message on a connection that is not open (or expired).
    UnknownConnection,
    /// `too_many_connections`: a push connection over the account's cap.
    TooManyConnections,
    /// `bad_tournament`: a tournament's settings out of bounds (name, rounds, draw time,
    /// pairing, a chain game).
    BadTournament,
    /// `not_director`: a director's action by someone who does not direct the tournament.
    NotDirector,
    /// `tournament_not_found`
    TournamentNotFound,
    /// `tournament_state`: an action the tournament's state does not allow now.
    TournamentState,
    /// `already_registered`
    AlreadyRegistered,
    /// `not_registered`
    NotRegistered,
    /// `tournament_started`: entering, or taking back an entry, once round 1 is paired.
    TournamentStarted,
    /// `not_your_entry`: entering, accepting or declining for another player.
    NotYourEntry,
    /// `draw_in_progress`: a move, hint or resignation while the players draw for who starts.
    DrawInProgress,
    /// `nothing_to_draw`: a draw by a player with no tile to draw now.
    NothingToDraw,
    /// `bad_hints`: a game's hints asked out of 0..=20.
    BadHints,
    /// `no_hints_left`: a hint asked by a seat that has taken every hint its game allows.
    NoHintsLeft,
    /// `bad_spectating`: a spectating setting other than standard, always or never.
    BadSpectating,
    /// `internal`
    Internal,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; ErrorCode::COUNT] = *ErrorCode::VARIANTS.first_chunk().unwrap();

    /// The stable snake_case code.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// An identity no token may act as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReservedIdentity {
    /// A robot's account: robots move only inside the service.
    Robot,
    /// The nil UUID, which stands for the empty seat of an open game.
    Placeholder,
}

/// A use case's failure.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The request is well-formed but asks for something impossible (unknown variant, bad seats).
    #[error("{message}")]
    Invalid {
        /// Which request fault: one of the request codes (a 400: `unknown_variant`,
        /// `bad_time_control`, `bad_cursor`, …).
        reason: ErrorCode,
        /// What is wrong.
        message: String,
    },
    /// The caller's identity is one no token may act as.
    #[error("{}", match .0 {
        ReservedIdentity::Robot => "a robot's identity cannot call the service",
        ReservedIdentity::Placeholder => "the placeholder identity cannot call the service",
    })]
    ReservedIdentity(ReservedIdentity),
    /// No such game.
    #[error("not found")]
    NotFound,
    /// No account with this id (an opponent named by account).
    #[error("no account {0}")]
    AccountNotFound(Uuid),
    /// The caller already has as many open games of the variant as one may.
    #[error("you already have {limit} open games of this variant; withdraw one or wait for an opponent")]
    TooManyOpenGames {
        /// How many one may have.
        limit: u32,
    },
    /// The caller already sits in as many unfinished games (open or being played) as one may.
    #[error("you already have {limit} unfinished games; finish, resign or withdraw one first")]
    TooManyGames {
        /// How many one may have.
        limit: u32,
    },
    /// The caller has already sent as many pending invitations to this account as one may.
    #[error("{limit} of your invitations to account {invitee} are waiting already; wait for an answer or withdraw one")]
    TooManyInvitations {
        /// How many one may have pending to one account.
        limit: u32,
        /// The account invited.
        invitee: Uuid,
    },
    /// The game waits for its invited players to accept: nobody moves, no clock runs and
    /// nothing counts until they do.
    #[error("the game starts once every invited player accepts; nothing can be played before")]
    AwaitingAcceptance,
    /// An invited player withdrawing an invitation: only the inviter may; they decline.
    #[error("only the player who sent the invitation may withdraw it; decline it instead")]
    NotInviter,
    /// The account already holds as many live push connections as one may.
    #[error("you already hold {limit} push connections; close one first")]
    TooManyConnections {
        /// How many one may hold.
        limit: u32,
    },
    /// The client move id was already used for another request (a different move, or another
    /// player's): nothing was written.
    #[error("this client_move_id was already used for a different request")]
    IdempotencyKeyReused,
    /// The mover's time ran out before the move arrived: the game is lost on time (recorded as
    /// of the moment it ran out) and the move is not made.
    #[error("your time ran out before this move arrived; the game is lost on time")]
    TimeOver,
    /// The game has no opponent yet: it can be withdrawn, not resigned or timed out.
    #[error("nobody has joined this game yet; withdraw it instead")]
    NotStarted,
    /// A robot asked to take a seat in a rated game, which only humans play.
    #[error("a rated game is played by two humans: a robot cannot take the seat")]
    RatedGame,
    /// A join of a rated game by a player whose rating is too far from its opener's.
    #[error("your rating {rating} is more than {range} from the opener's {opener}")]
    RatingOutOfRange {
        /// The joiner's rating, rounded.
        rating: i32,
        /// The opener's, rounded.
        opener: i32,
        /// The game's range.
        range: u32,
    },
    /// The game was withdrawn by its opener.
    #[error("the game was withdrawn")]
    Withdrawn,
    /// The database cannot be reached now; nothing was written and a retry later may succeed.
    #[error("the service is unavailable; retry shortly")]
    Unavailable {
        /// Whether a connection broke under the request (a retry at once on a fresh connection
        /// may succeed), rather than none being had in time.
        connection_lost: bool,
    },
    /// The caller has no seat in this game.
    #[error("not your game")]
    NotYourGame,
    /// The move was built on a stale state: another move came first.
    #[error("the game has moved on: expected move {expected}, the game is at move {actual}")]
    StaleMove {
        /// The move number the caller expected to make.
        expected: u32,
        /// The game's current move number.
        actual: u32,
    },
    /// The game is not open for joining (already full, finished, or never open).
    #[error("the game is not open")]
    NotOpen,
    /// The caller already has a seat in this game.
    #[error("you are already seated in this game")]
    AlreadySeated,
    /// A rematch, or an analysis, of a game that is not finished: what it needs.
    #[error("{0}")]
    NotFinished(&'static str),
    /// A decline by someone seated but not invited (the inviter withdraws instead), or of a
    /// game no longer waiting for acceptance.
    #[error("you are not invited to this game")]
    NotInvited,
    /// A concurrent request won the race.
    #[error("a concurrent request changed the game; reload and retry")]
    Conflict,
    /// A director's action by someone who does not direct this tournament.
    #[error("only the tournament's director may do this")]
    NotDirector,
    /// No such tournament.
    #[error("no such tournament")]
    TournamentNotFound,
    /// The tournament's state does not allow the action now: what it is and why.
    #[error("{0}")]
    TournamentState(String),
    /// The account is registered in the tournament already.
    #[error("this player is registered already")]
    AlreadyRegistered,
    /// The account is not registered in the tournament.
    #[error("this player is not registered in the tournament")]
    NotRegistered,
    /// The tournament has started (round 1 is paired): nobody enters it on their own, nor
    /// takes back an entry (a player leaves a running tournament by withdrawing).
    #[error("the tournament has started: entries are closed")]
    TournamentStarted,
    /// A player's entry is theirs alone: nobody enters, accepts or declines for them.
    #[error("only the player may enter, accept or decline for themselves")]
    NotYourEntry,
    /// The players are still drawing for who moves first: nothing is played before.
    #[error("the players are still drawing tiles for who moves first")]
    DrawInProgress,
    /// The player has no tile to draw now: drawn this round already, out of a tie-break, or
    /// the draw is over.
    #[error("{0}")]
    NothingToDraw(String),
    /// The seat has taken every hint its game allows (none in a rated game); nothing was
    /// written.
    #[error("{}", if *.allowed == 0 { "this game allows no hints".to_string() } else { format!("you have taken all {} hints this game allows", .allowed) })]
    NoHintsLeft {
        /// Hints the game allows each seat.
        allowed: u32,
    },
    /// The rules refuse the move: the family's code, message and details.
    #[error("{0}")]
    Rejected(Rejected),
    /// The move is of another family's kinds (tiles sent to a chain game, a word to a tile
    /// game); nothing was changed.
    #[error("{0}")]
    WrongFamily(String),
    /// Storage failed.
    #[error("storage failure")]
    Store(#[source] store::StoreError),
    /// A word graph could not be loaded (a deployment fault, not the caller's).
    #[error("word graph unavailable")]
    Lexicon(#[from] games::LexiconError),
    /// A stored game does not replay (corrupt setup or journal).
    #[error("stored game does not replay: {0}")]
    Replay(String),
}

impl ServiceError {
    /// The stable code, or `None` for a rules refusal (its code is the rejection's).
    pub fn code(&self) -> Option<ErrorCode> {
        Some(match self {
            ServiceError::Invalid { reason, .. } => *reason,
            ServiceError::ReservedIdentity(ReservedIdentity::Robot) => ErrorCode::RobotIdentity,
            ServiceError::ReservedIdentity(ReservedIdentity::Placeholder) => ErrorCode::PlaceholderIdentity,
            ServiceError::NotFound => ErrorCode::NotFound,
            ServiceError::AccountNotFound(_) => ErrorCode::AccountNotFound,
            ServiceError::TooManyOpenGames { .. } => ErrorCode::TooManyOpenGames,
            ServiceError::TooManyGames { .. } => ErrorCode::TooManyGames,
            ServiceError::TooManyInvitations { .. } => ErrorCode::TooManyInvitations,
            ServiceError::AwaitingAcceptance => ErrorCode::AwaitingAcceptance,
            ServiceError::NotInviter => ErrorCode::NotInviter,
            ServiceError::TooManyConnections { .. } => ErrorCode::TooManyConnections,
            ServiceError::IdempotencyKeyReused => ErrorCode::IdempotencyKeyReused,
            ServiceError::NotStarted => ErrorCode::NotStarted,
            ServiceError::RatedGame => ErrorCode::RatedGame,
            ServiceError::RatingOutOfRange { .. } => ErrorCode::RatingOutOfRange,
            ServiceError::TimeOver => ErrorCode::TimeOver,
            ServiceError::Withdrawn => ErrorCode::GameWithdrawn,
            ServiceError::Unavailable { .. } => ErrorCode::Unavailable,
            ServiceError::NotYourGame => ErrorCode::NotYourGame,
            ServiceError::StaleMove { .. } => ErrorCode::StaleMove,
            ServiceError::NotOpen => ErrorCode::NotOpen,
            ServiceError::AlreadySeated => ErrorCode::AlreadySeated,
            ServiceError::NotFinished(_) => ErrorCode::NotFinished,
            ServiceError::NotInvited => ErrorCode::NotInvited,
            ServiceError::Conflict => ErrorCode::Conflict,
            ServiceError::NotDirector => ErrorCode::NotDirector,
            ServiceError::TournamentNotFound => ErrorCode::TournamentNotFound,
            ServiceError::TournamentState(_) => ErrorCode::TournamentState,
            ServiceError::AlreadyRegistered => ErrorCode::AlreadyRegistered,
            ServiceError::NotRegistered => ErrorCode::NotRegistered,
            ServiceError::TournamentStarted => ErrorCode::TournamentStarted,
            ServiceError::NotYourEntry => ErrorCode::NotYourEntry,
            ServiceError::DrawInProgress => ErrorCode::DrawInProgress,
            ServiceError::NothingToDraw(_) => ErrorCode::NothingToDraw,
            ServiceError::NoHintsLeft { .. } => ErrorCode::NoHintsLeft,
            ServiceError::WrongFamily(_) => ErrorCode::WrongFamily,
            ServiceError::Rejected(_) => return None,
            ServiceError::Store(_) | ServiceError::Lexicon(_) | ServiceError::Replay(_) => ErrorCode::Internal,
        })
    }
}

impl From<GameError> for ServiceError {
    fn from(e: GameError) -> Self {
        match e {
            GameError::Rejected(r) => ServiceError::Rejected(r),
            e @ GameError::WrongFamily { .. } => ServiceError::WrongFamily(e.to_string()),
            GameError::Lexicon(e) => ServiceError::Lexicon(e),
            GameError::Replay(e) => ServiceError::Replay(e),
            e @ GameError::NoFamily(_) => ServiceError::Replay(e.to_string()),
        }
    }
}

impl From<games::UnknownVariant> for ServiceError {
    fn from(e: games::UnknownVariant) -> Self {
        ServiceError::Invalid { reason: ErrorCode::UnknownVariant, message: e.to_string() }
    }
}

impl From<games::UnknownLevel> for ServiceError {
    fn from(e: games::UnknownLevel) -> Self {
        ServiceError::Invalid { reason: ErrorCode::UnknownRobotLevel, message: e.to_string() }
    }
}

impl From<store::StoreError> for ServiceError {
    fn from(e: store::StoreError) -> Self {
        match e {
            store::StoreError::NotFound => ServiceError::NotFound,
            store::StoreError::Conflict(_) => ServiceError::Conflict,
            store::StoreError::TooManyOpenGames { limit } => ServiceError::TooManyOpenGames { limit },
            store::StoreError::TooManyGames { limit } => ServiceError::TooManyGames { limit },
            store::StoreError::TooManyInvitations { limit, invitee } => ServiceError::TooManyInvitations { limit, invitee },
            store::StoreError::TooManyConnections { limit } => ServiceError::TooManyConnections { limit },
            store::StoreError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "database unavailable");
                ServiceError::Unavailable { connection_lost: false }
            }
            store::StoreError::ConnectionLost(cause) => {
                tracing::warn!(error = %cause, "database connection lost");
                ServiceError::Unavailable { connection_lost: true }
            }
            other => ServiceError::Store(other),
        }
    }
}
