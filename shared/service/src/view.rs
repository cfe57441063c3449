//! What a player sees of a game: everything public, and their own rack only. A journal entry
//! reaches a player only through [`entry_view`], which decides what that seat may see of it.

use chrono::{DateTime, Utc};
use engine::{Action, EndReason, Game, JournalEntry, RackTile, Seat, TileInput};
use serde::Serialize;
use store::{AccountKind, GameRecord, GameStatus, RobotLevel};
use uuid::Uuid;

/// A game as one player sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// The game's id.
    pub game_id: Uuid,
    /// The variant id.
    pub variant: String,
    /// open, active, finished or withdrawn.
    pub status: GameStatus,
    /// Whether the no-repeat-words rule applies.
    pub no_repeat_words: bool,
    /// Every word played so far (main and cross), upper case, sorted: what the rule compares
    /// (empty when the rule is off).
    pub played_words: Vec<String>,
    /// Seats in order, with names, scores and rack sizes.
    pub seats: Vec<SeatView>,
    /// Tiles on the board.
    pub board: Vec<BoardTile>,
    /// Tiles left in the bag.
    pub bag_size: usize,
    /// The seat to move (absent once the game is over).
    pub to_move: Option<usize>,
    /// Moves so far; a submit names this as `expected_move_no`.
    pub move_count: u32,
    /// When the player to move times out, if the game is timed.
    pub turn_deadline: Option<DateTime<Utc>>,
    /// The last move, as the caller may see it.
    pub last_move: Option<EntryView>,
    /// The caller's seat.
    pub your_seat: Option<usize>,
    /// The caller's rack: letters, `?` for a blank.
    pub your_rack: Option<Vec<String>>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// The recorded first-move draw, once the game is active (empty for games from before it).
    pub draw: Vec<DrawView>,
}

/// Who looks at a journal entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Someone with no seat: sees only what is public.
    Public,
    /// An admin (sees everything).
    Admin,
}

/// A journal entry as one viewer may see it: everything, except that an exchange made by
/// another seat shows only how many tiles went back.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct EntryView {
    /// 0-based position in the journal.
    pub move_no: u32,
    /// Who moved.
    pub seat: Seat,
    /// What they did.
    #[serde(flatten)]
    pub action: ActionView,
    /// Points scored by the move itself.
    pub score: i32,
}

/// What a journalled move did, as a viewer may see it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum ActionView {
    /// A move with nothing hidden (a play, a pass, a resignation, a timeout), as journalled.
    Public(Action),
    /// An exchange: how many tiles went back, always; which, only for its seat and admins.
    Exchange {
        /// Always [`ExchangeKind::Exchange`]: the `kind` every entry carries.
        kind: ExchangeKind,
        /// How many.
        count: usize,
        /// Which.
        #[serde(skip_serializing_if = "Option::is_none")]
        tiles: Option<Vec<TileInput>>,
    },
}

/// The `kind` of an exchange entry.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeKind {
    /// "exchange".
    Exchange,
}

/// What `viewer` may see of `entry`: the one place that decides it.
pub fn entry_view(entry: &JournalEntry, viewer: Viewer) -> EntryView {
    let action = match &entry.action {
        Action::Exchange { tiles } => {
            let sees = match viewer {
                Viewer::Admin => true,
                Viewer::Seat(s) => s == entry.seat,
                Viewer::Public => false,
            };
            ActionView::Exchange { kind: ExchangeKind::Exchange, count: tiles.len(), tiles: sees.then(|| tiles.clone()) }
        }
        public => ActionView::Public(public.clone()),
    };
    EntryView { move_no: entry.move_no, seat: entry.seat, action, score: entry.score }
}

/// One tile of the first-move draw.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DrawView {
    /// Round, from 1.
    pub round: i16,
    /// Pick within the round.
    pub pick_no: i16,
    /// Who drew.
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// The letter drawn (`?` for a blank).
    pub letter: String,
    /// Whether it was a blank.
    pub blank: bool,
    /// −1 for a blank, else the alphabet index; the lowest leads.
    pub rank: i16,
}

/// One seat.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SeatView {
    /// The seat, 0-based; seat 0 moved first.
    pub seat: usize,
    /// Who sits there (absent while open).
    pub account_id: Option<Uuid>,
    /// Their name.
    pub display_name: Option<String>,
    /// human or robot.
    pub kind: Option<AccountKind>,
    /// A robot's level.
    pub robot_level: Option<RobotLevel>,
    /// Score (final once the game is over).
    pub score: i32,
    /// Tiles on the rack.
    pub rack_size: usize,
}

/// A tile on the board.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BoardTile {
    /// Its square, "A1".."O15".
    pub square: String,
    /// The letter it shows.
    pub letter: char,
    /// Whether it is a blank.
    pub blank: bool,
}

/// How a game ended.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// went_out, scoreless_turns or resigned.
    pub reason: String,
    /// The seat that went out or resigned.
    pub seat: Option<usize>,
    /// The winning seats (more than one on a tie).
    pub winners: Vec<usize>,
    /// The end-of-game rack settlement per seat.
    pub adjustments: Vec<i32>,
}

/// The stored name of an end reason.
pub(crate) fn reason_id(reason: EndReason) -> (&'static str, Option<usize>) {
    match reason {
        EndReason::WentOut { seat } => ("went_out", Some(seat.index())),
        EndReason::ScorelessTurns => ("scoreless_turns", None),
        EndReason::Resigned { seat } => ("resigned", Some(seat.index())),
    }
}

/// The view of `record` (rebuilt as `game`) for the caller in `seat`.
pub(crate) fn build(record: &GameRecord, game: &Game, seat: Option<Seat>) -> GameView {
    let rules = game.rules();
    let seats = record
        .players
        .iter()
        .map(|p| SeatView {
            seat: p.seat,
            account_id: p.account.as_ref().map(|a| a.account_id),
            display_name: p.account.as_ref().map(|a| a.display_name.clone()),
            kind: p.account.as_ref().map(|a| a.kind),
            robot_level: p.account.as_ref().and_then(|a| a.robot_level),
            score: game.scores()[p.seat],
            rack_size: game.rack(Seat(p.seat as u8)).len(),
        })
        .collect();
    let board = game
        .board()
        .tiles()
        .map(|(sq, t)| BoardTile { square: sq.to_string(), letter: rules.char_of(t.letter()), blank: t.is_blank() })
        .collect();
    let your_rack = seat.map(|s| {
        game.rack(s)
            .tiles()
            .map(|t| match t {
                RackTile::Letter(l) => rules.char_of(l).to_string(),
                RackTile::Blank => "?".to_string(),
            })
            .collect()
    });
    let result = game.end().map(|end| {
        let (reason, seat) = reason_id(end.reason);
        ResultView {
            reason: reason.to_string(),
            seat,
            winners: game.winners().iter().map(|s| s.index()).collect(),
            adjustments: end.adjustments.clone(),
        }
    });
    GameView {
        game_id: record.game_id,
        variant: record.variant.id().to_string(),
        status: record.status,
        no_repeat_words: record.no_repeat_words,
        played_words: {
            let mut words: Vec<String> = game.played_words().iter().cloned().collect();
            words.sort();
            words
        },
        seats,
        board,
        bag_size: game.bag().len(),
        to_move: (!game.is_over() && record.status != GameStatus::Withdrawn).then(|| game.to_move().index()),
        move_count: game.move_count(),
        turn_deadline: record.turn_deadline,
        last_move: game.journal().last().map(|e| entry_view(e, seat.map_or(Viewer::Public, Viewer::Seat))),
        your_seat: seat.map(Seat::index),
        your_rack,
        result,
        draw: if record.status == GameStatus::Open { Vec::new() } else { draw_view(record) },
    }
}

pub(crate) fn draw_view(record: &GameRecord) -> Vec<DrawView> {
    let name = |id: Option<Uuid>| {
        record.players.iter().filter_map(|p| p.account.as_ref()).find(|a| Some(a.account_id) == id).map(|a| a.display_name.clone())
    };
    record
        .draws
        .iter()
        .map(|d| DrawView {
            round: d.round,
            pick_no: d.pick_no,
            account_id: d.account_id,
            display_name: name(d.account_id),
            letter: d.letter.clone(),
            blank: d.is_blank,
            rank: d.rank,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exchange_shows_its_tiles_only_to_its_seat_and_admins() {
        let entry = JournalEntry {
            move_no: 4,
            seat: Seat(1),
            action: Action::Exchange { tiles: vec![TileInput::Letter('Q'), TileInput::Blank] },
            score: 0,
        };
        let tiles = |v: &EntryView| match &v.action {
            ActionView::Exchange { count, tiles, .. } => (*count, tiles.clone()),
            other => panic!("{other:?}"),
        };
        let full = Some(vec![TileInput::Letter('Q'), TileInput::Blank]);
        assert_eq!(tiles(&entry_view(&entry, Viewer::Seat(Seat(1)))), (2, full.clone()));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Admin)), (2, full));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Seat(Seat(0)))), (2, None));
        assert_eq!(tiles(&entry_view(&entry, Viewer::Public)), (2, None));
        let json = serde_json::to_value(entry_view(&entry, Viewer::Seat(Seat(0)))).unwrap();
        assert_eq!(json, serde_json::json!({"move_no": 4, "seat": 1, "kind": "exchange", "count": 2, "score": 0}));
        let pass = JournalEntry { move_no: 5, seat: Seat(0), action: Action::Pass, score: 0 };
        let json = serde_json::to_value(entry_view(&pass, Viewer::Public)).unwrap();
        assert_eq!(json, serde_json::to_value(&pass).unwrap(), "a public entry shows as journalled");
    }
}
