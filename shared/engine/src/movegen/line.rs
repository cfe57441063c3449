//! One line of the board (a row for across plays, a column for down plays) prepared for the
//! search: existing tiles, cross-check sets and cross-scores, premiums and anchors.
//!
//! The board is first copied into a [`Grid`] of tile codes and points, with the cross-checks of
//! both directions found per run of tiles (each run walked once, one-letter runs read from a
//! table), so that preparing a line only copies arrays; a line with no tile on it or beside it
//! (no anchor) is not prepared at all.

use wordgraph::Graph;

use crate::board::Board;
use crate::counts::tile_code;
use crate::short_words::ShortWords;
use crate::square::{BOARD_SIZE, Direction, SQUARES, Square};
use crate::variant::Rules;

/// Cross-check mask allowing every letter.
pub(crate) const ANY: u64 = u64::MAX;

/// The board's tiles as codes and points, row-major, and the cross-check of every empty square
/// for each direction of cross-word, for preparing lines.
pub(crate) struct Grid {
    /// Tile code (letter index + 1) per square, 0 when empty.
    codes: [u8; SQUARES],
    /// Points of the tile per square (0 for a blank or an empty square).
    values: [i32; SQUARES],
    /// Per direction of the cross-word (across, down), per square: the letters that make it a
    /// word, [`ANY`] where no tile adjoins along that direction.
    cross: [[u64; SQUARES]; 2],
    /// Per direction and square: the points of the cross-word's board tiles, `None` without one.
    cross_score: [[Option<i32>; SQUARES]; 2],
    /// Tiles per row and per column.
    per_row: [u8; BOARD_SIZE],
    per_col: [u8; BOARD_SIZE],
    empty: bool,
}

impl Grid {
    /// The tiles of `board` and their cross-checks in `graph`.
    pub(crate) fn new(rules: &Rules, graph: &Graph<'_>, short: &ShortWords, board: &Board) -> Grid {
        let mut grid = Grid {
            codes: [0; SQUARES],
            values: [0; SQUARES],
            cross: [[ANY; SQUARES]; 2],
            cross_score: [[None; SQUARES]; 2],
            per_row: [0; BOARD_SIZE],
            per_col: [0; BOARD_SIZE],
            empty: board.is_empty(),
        };
        for (sq, tile) in board.tiles() {
            let i = sq.index();
            grid.codes[i] = tile_code(tile.letter());
            grid.values[i] = if tile.is_blank() { 0 } else { rules.value(tile.letter()) };
            grid.per_row[sq.row()] += 1;
            grid.per_col[sq.col()] += 1;
        }
        for perp in [Direction::Across, Direction::Down] {
            for index in 0..BOARD_SIZE {
                grid.cross_checks(graph, short, perp, index);
            }
        }
        grid
    }

    /// The cross-checks of the empty squares beside the runs of tiles on line `index` along
    /// `perp`. A one-letter run is looked up in `short` (a square between two such runs too).
    /// A longer run W is walked once, reversed, through the GADDAG: the letters x before it are
    /// the accepting children of that node (x W reversed is a full reversed word), the letters
    /// after it the accepting children of its separator (W ^ x). Any other square between two
    /// runs (both sides fixed) is left to [`cross_mask`], once, from the run after it.
    fn cross_checks(&mut self, graph: &Graph<'_>, short: &ShortWords, perp: Direction, index: usize) {
        let k = perp as usize;
        let code = |grid: &Grid, q: usize| grid.codes[at(perp, index, q)];
        let mut q = 0;
        let mut prev: Option<(usize, usize)> = None;
        while q < BOARD_SIZE {
            if code(self, q) == 0 {
                q += 1;
                continue;
            }
            let start = q;
            let mut score = 0;
            while q < BOARD_SIZE && code(self, q) != 0 {
                score += self.values[at(perp, index, q)];
                q += 1;
            }
            let end = q - 1;
            let single = (start == end).then(|| code(self, start));
            let mut run = [0u8; BOARD_SIZE];
            for r in start..=end {
                run[r - start] = code(self, r);
            }
            let run = &run[..=end - start];
            // The GADDAG's node after the run reversed, walked only for a run of two or more.
            let reversed = || run.iter().rev().fold(graph.gaddag_root(), |list, &t| graph.find(list, t).map_or(0, |i| graph.node(i).arc()));
            let mut list = None;
            if start > 0 {
                let i = at(perp, index, start - 1);
                match prev.filter(|&(_, e)| e + 2 == start) {
                    Some((ps, pe)) => {
                        self.cross[k][i] = match single {
                            Some(s) if ps == pe => short.between(code(self, ps), s),
                            _ => {
                                let (mut fixed, mut n) = ([0u8; BOARD_SIZE], 0);
                                for r in (ps..=pe).chain(start..=end) {
                                    fixed[n] = code(self, r);
                                    n += 1;
                                }
                                cross_mask(graph, &fixed[..pe + 1 - ps], &fixed[pe + 1 - ps..n])
                            }
                        };
                        let before: i32 = (ps..=pe).map(|r| self.values[at(perp, index, r)]).sum();
                        self.cross_score[k][i] = Some(before + score);
                    }
                    None => {
                        self.cross[k][i] = match single {
                            Some(t) => short.before(t),
                            None => accepting_children(graph, *list.get_or_insert_with(reversed)),
                        };
                        self.cross_score[k][i] = Some(score);
                    }
                }
            }
            if end + 1 < BOARD_SIZE && !(end + 2 < BOARD_SIZE && code(self, end + 2) != 0) {
                let i = at(perp, index, end + 1);
                self.cross[k][i] = match single {
                    Some(t) => short.after(t),
                    None => {
                        let list = *list.get_or_insert_with(reversed);
                        accepting_children(graph, graph.separator(list).map_or(0, |sep| graph.node(sep).arc()))
                    }
                };
                self.cross_score[k][i] = Some(score);
            }
            prev = Some((start, end));
        }
    }

    /// Whether line `index` along `dir` has an anchor: a tile on it or on a line beside it (on
    /// an empty board, the centre's line).
    pub(crate) fn has_anchor(&self, dir: Direction, index: usize) -> bool {
        if self.empty {
            return index == Square::CENTER.row();
        }
        let counts = match dir {
            Direction::Across => &self.per_row,
            Direction::Down => &self.per_col,
        };
        let lo = index.saturating_sub(1);
        let hi = (index + 1).min(BOARD_SIZE - 1);
        counts[lo..=hi].iter().any(|&n| n > 0)
    }
}

/// The letters (bit = tile code − 1) on the accepting nodes of the sibling list `list`, the
/// separator aside.
fn accepting_children(graph: &Graph<'_>, list: u32) -> u64 {
    if list == 0 {
        return 0;
    }
    graph.siblings(list).filter(|(_, n)| n.tile() != 0 && n.accepts()).fold(0, |m, (_, n)| m | 1u64 << (n.tile() - 1))
}

/// The row-major index of position `pos` on line `index` along `dir`.
#[inline]
const fn at(dir: Direction, index: usize, pos: usize) -> usize {
    match dir {
        Direction::Across => index * BOARD_SIZE + pos,
        Direction::Down => pos * BOARD_SIZE + index,
    }
}

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
    /// Per square, the cross-word's board points times its word multiplier (0 without one).
    pub(crate) perp_score: [i32; BOARD_SIZE],
    /// Per square, the word multiplier a placed tile's cross-word gets (0 without one).
    pub(crate) perp_wm: [i32; BOARD_SIZE],
    /// Letter multiplier of each square.
    pub(crate) letter_mult: [i32; BOARD_SIZE],
    /// Word multiplier of each square.
    pub(crate) word_mult: [i32; BOARD_SIZE],
    /// Whether each square is an anchor (empty, next to a tile; the centre on an empty board).
    pub(crate) anchor: [bool; BOARD_SIZE],
}

impl Line {
    /// Line `index` (a row for across, a column for down) of the board `grid` holds.
    pub(crate) fn new(rules: &Rules, grid: &Grid, dir: Direction, index: usize) -> Line {
        let mut line = Line {
            tiles: [0; BOARD_SIZE],
            values: [0; BOARD_SIZE],
            cross: [ANY; BOARD_SIZE],
            cross_score: [None; BOARD_SIZE],
            perp_score: [0; BOARD_SIZE],
            perp_wm: [0; BOARD_SIZE],
            letter_mult: [1; BOARD_SIZE],
            word_mult: [1; BOARD_SIZE],
            anchor: [false; BOARD_SIZE],
        };
        let perp = dir.other();
        for pos in 0..BOARD_SIZE {
            let i = at(dir, index, pos);
            let premium = rules.layout.premium(Square::from_index(i).expect("lines lie on the board"));
            line.letter_mult[pos] = premium.letter_multiplier();
            line.word_mult[pos] = premium.word_multiplier();
            line.tiles[pos] = grid.codes[i];
            line.values[pos] = grid.values[i];
        }
        if grid.empty {
            line.anchor[Square::CENTER.col()] = index == Square::CENTER.row();
            return line;
        }
        let k = perp as usize;
        for pos in 0..BOARD_SIZE {
            if line.tiles[pos] != 0 {
                continue;
            }
            let i = at(dir, index, pos);
            line.cross[pos] = grid.cross[k][i];
            line.cross_score[pos] = grid.cross_score[k][i];
            if let Some(cs) = line.cross_score[pos] {
                line.perp_score[pos] = cs * line.word_mult[pos];
                line.perp_wm[pos] = line.word_mult[pos];
            }
            line.anchor[pos] = line.cross_score[pos].is_some()
                || (pos > 0 && line.tiles[pos - 1] != 0)
                || (pos + 1 < BOARD_SIZE && line.tiles[pos + 1] != 0);
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
