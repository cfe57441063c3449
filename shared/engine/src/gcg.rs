//! The game in GCG, the standard game-record format (UTF-8 declared, so Cyrillic works):
//! one line per move with the rack before it, the GCG coordinate, the main word (`.` for tiles
//! already on the board, lower case for blanks), the score and the running total, then the
//! end-of-game rack settlement.

use std::fmt::Write;

use crate::game::EndReason;
use crate::journal::{Action, JournalEntry};
use crate::moves::TileInput;
use crate::replay::ReplayError;
use crate::seat::Seat;
use crate::setup::Setup;
use crate::square::Direction;
use crate::timeline::timeline;

/// The GCG text of a game; `names[seat]` are the players' names, `title` a description line.
///
/// # Errors
/// [`ReplayError`] if the journal does not replay.
pub fn to_gcg(setup: &Setup, journal: &[JournalEntry], names: &[String], title: &str) -> Result<String, ReplayError> {
    let tl = timeline(setup, journal)?;
    let mut out = String::from("#character-encoding UTF-8\n");
    let nick = |seat: usize| format!("p{}", seat + 1);
    for seat in 0..setup.seats {
        let name = names.get(seat).map_or("?", String::as_str).replace(['\n', '\r'], " ");
        let _ = writeln!(out, "#player{} {} {}", seat + 1, nick(seat), name);
    }
    let _ = writeln!(out, "#description {}", title.replace(['\n', '\r'], " "));
    for (k, entry) in journal.iter().enumerate() {
        let seat = entry.seat.index();
        let rack: String = tl.steps[k].racks[seat].concat();
        let total = tl.steps[k + 1].scores[seat] - settlement(&tl, k + 1, seat);
        let body = match &entry.action {
            Action::Play { tiles, words, .. } => {
                let main = words.iter().find(|w| w.main).or(words.first());
                match main {
                    Some(w) => {
                        let (row, col) = (w.start.row() + 1, (b'A' + w.start.col() as u8) as char);
                        let coord = if w.direction == Direction::Across { format!("{row}{col}") } else { format!("{col}{row}") };
                        let word: String = w
                            .word
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
                            .collect();
                        format!("{coord} {word} +{}", entry.score)
                    }
                    None => format!("- +{}", entry.score),
                }
            }
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
        };
        let _ = writeln!(out, ">{}: {rack} {body} {total}", nick(seat));
    }
    // The end-of-game settlement, one line per seat it changed.
    if let Some(last) = tl.steps.last()
        && last.to_move.is_none()
        && let Some(final_entry) = journal.last()
        && final_entry.action != Action::Resign
    {
        let game = crate::replay::replay(setup, journal)?;
        if let Some(end) = game.end() {
            for (seat, adj) in end.adjustments.iter().enumerate().filter(|(_, a)| **a != 0) {
                let racks: String = match end.reason {
                    EndReason::WentOut { seat: out_seat } if out_seat == Seat(seat as u8) => {
                        (0..setup.seats).filter(|&s| s != seat).map(|s| last.racks[s].concat()).collect()
                    }
                    _ => last.racks[seat].concat(),
                };
                let _ = writeln!(out, ">{}: ({racks}) {adj:+} {}", nick(seat), last.scores[seat]);
            }
        }
    }
    Ok(out)
}

/// The end-of-game adjustment included in step `k`'s score of `seat` (0 before the end).
fn settlement(tl: &crate::timeline::Timeline, k: usize, seat: usize) -> i32 {
    let step = &tl.steps[k];
    if step.to_move.is_some() || k + 1 != tl.steps.len() {
        return 0;
    }
    let before = tl.steps[k - 1].scores[seat];
    let moved = step.mv.as_ref().filter(|m| m.entry.seat.index() == seat).map_or(0, |m| m.entry.score);
    step.scores[seat] - before - moved
}
