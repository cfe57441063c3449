//! The GADDAG walk over one line from one anchor (Gordon's algorithm): left through the reversed
//! prefix, then across the separator to the right. Each play is generated from the leftmost
//! anchor it covers with a tile: going left never places on another anchor.
//!
//! Where the square right of the anchor holds a tile, every play that covers the anchor holds
//! that tile's whole run too, so the walk starts at the run's last tile instead: the board's
//! fixed letters prune the graph first, and rack letters are tried only on prefixes that fit
//! them (starting at the anchor itself would try every reversed prefix the rack can spell
//! before meeting the board). The walk must then reach the anchor before it may end or turn
//! right, so each play is still found once, from the same anchor. Likewise an anchor just right
//! of a run starts at that run's last tile: the walk reads the run leftwards, turns right and
//! places on the anchor first.

use wordgraph::{Graph, Node};

use super::line::Line;
use super::{GeneratedPlay, Sink};
use crate::counts::Counts;
use crate::square::{BOARD_SIZE, Direction};

/// Flag on a placed tile code marking a blank.
pub(crate) const BLANK_FLAG: u8 = 0x80;

/// Scores accumulated along the current partial play.
#[derive(Debug, Clone, Copy)]
struct Acc {
    /// Main word letter points so far (premiums applied under placed tiles).
    main: i32,
    /// Product of the word multipliers under placed tiles.
    mult: i32,
    /// Total of the completed cross-words.
    cross: i32,
    /// Tiles placed.
    placed: u8,
    /// Leftmost square of the word (known once the walk turns right).
    leftmost: u8,
}

/// One anchor's search; with `COUNT`, it counts its graph visits (only `all_counted` asks).
pub(crate) struct Search<'a, S: Sink, const COUNT: bool> {
    pub(crate) graph: &'a Graph<'a>,
    pub(crate) line: &'a Line,
    pub(crate) dir: Direction,
    pub(crate) index: usize,
    pub(crate) rack: Counts,
    /// The letters on the rack (bit = tile code − 1), blanks aside: kept with `rack`.
    pub(crate) rack_letters: u64,
    pub(crate) rack_len: usize,
    pub(crate) rack_size: usize,
    pub(crate) bingo: i32,
    pub(crate) values: &'a [i32; 64],
    pub(crate) anchor: usize,
    /// Where the walk starts: the anchor, or the last tile of the run right of it.
    pub(crate) start: usize,
    pub(crate) left_limit: usize,
    /// Whether the square after `start` is empty or off the board (a word may end at `start`).
    pub(crate) right_open: bool,
    pub(crate) placed: [u8; BOARD_SIZE],
    pub(crate) sink: &'a mut S,
    /// Graph visits so far: one per square the walk tries to fill (the work behind the speed).
    pub(crate) visits: u64,
}

impl<S: Sink, const COUNT: bool> Search<'_, S, COUNT> {
    /// Generates every play whose leftmost placed anchor is `self.anchor`; returns the graph
    /// visits it made.
    pub(crate) fn run(&mut self) -> u64 {
        let acc = Acc { main: 0, mult: 1, cross: 0, placed: 0, leftmost: self.start as u8 };
        self.go(self.start, self.graph.gaddag_root(), acc, true);
        self.visits
    }

    /// The start of the walk for `anchor` on `line`: the last tile of the run just right of
    /// it; else the tile just left of it (the walk goes left through that run, which it cannot
    /// pass, the square beyond being an earlier anchor, and turns right onto the anchor); else
    /// the anchor itself.
    pub(crate) fn start_of(line: &Line, anchor: usize) -> usize {
        let mut end = anchor;
        while end + 1 < BOARD_SIZE && line.tiles[end + 1] != 0 {
            end += 1;
        }
        if end == anchor && anchor > 0 && line.tiles[anchor - 1] != 0 {
            return anchor - 1;
        }
        end
    }

    fn go(&mut self, pos: usize, list: u32, acc: Acc, leftward: bool) {
        if COUNT {
            self.visits += 1;
        }
        let on_board = self.line.tiles[pos];
        if on_board != 0 {
            if let Some(i) = self.graph.find(list, on_board) {
                let acc = Acc { main: acc.main + self.line.values[pos], ..acc };
                self.go_on(pos, self.graph.node(i), acc, leftward);
            }
            return;
        }
        if usize::from(acc.placed) == self.rack_len {
            return;
        }
        // The letters that may go here and that the rack can supply; siblings are in tile
        // order, so the scan stops past the last of them.
        let mask = self.line.cross[pos];
        let blank = self.rack[0] > 0;
        let allowed = if blank { mask } else { mask & self.rack_letters };
        if allowed == 0 {
            return;
        }
        let last = (64 - allowed.leading_zeros()) as u8;
        for (_, node) in self.graph.siblings(list) {
            let t = node.tile();
            if t > last {
                break;
            }
            if t == 0 || allowed & (1u64 << (t - 1)) == 0 {
                continue;
            }
            if self.rack[t as usize] > 0 {
                self.rack[t as usize] -= 1;
                let bit = 1u64 << (t - 1);
                if self.rack[t as usize] == 0 {
                    self.rack_letters &= !bit;
                }
                self.place(pos, t, false, node, acc, leftward);
                self.rack_letters |= bit;
                self.rack[t as usize] += 1;
            }
            if blank {
                self.rack[0] -= 1;
                self.place(pos, t, true, node, acc, leftward);
                self.rack[0] += 1;
            }
        }
    }

    #[inline]
    fn place(&mut self, pos: usize, t: u8, blank: bool, node: Node, acc: Acc, leftward: bool) {
        let value = if blank { 0 } else { self.values[t as usize] };
        let (lm, wm) = (self.line.letter_mult[pos], self.line.word_mult[pos]);
        let acc = Acc {
            main: acc.main + value * lm,
            mult: acc.mult * wm,
            cross: acc.cross + self.line.perp_score[pos] + value * lm * self.line.perp_wm[pos],
            placed: acc.placed + 1,
            ..acc
        };
        self.placed[pos] = t | if blank { BLANK_FLAG } else { 0 };
        self.go_on(pos, node, acc, leftward);
        self.placed[pos] = 0;
    }

    fn go_on(&mut self, pos: usize, node: Node, mut acc: Acc, leftward: bool) {
        let tiles = &self.line.tiles;
        if leftward {
            let left_open = pos == 0 || tiles[pos - 1] == 0;
            // Until the walk has covered the anchor it may neither end nor turn right.
            let covered = pos <= self.anchor;
            if covered && node.accepts() && left_open && self.right_open && acc.placed > 0 {
                self.record(pos, self.start, acc);
            }
            let arc = node.arc();
            if arc == 0 {
                return;
            }
            if pos > 0 && (tiles[pos - 1] != 0 || pos > self.left_limit) {
                self.go(pos - 1, arc, acc, true);
            }
            if covered
                && left_open
                && self.start + 1 < BOARD_SIZE
                && let Some(sep) = self.graph.separator(arc)
            {
                let right = self.graph.node(sep).arc();
                if right != 0 {
                    acc.leftmost = pos as u8;
                    self.go(self.start + 1, right, acc, false);
                }
            }
        } else {
            let right_open = pos + 1 == BOARD_SIZE || tiles[pos + 1] == 0;
            if node.accepts() && right_open && acc.placed > 0 {
                self.record(usize::from(acc.leftmost), pos, acc);
            }
            let arc = node.arc();
            if pos + 1 < BOARD_SIZE && arc != 0 {
                self.go(pos + 1, arc, acc, false);
            }
        }
    }

    fn record(&mut self, start: usize, end: usize, acc: Acc) {
        if acc.placed == 1 && self.dir == Direction::Down {
            // A lone tile that also forms an across word is the across pass's play.
            let pos = (start..=end).find(|&p| self.placed[p] != 0).expect("one tile is placed");
            if self.line.cross_score[pos].is_some() {
                return;
            }
        }
        let bingo = if usize::from(acc.placed) == self.rack_size { self.bingo } else { 0 };
        let score = acc.main * acc.mult + acc.cross + bingo;
        let mut word = [0u8; BOARD_SIZE];
        word[..=end - start].copy_from_slice(&self.placed[start..=end]);
        let start_sq = super::line::square(self.dir, self.index, start);
        let play = GeneratedPlay { score, equity: 0, start: start_sq, direction: self.dir, len: (end - start + 1) as u8, word };
        self.sink.push(play, &self.rack);
    }
}
