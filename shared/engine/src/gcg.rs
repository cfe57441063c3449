//! The game in GCG, the standard game-record format (UTF-8 declared, so Cyrillic works).
//!
//! The header names the players (`#player1 p1 Full Name`), the game (`#id wordgame <id>`), the
//! word list (`#lexicon`) and the tile set (`#tile-distribution` with a `#note` of every
//! letter's count and value). Then one line per move with the rack before it: a play
//! `>p1: RACK 8H WORD +N total` (across: row then column; down: column then row; `.` for tiles
//! already on the board, lower case for blanks), an exchange `>p1: RACK -TILES +0 total`, a pass
//! (or a turn lost on time, noted) `>p1: RACK - +0 total`. A resignation and a flag fall are
//! `#note`s. Under a challenge rule: a play challenged off `>p1: RACK -- -N total` (the rack it was
//! made from), a challenge bonus `>p1: RACK (challenge) +5 total`, a turn lost to a challenge
//! (noted) `>p2: RACK - +0 total`, a challenge that cost nothing a `#note`. The rack settlement closes the game: the seat that went out `>p1: (RACKS) +N total`
//! (the tiles left on every other rack), each seat left holding tiles `>p2: RACK (RACK) -N
//! total`; then each overtime penalty in GCG's time-penalty form `>p2: RACK (time) -10 total`.
//! [`read`] reads the format back.

pub mod read;

use std::fmt::Write;

use crate::game::TileEndReason;
use crate::journal::{Action, JournalEntry, JournalTile};
use crate::moves::TileInput;
use crate::replay::ReplayError;
use crate::scoring::WordScore;
use crate::setup::Setup;
use crate::square::Direction;
use crate::timeline::timeline;
use crate::variant::{Rules, TileVariant};

/// What the GCG header says about a game beside its moves.
#[derive(Debug, Clone, Copy)]
pub struct GcgHeader<'a> {
    /// The game's id, written `#id wordgame <id>`.
    pub id: &'a str,
    /// The players' names, by seat.
    pub names: &'a [String],
    /// A description line.
    pub title: &'a str,
}

/// The name of the id authority in `#id`.
pub const ID_AUTHORITY: &str = "wordgame";

/// The word list a variant plays with, as `#lexicon` names it.
pub const fn lexicon_name(variant: TileVariant) -> &'static str {
    match variant {
        TileVariant::ScrabbleEn => "ENABLE2K",
        TileVariant::ScrabbleRu => "OpenCorpora-scrabble-ru",
        TileVariant::Erudit => "OpenCorpora-erudit",
    }
}

/// The GCG nickname of a seat: `p1`..`p4`.
pub fn nick(seat: usize) -> String {
    format!("p{}", seat + 1)
}

/// The GCG text of a game.
///
/// # Errors
/// [`ReplayError`] if the journal does not replay.
pub fn to_gcg(setup: &Setup, journal: &[JournalEntry], header: &GcgHeader<'_>) -> Result<String, ReplayError> {
    // Time penalties follow the end: the moves and the settlement first, then the penalties.
    let moves = journal.iter().position(|e| e.action == Action::TimePenalty).unwrap_or(journal.len());
    let (journal, penalties) = journal.split_at(moves);
    let tl = timeline(setup, journal)?;
    let rules = setup.variant.rules();
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let mut out = String::from("#character-encoding UTF-8\n");
    for seat in 0..setup.seats {
        let name = header.names.get(seat).map_or_else(|| "?".to_string(), |n| one_line(n));
        let _ = writeln!(out, "#player{} {} {name}", seat + 1, nick(seat));
    }
    let _ = writeln!(out, "#id {ID_AUTHORITY} {}", one_line(header.id).replace(' ', "_"));
    let _ = writeln!(out, "#lexicon {}", lexicon_name(setup.variant));
    let _ = writeln!(out, "#tile-distribution {}", setup.variant.id());
    let _ = writeln!(out, "#note tiles (letter count×value): {}", distribution(rules));
    let _ = writeln!(out, "#description {}", one_line(header.title));
    for (k, entry) in journal.iter().enumerate() {
        let seat = entry.seat.index();
        let rack: String = tl.steps[k].racks[seat].concat();
        let total = tl.steps[k + 1].scores[seat] - settlement(&tl, k + 1, seat);
        let body = match &entry.action {
            Action::Play { tiles, words, .. } => match notation(words, tiles) {
                Some((coord, word)) => format!("{coord} {word} +{}", entry.score),
                None => format!("- +{}", entry.score),
            },
            Action::Exchange { tiles } => {
                let t: String = tiles.iter().map(|t| if let TileInput::Letter(c) = t { *c } else { '?' }).collect();
                format!("-{t} +0")
            }
            Action::Pass => "- +0".to_string(),
            Action::Timeout => {
                let _ = writeln!(out, "#note {} ran out of time", nick(seat));
                "- +0".to_string()
            }
            Action::Resign => {
                let _ = writeln!(out, "#note {} resigned", nick(seat));
                continue;
            }
            Action::OutOfTime => {
                let _ = writeln!(out, "#note {} lost on time", nick(seat));
                continue;
            }
            Action::ChallengedOff => {
                // The rack the play was made from, as its own line showed it.
                let before = tl.steps[k.saturating_sub(1)].racks[seat].concat();
                let _ = writeln!(out, ">{}: {before} -- {} {total}", nick(seat), entry.score);
                continue;
            }
            Action::ChallengeBonus => format!("(challenge) +{}", entry.score),
            Action::ChallengeFailed => {
                let _ = writeln!(out, "#note {} challenged; the play stands", nick(seat));
                continue;
            }
            Action::ChallengeTurnLost => {
                let _ = writeln!(out, "#note {} challenged; the play stands and the turn is lost", nick(seat));
                "- +0".to_string()
            }
            Action::Accept | Action::TimePenalty => continue,
        };
        let _ = writeln!(out, ">{}: {rack} {body} {total}", nick(seat));
    }
    let game = crate::replay::replay(setup, journal)?;
    if let (Some(end), Some(last)) = (game.end(), tl.steps.last()) {
        out.push_str(&settlement_lines(end, &last.racks, &last.scores));
        let mut scores = last.scores.clone();
        for p in penalties {
            let seat = p.seat.index();
            scores[seat] += p.score;
            let _ = writeln!(out, ">{}: {} (time) {} {}", nick(seat), last.racks[seat].concat(), p.score, scores[seat]);
        }
    }
    Ok(out)
}

/// The end-of-game lines: the seat that went out first, then each seat penalised for its rack.
fn settlement_lines(end: &crate::game::GameEnd, racks: &[Vec<String>], scores: &[i32]) -> String {
    let mut out = String::new();
    let out_seat = match end.reason {
        TileEndReason::Resigned { .. } | TileEndReason::OutOfTime { .. } => return out,
        TileEndReason::WentOut { seat } => Some(seat.index()),
        TileEndReason::ScorelessTurns => None,
    };
    if let Some(s) = out_seat {
        let others: String = (0..racks.len()).filter(|&o| o != s).map(|o| racks[o].concat()).collect();
        let _ = writeln!(out, ">{}: ({others}) +{} {}", nick(s), end.adjustments[s], scores[s]);
    }
    for (seat, rack) in racks.iter().enumerate().filter(|(s, r)| Some(*s) != out_seat && !r.is_empty()) {
        let rack = rack.concat();
        let _ = writeln!(out, ">{}: {rack} ({rack}) -{} {}", nick(seat), -end.adjustments[seat], scores[seat]);
    }
    out
}

/// Every letter's count and value, then the blanks: `A 9×1 B 2×3 … ? 2×0`.
fn distribution(rules: &Rules) -> String {
    let mut parts: Vec<String> = rules.letters.iter().map(|l| format!("{} {}×{}", l.ch, l.count, l.value)).collect();
    parts.push(format!("? {}×0", rules.blanks));
    parts.join(" ")
}

/// A play as GCG writes it: the main word's coordinate (`8H` across, `H8` down) and the word
/// with `.` for tiles already on the board and lower case for blanks; `None` without a word.
pub fn notation(words: &[WordScore], tiles: &[JournalTile]) -> Option<(String, String)> {
    words.iter().find(|w| w.main).or(words.first()).map(|w| (coordinate(w), word(w, tiles)))
}

/// The GCG coordinate of a word: across `8H` (row, column), down `H8` (column, row).
fn coordinate(w: &WordScore) -> String {
    let (row, col) = (w.start.row() + 1, char::from(b'A' + w.start.col() as u8));
    if w.direction == Direction::Across { format!("{row}{col}") } else { format!("{col}{row}") }
}

/// The main word as GCG writes it: `.` for a tile already on the board, lower case for a blank.
fn word(w: &WordScore, tiles: &[JournalTile]) -> String {
    w.word
        .chars()
        .enumerate()
        .map(|(i, c)| {
            let sq = w.start.step(w.direction, i as isize);
            match tiles.iter().find(|t| Some(t.square) == sq) {
                Some(t) if t.blank => c.to_lowercase().next().unwrap_or(c),
                Some(_) => c,
                None => '.',
            }
        })
        .collect()
}

/// The end-of-game adjustment included in step `k`'s score of `seat` (0 before the end).
fn settlement(tl: &crate::timeline::ReplaySteps, k: usize, seat: usize) -> i32 {
    let step = &tl.steps[k];
    if step.to_move.is_some() || k + 1 != tl.steps.len() {
        return 0;
    }
    let before = tl.steps[k - 1].scores[seat];
    let moved = step.mv.as_ref().filter(|m| m.entry.seat.index() == seat).map_or(0, |m| m.entry.score);
    step.scores[seat] - before - moved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distribution_note_counts_every_tile() {
        let rules = TileVariant::ScrabbleEn.rules();
        let note = distribution(rules);
        assert!(note.starts_with("A 9×1 B 2×3"), "{note}");
        assert!(note.ends_with("? 2×0"), "{note}");
        let total: usize = note.split(' ').skip(1).step_by(2).map(|p| p.split('×').next().unwrap().parse::<usize>().unwrap()).sum();
        assert_eq!(total, rules.tile_count());
    }

    #[test]
    fn lexicon_names_are_single_tokens() {
        for v in TileVariant::ALL {
            assert!(!lexicon_name(v).contains(' '));
        }
    }
}
