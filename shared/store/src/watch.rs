//! Who may watch a game: the one rule every read by a stranger and every push to a spectator
//! goes through.

use uuid::Uuid;

use crate::accounts::{AccountKind, Spectating};
use crate::games::Player;

/// What decides whether a game may be watched.
#[derive(Debug, Clone, Copy)]
pub struct Watch<'a> {
    /// Its seats, with each account's setting.
    pub players: &'a [Player],
    /// Who invited the others, for a game that began as an invitation.
    pub invited_by: Option<Uuid>,
    /// The game it is a rematch of.
    pub rematch_of: Option<Uuid>,
    /// Its tournament.
    pub tournament_id: Option<Uuid>,
}

impl Watch<'_> {
    /// Whether a stranger may watch the game: every human seated in it allows it. Under the
    /// `standard` setting a tournament, lobby or robot game may be watched and a private one
    /// (an invitation or a rematch, both arranged between friends) may not; `always` and
    /// `never` allow every game and none. Robots allow everything.
    pub fn allowed(&self) -> bool {
        let private = self.tournament_id.is_none() && (self.invited_by.is_some() || self.rematch_of.is_some());
        self.players.iter().filter_map(|p| p.account.as_ref()).filter(|a| a.kind == AccountKind::Human).all(|a| match a.spectating {
            Spectating::Always => true,
            Spectating::Never => false,
            Spectating::Standard => !private,
        })
    }
}

impl<'a> From<&'a crate::GameRecord> for Watch<'a> {
    fn from(record: &'a crate::GameRecord) -> Watch<'a> {
        Watch {
            players: &record.players,
            invited_by: record.invited_by,
            rematch_of: record.rematch_of,
            tournament_id: record.tournament_id,
        }
    }
}

impl<'a> From<&'a crate::LiveGame> for Watch<'a> {
    fn from(game: &'a crate::LiveGame) -> Watch<'a> {
        Watch { players: &game.players, invited_by: game.invited_by, rematch_of: game.rematch_of, tournament_id: game.tournament_id }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Account;
    use crate::games::Player;

    fn seat(seat: usize, kind: AccountKind, spectating: Spectating) -> Player {
        let account = Account {
            account_id: Uuid::from_u128(seat as u128 + 1),
            display_name: "P".into(),
            kind,
            robot_level: (kind == AccountKind::Robot).then_some(crate::Level::Easy),
            created_at: chrono::DateTime::UNIX_EPOCH,
            spectating,
        };
        Player { seat, account: Some(account), invited: false, hints_used: 0 }
    }

    #[test]
    fn every_human_must_allow_and_the_standard_keeps_private_games_private() {
        use Spectating::{Always, Never, Standard};
        let id = Some(Uuid::from_u128(9));
        // (settings of the two seats, robot second?, invited_by, rematch_of, tournament) → allowed
        let cases = [
            ((Standard, Standard), false, None, None, None, true),
            ((Standard, Standard), false, id, None, None, false),
            ((Standard, Standard), false, None, id, None, false),
            ((Standard, Standard), false, id, None, id, true),
            ((Always, Standard), false, id, None, None, false),
            ((Always, Always), false, id, None, None, true),
            ((Never, Always), false, None, None, None, false),
            ((Never, Standard), false, None, None, id, false),
            ((Standard, Never), true, None, None, None, true),
            ((Always, Never), true, id, None, None, true),
        ];
        for ((a, b), robot, invited_by, rematch_of, tournament_id, allowed) in cases {
            let players = [seat(0, AccountKind::Human, a), seat(1, if robot { AccountKind::Robot } else { AccountKind::Human }, b)];
            let watch = Watch { players: &players, invited_by, rematch_of, tournament_id };
            assert_eq!(watch.allowed(), allowed, "{a:?} {b:?} robot {robot} {invited_by:?} {rematch_of:?} {tournament_id:?}");
        }
    }
}
