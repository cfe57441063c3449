//! A GCG reader, written from the published format description: pragma lines (`#player1 nick
//! Full Name`, `#id authority id`, `#lexicon`, `#title`, `#description`, `#note`,
//! `#character-encoding`, `#tile-distribution`; others kept as they are) and event lines, each
//! `>nick: RACK …` followed by a signed score and the running total:
//!
//! | event | form |
//! |---|---|
//! | play | `>n: RACK 8H WORD +N T` (`.` for a tile already on the board, lower case a blank) |
//! | pass | `>n: RACK - +0 T` |
//! | exchange | `>n: RACK -TILES +0 T` (or the number of tiles) |
//! | phony taken back | `>n: RACK -- -N T` |
//! | challenge bonus | `>n: RACK (challenge) +N T` |
//! | time penalty | `>n: RACK (time) -N T` |
//! | points for going out | `>n: (RACKS) +N T` |
//! | penalty for the last rack | `>n: RACK (RACK) -N T` |
//!
//! Every line is checked: a nickname no `#player` line declared, a malformed token or a total
//! that does not add up is a [`GcgError`] naming the line.

use crate::square::{BOARD_SIZE, Direction};

/// A GCG file as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GcgRecord {
    /// The declared character encoding, if any.
    pub encoding: Option<String>,
    /// The players in `#playerN` order.
    pub players: Vec<GcgPlayer>,
    /// `#id`: the authority and the game's id.
    pub id: Option<(String, String)>,
    /// `#lexicon`.
    pub lexicon: Option<String>,
    /// `#tile-distribution`.
    pub tile_distribution: Option<String>,
    /// `#title`.
    pub title: Option<String>,
    /// `#description`.
    pub description: Option<String>,
    /// Every `#note`, in order.
    pub notes: Vec<String>,
    /// The events in order.
    pub events: Vec<GcgEvent>,
}

/// A `#playerN` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcgPlayer {
    /// The nickname events use.
    pub nick: String,
    /// The full name.
    pub name: String,
}

/// One event line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcgEvent {
    /// The player's index in [`GcgRecord::players`].
    pub player: usize,
    /// The rack before the event (`?` a blank; empty where the form has none).
    pub rack: String,
    /// What happened.
    pub kind: GcgEventKind,
    /// The points it changed the score by (negative for a penalty).
    pub score: i32,
    /// The player's total after it.
    pub total: i32,
}

/// What an event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GcgEventKind {
    /// Tiles placed.
    Play {
        /// The first square's row, 0-based.
        row: usize,
        /// The first square's column, 0-based.
        col: usize,
        /// Across or down.
        direction: Direction,
        /// The word as written: `.` for a tile already on the board, lower case for a blank.
        word: String,
    },
    /// A pass (or a turn lost).
    Pass,
    /// Tiles exchanged: their letters, or only their number.
    Exchange {
        /// The tiles, when named.
        tiles: Option<String>,
        /// How many.
        count: usize,
    },
    /// A phony withdrawn.
    PhonyReturned,
    /// A challenge bonus.
    ChallengeBonus,
    /// A time penalty.
    TimePenalty,
    /// Points for going out: the tiles left on the other racks.
    EndRackPoints {
        /// The other racks' tiles.
        racks: String,
    },
    /// The penalty for tiles left on the rack at the end.
    LastRackPenalty,
}

/// A placed tile of a play: its square, its letter (upper case) and whether it was a blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GcgTile {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// The letter it shows, upper case.
    pub letter: char,
    /// Whether it is a blank.
    pub blank: bool,
}

impl GcgEventKind {
    /// The tiles a play placed (nothing for other events).
    pub fn placed(&self) -> Vec<GcgTile> {
        let GcgEventKind::Play { row, col, direction, word } = self else { return Vec::new() };
        word.chars()
            .enumerate()
            .filter(|(_, c)| *c != '.')
            .map(|(i, c)| {
                let (row, col) = if *direction == Direction::Across { (*row, col + i) } else { (row + i, *col) };
                GcgTile { row, col, letter: c.to_uppercase().next().unwrap_or(c), blank: c.is_lowercase() }
            })
            .collect()
    }
}

/// A line the reader refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("GCG line {line}: {kind}")]
pub struct GcgError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub kind: GcgErrorKind,
}

/// What is wrong with a GCG line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GcgErrorKind {
    /// A line neither a pragma (`#`) nor an event (`>`).
    #[error("neither a pragma nor an event")]
    UnknownLine,
    /// A `#playerN` line without a nickname and a name, or out of order.
    #[error("malformed #player line")]
    Player,
    /// An event by a nickname no `#player` line declared.
    #[error("unknown player {0:?}")]
    UnknownPlayer(String),
    /// An event line whose tokens match no event form.
    #[error("malformed event {0:?}")]
    Event(String),
    /// A coordinate off the board or of neither form.
    #[error("bad coordinate {0:?}")]
    Coordinate(String),
    /// A play that runs off the board or places no tile.
    #[error("play {0:?} does not fit the board")]
    Word(String),
    /// The total is not the player's previous total plus the score.
    #[error("total {total} is not {previous} {score:+}")]
    Total {
        /// The written total.
        total: i32,
        /// The player's total before.
        previous: i32,
        /// The event's score.
        score: i32,
    },
}

/// Reads a GCG file.
///
/// # Errors
/// [`GcgError`] for the first line that is not GCG.
pub fn read(text: &str) -> Result<GcgRecord, GcgError> {
    let mut rec = GcgRecord::default();
    let mut totals: Vec<i32> = Vec::new();
    for (n, raw) in text.split(['\n', '\r']).enumerate() {
        let line = raw.trim();
        let err = |kind| GcgError { line: n + 1, kind };
        if line.is_empty() {
            continue;
        }
        if let Some(pragma) = line.strip_prefix('#') {
            let (key, rest) = pragma.split_once(char::is_whitespace).map_or((pragma, ""), |(k, r)| (k, r.trim()));
            pragma_line(&mut rec, key, rest).map_err(err)?;
            totals.resize(rec.players.len(), 0);
        } else if let Some(event) = line.strip_prefix('>') {
            let ev = event_line(&rec, event).map_err(err)?;
            let previous = totals[ev.player];
            if previous + ev.score != ev.total {
                return Err(err(GcgErrorKind::Total { total: ev.total, previous, score: ev.score }));
            }
            totals[ev.player] = ev.total;
            rec.events.push(ev);
        } else {
            return Err(err(GcgErrorKind::UnknownLine));
        }
    }
    Ok(rec)
}

fn pragma_line(rec: &mut GcgRecord, key: &str, rest: &str) -> Result<(), GcgErrorKind> {
    if let Some(k) = key.strip_prefix("player") {
        let index: usize = k.parse().map_err(|_| GcgErrorKind::Player)?;
        let (nick, name) = rest.split_once(char::is_whitespace).ok_or(GcgErrorKind::Player)?;
        if index != rec.players.len() + 1 || rec.players.iter().any(|p| p.nick == nick) {
            return Err(GcgErrorKind::Player);
        }
        rec.players.push(GcgPlayer { nick: nick.to_string(), name: name.trim().to_string() });
        return Ok(());
    }
    let value = Some(rest.to_string());
    match key {
        "character-encoding" => rec.encoding = value,
        "id" => rec.id = rest.split_once(char::is_whitespace).map(|(a, b)| (a.to_string(), b.trim().to_string())),
        "lexicon" => rec.lexicon = value,
        "tile-distribution" => rec.tile_distribution = value,
        "title" => rec.title = value,
        "description" => rec.description = value,
        "note" => rec.notes.push(rest.to_string()),
        _ => {}
    }
    Ok(())
}

fn event_line(rec: &GcgRecord, event: &str) -> Result<GcgEvent, GcgErrorKind> {
    let (nick, rest) = event.split_once(':').ok_or_else(|| GcgErrorKind::Event(event.to_string()))?;
    let player =
        rec.players.iter().position(|p| p.nick == nick.trim()).ok_or_else(|| GcgErrorKind::UnknownPlayer(nick.trim().to_string()))?;
    let t: Vec<&str> = rest.split_whitespace().collect();
    let bad = || GcgErrorKind::Event(event.to_string());
    let (Some(score), Some(total)) = (t.len().checked_sub(2).and_then(|i| signed(t[i])), t.last().and_then(|s| s.parse::<i32>().ok()))
    else {
        return Err(bad());
    };
    let head = &t[..t.len() - 2];
    let positive = t[t.len() - 2].starts_with('+');
    let paren = |s: &str| s.strip_prefix('(').and_then(|s| s.strip_suffix(')')).map(str::to_string);
    let (rack, kind) = match head {
        // A bonus to a player whose rack is empty (it went out) before the rack points, which
        // share its one-token shape.
        ["(challenge)"] if positive => (String::new(), GcgEventKind::ChallengeBonus),
        [racks] if positive => (String::new(), GcgEventKind::EndRackPoints { racks: paren(racks).ok_or_else(bad)? }),
        [rack, "-"] if score == 0 => (rack.to_string(), GcgEventKind::Pass),
        [rack, "--"] if !positive => (rack.to_string(), GcgEventKind::PhonyReturned),
        [rack, "(challenge)"] if positive => (rack.to_string(), GcgEventKind::ChallengeBonus),
        [rack, "(time)"] if !positive => (rack.to_string(), GcgEventKind::TimePenalty),
        ["(time)"] if !positive => (String::new(), GcgEventKind::TimePenalty),
        [rack, left] if !positive && paren(left).as_deref() == Some(*rack) => (rack.to_string(), GcgEventKind::LastRackPenalty),
        [rack, ex] if score == 0 && ex.starts_with('-') => {
            let tiles = &ex[1..];
            let kind = match tiles.parse::<usize>() {
                Ok(count) => GcgEventKind::Exchange { tiles: None, count },
                Err(_) => GcgEventKind::Exchange { tiles: Some(tiles.to_string()), count: tiles.chars().count() },
            };
            (rack.to_string(), kind)
        }
        [rack, coord, word] if positive => (rack.to_string(), play(coord, word)?),
        _ => return Err(bad()),
    };
    Ok(GcgEvent { player, rack, kind, score, total })
}

/// `+N` or `-N`.
fn signed(s: &str) -> Option<i32> {
    let (sign, digits) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<i32>().ok().map(|n| sign * n)
}

fn play(coord: &str, word: &str) -> Result<GcgEventKind, GcgErrorKind> {
    let bad = || GcgErrorKind::Coordinate(coord.to_string());
    let first = coord.chars().next().ok_or_else(bad)?;
    let (direction, letter, number) = if first.is_ascii_digit() {
        let split = coord.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        (Direction::Across, &coord[split..], &coord[..split])
    } else {
        (Direction::Down, &coord[..1], &coord[1..])
    };
    let row = number.parse::<usize>().ok().filter(|r| (1..=BOARD_SIZE).contains(r)).ok_or_else(bad)? - 1;
    let col = match letter.as_bytes() {
        [c @ b'A'..=b'Z'] | [c @ b'a'..=b'z'] => usize::from(c.to_ascii_uppercase() - b'A'),
        _ => return Err(bad()),
    };
    if col >= BOARD_SIZE {
        return Err(bad());
    }
    let len = word.chars().count();
    let end = if direction == Direction::Across { col + len } else { row + len };
    if len == 0 || end > BOARD_SIZE || word.chars().all(|c| c == '.') || word.chars().any(|c| c != '.' && !c.is_alphabetic()) {
        return Err(GcgErrorKind::Word(word.to_string()));
    }
    Ok(GcgEventKind::Play { row, col, direction, word: word.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "#character-encoding UTF-8\n#player1 ann Ann Example\n#player2 bob Bob\n#id wordgame 42\n#lexicon ENABLE2K\n\
>ann: AEINRST 8D RETAINS +66 66\n>bob: ?ABCDEF H4 BEAD.d +24 24\n>ann: XYZ -XZ +0 66\n>bob: QQ - +0 24\n>ann: (QQ) +20 86\n>bob: QQ (QQ) -20 4\n";

    #[test]
    fn every_event_form_reads() {
        let rec = read(GAME).unwrap();
        assert_eq!(rec.players[1], GcgPlayer { nick: "bob".into(), name: "Bob".into() });
        assert_eq!(rec.id, Some(("wordgame".into(), "42".into())));
        assert_eq!(rec.lexicon.as_deref(), Some("ENABLE2K"));
        let kinds: Vec<&GcgEventKind> = rec.events.iter().map(|e| &e.kind).collect();
        assert!(matches!(kinds[0], GcgEventKind::Play { row: 7, col: 3, direction: Direction::Across, .. }));
        assert!(matches!(kinds[1], GcgEventKind::Play { row: 3, col: 7, direction: Direction::Down, .. }));
        assert_eq!(kinds[2], &GcgEventKind::Exchange { tiles: Some("XZ".into()), count: 2 });
        assert_eq!(kinds[3], &GcgEventKind::Pass);
        assert_eq!(kinds[4], &GcgEventKind::EndRackPoints { racks: "QQ".into() });
        assert_eq!(kinds[5], &GcgEventKind::LastRackPenalty);
        assert_eq!((rec.events[5].score, rec.events[5].total), (-20, 4));
        let placed = kinds[1].placed();
        assert_eq!(placed.len(), 5, "the played-through tile is not placed");
        assert_eq!(placed[4], GcgTile { row: 8, col: 7, letter: 'D', blank: true });
    }

    #[test]
    fn cyrillic_blanks_read_lower_case() {
        let rec = read("#player1 a A\n#player2 b B\n>a: ??ОТКРЫ 8H коТ +2 2\n").unwrap();
        let placed = rec.events[0].kind.placed();
        assert_eq!(placed.iter().map(|t| (t.letter, t.blank)).collect::<Vec<_>>(), [('К', true), ('О', true), ('Т', false)]);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("#player1 a A\n>z: AB 8H AB +4 4\n", GcgErrorKind::UnknownPlayer("z".into())),
            ("#player1 a A\n>a: AB 8H AB +4 5\n", GcgErrorKind::Total { total: 5, previous: 0, score: 4 }),
            ("#player1 a A\n>a: AB 16H AB +4 4\n", GcgErrorKind::Coordinate("16H".into())),
            ("#player1 a A\n>a: AB 8P AB +4 4\n", GcgErrorKind::Coordinate("8P".into())),
            ("#player1 a A\n>a: AB 8N ABC +4 4\n", GcgErrorKind::Word("ABC".into())),
            ("#player1 a A\n>a: (U) -1 -1\n", GcgErrorKind::Event("a: (U) -1 -1".into())),
            ("#player2 a A\n", GcgErrorKind::Player),
            ("#player1 a A\nplain text\n", GcgErrorKind::UnknownLine),
        ];
        for (text, kind) in cases {
            assert_eq!(read(text), Err(GcgError { line: 2.min(text.lines().count()), kind }), "{text}");
        }
    }
}
