//! Games, their seats and their journal; the locked read-modify-write of a move. Each concern in
//! a module of its own: the record and its parts (`record`), creating a game (`create`), the
//! lobby's query (`lobby`), the live games' query (`live`), reading a game (`read`) and decoding its row (`rows`), the game read
//! for a change (`transaction`) and that change's write (`finish`), a seat's rationed hints
//! (`hints`). Its lifecycle is [`crate::GameStatus`], which accounts' and other lists read too.

mod create;
mod drawing;
mod finish;
mod hints;
mod live;
mod lobby;
mod rated;
mod read;
mod record;
mod rows;
mod transaction;

pub(crate) use create::insert_game;
pub use create::{Limits, NewGame};
pub use drawing::{DrawnBy, KeyedPick};
pub use finish::{GameUpdate, NewMove, appended};
pub use live::LiveGame;
pub use lobby::OpenGameSummary;
pub use record::{ClientMove, DrawRow, GameRecord, GameStamp, KnownGame, Player, SeatRating, SeatStamp};
pub(crate) use rows::{CHALLENGE_SQL, CONTROL_KIND_SQL, PLAYERS_SQL, SPEED_SQL, challenge_of, players_of, time_control_of, variant_of};
pub use transaction::GameTx;
