//! One line of the board (a row for across plays, a column for down plays) prepared for the
//! search: existing tiles, cross-check sets and cross-scores, premiums and anchors.

use wordgraph::Graph;

use crate::board::Board;
use crate::lexicon::tile_code;
use crate::square::{BOARD_SIZE, Direction, Square};
use crate::variant::Rules;

/// Cross-check mask allowing every letter.
pub(crate) const ANY: u64 = u64::MAX;

/// A line as the search sees it.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    /// Tile code (letter index + 1) of the tile on each square, 0 when empty.
    pub(crate) tiles: [u8; BOARD_SIZE],
    /// Points of the tile on each square (0 for a blank or an empty square).
    pub(crate) values: [i32; BOARD_SIZE],
    /// Letters (bit = letter index) that may go on each empty square, given the cross-word.
    pub(crate) cross: [u64; BOARD_SIZE],
    /// Points of the existing tiles of the cross-word through each square; `None` without one.
    pub(crate) cross_score: [Option<i32>; BOARD_SIZE],
    /// Letter multiplier of each square.
    pub(crate) letter_mult: [i32; BOARD_SIZE],
    /// Word multiplier of each square.
    pub(crate) word_mult: [i32; BOARD_SIZE],
    /// Whether each square is an anchor (empty, next to a tile; the centre on an empty board).
    pub(crate) anchor: [bool; BOARD_SIZE],
}

impl Line {
    /// Line `index` (a row for across, a column for down) of `board`.
    pub(crate) fn new(rules: &Rules, graph: &Graph<'_>, board: &Board, dir: Direction, index: usize) -> Line {
        let mut line = Line {
            tiles: [0; BOARD_SIZE],
            values: [0; BOARD_SIZE],
            cross: [ANY; BOARD_SIZE],
            cross_score: [None; BOARD_SIZE],
            letter_mult: [1; BOARD_SIZE],
            word_mult: [1; BOARD_SIZE],
            anchor: [false; BOARD_SIZE],
        };
        let empty_board = board.is_empty();
        for pos in 0..BOARD_SIZE {
            let sq = square(dir, index, pos);
            let premium = rules.layout.premium(sq);
            line.letter_mult[pos] = premium.letter_multiplier();
            line.word_mult[pos] = premium.word_multiplier();
            if let Some(tile) = board.get(sq) {
                line.tiles[pos] = tile_code(tile.letter());
                line.values[pos] = if tile.is_blank() { 0 } else { rules.value(tile.letter()) };
                continue;
            }
            line.anchor[pos] = if empty_board { sq == Square::CENTER } else { board.has_neighbour(sq) };
            if let Some((mask, score)) = cross_check(rules, graph, board, sq, dir.other()) {
                line.cross[pos] = mask;
                line.cross_score[pos] = Some(score);
            }
        }
        line
    }
}

/// The square at `pos` of line `index` along `dir`.
pub(crate) fn square(dir: Direction, index: usize, pos: usize) -> Square {
    match dir {
        Direction::Across => Square::new(index, pos),
        Direction::Down => Square::new(pos, index),
    }
    .expect("line and position are on the board")
}

/// For an empty square with tiles next to it along `perp`: the letters that make the word along
/// `perp` valid, and the points of that word's existing tiles. `None` if no tile adjoins.
fn cross_check(rules: &Rules, graph: &Graph<'_>, board: &Board, sq: Square, perp: Direction) -> Option<(u64, i32)> {
    let before = sq.step(perp, -1).filter(|&s| board.is_occupied(s));
    let after = sq.step(perp, 1).filter(|&s| board.is_occupied(s));
    if before.is_none() && after.is_none() {
        return None;
    }
    let mut score = 0;
    // A cross-word has at most BOARD_SIZE - 1 board tiles: fixed buffers, no allocation.
    let (mut prefix, mut prefix_len) = ([0u8; BOARD_SIZE], 0);
    let mut at = before.map(|b| board.run_start(b, perp));
    while let Some(s) = at.filter(|&s| s != sq) {
        let tile = board.get(s).expect("run squares are occupied");
        prefix[prefix_len] = tile_code(tile.letter());
        prefix_len += 1;
        score += if tile.is_blank() { 0 } else { rules.value(tile.letter()) };
        at = s.step(perp, 1);
    }
    let (mut suffix, mut suffix_len) = ([0u8; BOARD_SIZE], 0);
    let mut at = after;
    while let Some(s) = at {
        let Some(tile) = board.get(s) else { break };
        suffix[suffix_len] = tile_code(tile.letter());
        suffix_len += 1;
        score += if tile.is_blank() { 0 } else { rules.value(tile.letter()) };
        at = s.step(perp, 1);
    }
    let (prefix, suffix) = (&prefix[..prefix_len], &suffix[..suffix_len]);
    Some((cross_mask(graph, prefix, suffix), score))
}

/// The letters `x` that make `prefix x suffix` a word. The fixed letters are walked first, and
/// the shorter side once per candidate letter: through the DAWG (prefix, then each `x`, then the
/// suffix) when the suffix is no longer than the prefix, else through the GADDAG (the suffix
/// reversed, then each `x`, then the prefix reversed), whose full reversed words accept
/// without a separator. A square with only a suffix thus costs one walk, not one per letter.
fn cross_mask(graph: &Graph<'_>, prefix: &[u8], suffix: &[u8]) -> u64 {
    if suffix.len() <= prefix.len() {
        letters_between(graph, graph.dawg_root(), prefix.iter().copied(), suffix.iter().copied())
    } else {
        letters_between(graph, graph.gaddag_root(), suffix.iter().rev().copied(), prefix.iter().rev().copied())
    }
}

/// From `root`, walks `fixed`, then keeps each next letter `x` after which `then` walks to an
/// accepting node.
fn letters_between(graph: &Graph<'_>, root: u32, fixed: impl Iterator<Item = u8>, then: impl Iterator<Item = u8> + Clone) -> u64 {
    let mut list = root;
    for t in fixed {
        match graph.find(list, t) {
            Some(i) => list = graph.node(i).arc(),
            None => return 0,
        }
    }
    let mut mask = 0u64;
    for (_, node) in graph.siblings(list) {
        let x = node.tile();
        if x == 0 {
            // The GADDAG's separator: not a letter.
            continue;
        }
        let (mut accepts, mut next, mut fits) = (node.accepts(), node.arc(), true);
        for t in then.clone() {
            match graph.find(next, t) {
                Some(i) => {
                    accepts = graph.node(i).accepts();
                    next = graph.node(i).arc();
                }
                None => {
                    fits = false;
                    break;
                }
            }
        }
        if fits && accepts {
            mask |= 1u64 << (x - 1);
        }
    }
    mask
}
