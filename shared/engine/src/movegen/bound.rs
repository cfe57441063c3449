//! An upper bound on the score (or equity) of any play generated from one anchor, so a top-N
//! search can take anchors best first and stop when none can beat what it holds.

use super::line::Line;
use crate::rack::Rack;
use crate::square::BOARD_SIZE;
use crate::variant::Rules;

/// The rack's tile values, highest first (blanks 0).
pub(crate) fn rack_values(rules: &Rules, rack: &Rack) -> Vec<i32> {
    let mut v: Vec<i32> = rack.tiles().map(|t| rules.rack_tile_value(t)).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// At least the score of every play from `anchor`; in thousandths plus `leave` when given.
///
/// The reachable span is the anchor plus up to rack-size − 1 empty squares each way (never left
/// past `left_limit`), with every board tile in between. The best rack values go on the best
/// letter premiums, the best word premiums all apply, and every cross-word gets the best tile.
pub(crate) fn anchor_bound(line: &Line, anchor: usize, left_limit: usize, values: &[i32], rules: &Rules, leave: Option<i32>) -> i32 {
    let n = values.len();
    let max_value = values.first().copied().unwrap_or(0);
    let mut lms: Vec<i32> = vec![line.letter_mult[anchor]];
    let mut wms: Vec<i32> = vec![line.word_mult[anchor]];
    let mut crosses: Vec<i32> = Vec::new();
    let push_cross = |pos: usize, crosses: &mut Vec<i32>| {
        if let Some(cs) = line.cross_score[pos] {
            crosses.push((cs + max_value * line.letter_mult[pos]) * line.word_mult[pos]);
        }
    };
    push_cross(anchor, &mut crosses);
    let mut board_points = 0;
    let (mut used, mut pos) = (1, anchor);
    while pos > 0 {
        let p = pos - 1;
        if line.tiles[p] != 0 {
            board_points += line.values[p];
        } else if p < left_limit || used >= n {
            break;
        } else {
            used += 1;
            lms.push(line.letter_mult[p]);
            wms.push(line.word_mult[p]);
            push_cross(p, &mut crosses);
        }
        pos = p;
    }
    let (mut used, mut pos) = (1, anchor);
    while pos + 1 < BOARD_SIZE {
        let p = pos + 1;
        if line.tiles[p] != 0 {
            board_points += line.values[p];
        } else if used >= n {
            break;
        } else {
            used += 1;
            lms.push(line.letter_mult[p]);
            wms.push(line.word_mult[p]);
            push_cross(p, &mut crosses);
        }
        pos = p;
    }
    let empties = lms.len();
    let k = n.min(empties);
    lms.sort_unstable_by(|a, b| b.cmp(a));
    wms.sort_unstable_by(|a, b| b.cmp(a));
    crosses.sort_unstable_by(|a, b| b.cmp(a));
    let letters: i32 = values.iter().zip(&lms).take(k).map(|(v, m)| v * m).sum();
    let word_mult: i32 = wms.iter().take(k).product();
    let cross: i32 = crosses.iter().take(k).sum();
    let bingo = if n >= rules.rack_size && empties >= rules.rack_size { rules.bingo_bonus } else { 0 };
    let score = (board_points + letters) * word_mult + cross + bingo;
    match leave {
        Some(best) => score * 1000 + best,
        None => score,
    }
}
