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
//!
//! The direction is a type parameter and runs of board tiles are followed in a loop, so the
//! recursion only enters empty squares, and the walk reads the graph's nodes as a plain slice.

use wordgraph::Node;

use super::bound::Tail;
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

/// The node for `tile` in the sibling list starting at `list` (0: none), if any.
#[inline(always)]
fn find(nodes: &[u32], list: u32, tile: u8) -> Option<Node> {
    if list == 0 {
        return None;
    }
    for &raw in &nodes[list as usize..] {
        let node = Node(raw);
        if node.tile() == tile {
            return Some(node);
        }
        if node.is_end() || node.tile() > tile {
            return None;
        }
    }
    None
}

/// The empty squares a walk that must place a number of tiles still has room for: left of each
/// square (back to the left limit) and right of the start, each up to the first square that no
/// rack tile fits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Room {
    /// By square `p` from the left limit to the start: the empty squares from `p` leftwards.
    left: [u8; BOARD_SIZE],
    /// The empty squares right of the start.
    right: u8,
}

impl Room {
    /// The room on `line` for a walk from `start` that may not go left of `left_limit`, for a
    /// rack of `letters` and blanks standing for `fills` (0 without a blank).
    pub(crate) fn new(line: &Line, left_limit: usize, start: usize, letters: u64, fills: u64) -> Room {
        let fits = |p: usize| line.cross[p] & (letters | fills) != 0;
        let mut room = Room { left: [0; BOARD_SIZE], right: 0 };
        let mut run = 0u8;
        for p in left_limit..=start {
            if line.tiles[p] == 0 {
                run = if fits(p) { run + 1 } else { 0 };
            }
            room.left[p] = run;
        }
        for p in start + 1..BOARD_SIZE {
            if line.tiles[p] != 0 {
                continue;
            }
            if !fits(p) {
                break;
            }
            room.right += 1;
        }
        room
    }
}

/// One anchor's search; with `COUNT`, it counts its graph visits (only `all_counted` asks).
pub(crate) struct Search<'a, S: Sink, const COUNT: bool> {
    /// The GADDAG's nodes.
    pub(crate) nodes: &'a [u32],
    pub(crate) line: &'a Line,
    pub(crate) dir: Direction,
    pub(crate) index: usize,
    pub(crate) rack: Counts,
    /// The letters on the rack (bit = tile code − 1), blanks aside: kept with `rack`.
    pub(crate) rack_letters: u64,
    /// The most tiles a play found may place.
    pub(crate) max_tiles: usize,
    /// For a walk that wants only plays of every tile (`run::<true>`): the letters (bit = tile
    /// code − 1) a blank may stand for, the tiles to place, and the room left for them.
    pub(crate) blank_letters: u64,
    pub(crate) min_tiles: usize,
    pub(crate) room: Option<Room>,
    pub(crate) rack_size: usize,
    pub(crate) bingo: i32,
    pub(crate) values: &'a [i32; 64],
    pub(crate) anchor: usize,
    /// Where the walk starts: the anchor, or the last tile of the run right of it.
    pub(crate) start: usize,
    pub(crate) left_limit: usize,
    /// Whether the square after `start` is empty or off the board (a word may end at `start`).
    pub(crate) right_open: bool,
    /// What the squares right of `start` can add, for a sink that prunes by score with a blank
    /// on the rack (without one the anchor's own bound leaves little to cut).
    pub(crate) tail: Option<Tail>,
    /// Tile codes placed so far by square, then a square's worth of zeros: a play's word is
    /// always the fixed-size slice from its first square.
    pub(crate) placed: [u8; 2 * BOARD_SIZE],
    pub(crate) sink: &'a mut S,
    /// Whether the sink keeps only the best play by score: a blank then never stands for a
    /// letter the rack still holds, and each play found gives its blanks the squares of their
    /// letters where they cost least (`place_blanks_best`). Exact for that sink: a play whose
    /// blank stands for a letter left on the rack scores less than the same play with the real
    /// tile (or as much, and comes after it), and plays that differ only in which squares of a
    /// letter hold its blanks are all found as the one the walk meets first.
    pub(crate) swap_blanks: bool,
    /// Graph visits so far: one per empty square the walk tries to fill and per board tile it
    /// reads (the work behind the speed).
    pub(crate) visits: u64,
    /// Complete plays reached and scored so far (counted only with `COUNT`).
    pub(crate) candidates: u64,
}

impl<S: Sink, const COUNT: bool> Search<'_, S, COUNT> {
    /// Generates every play whose leftmost placed anchor is `self.anchor`.
    /// With `FULL`, only plays of `min_tiles` tiles are wanted: the walk checks the room left and
    /// lets a blank stand only for `blank_letters`.
    pub(crate) fn run<const FULL: bool>(&mut self, root: u32) {
        let acc = Acc { main: 0, mult: 1, cross: 0, placed: 0, leftmost: self.start as u8 };
        if self.line.tiles[self.start] == 0 {
            self.go::<true, FULL>(self.start, root, acc);
        } else if let Some((node, acc)) = self.read_board(self.start, root, acc) {
            self.left_on::<FULL>(self.start, node, acc);
        }
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

    /// Fills the empty square `pos` with each rack tile the sibling list `list` and the
    /// cross-check allow, going on leftwards (`LEFT`) or rightwards.
    fn go<const LEFT: bool, const FULL: bool>(&mut self, pos: usize, list: u32, acc: Acc) {
        if COUNT {
            self.visits += 1;
        }
        // The callers come here only with a tile left on the rack.
        // The letters that may go here and that the rack can supply; siblings are in tile
        // order, so the scan stops past the last of them.
        let line = self.line;
        let mask = line.cross[pos];
        let blank = self.rack[0] > 0;
        let allowed = match (blank, FULL) {
            (false, _) => mask & self.rack_letters,
            (true, false) => mask,
            (true, true) => mask & (self.rack_letters | self.blank_letters),
        };
        if allowed == 0 || list == 0 {
            return;
        }
        let last = (64 - allowed.leading_zeros()) as u8;
        // What any tile placed here adds, its own points aside (all a blank adds).
        let lm = line.letter_mult[pos];
        let pwm = line.perp_wm[pos];
        let base = Acc { mult: acc.mult * line.word_mult[pos], cross: acc.cross + line.perp_score[pos], placed: acc.placed + 1, ..acc };
        let nodes = &self.nodes[list as usize..];
        // By tile code (bit 0, the separator's, clear): one test per sibling.
        let by_code = allowed << 1;
        for (i, &raw) in nodes.iter().enumerate() {
            let node = Node(raw);
            let t = node.tile();
            if t > last {
                break;
            }
            if by_code.wrapping_shr(u32::from(t)) & 1 != 0 {
                if !node.is_end() {
                    // Start reading the next sibling's children while this one's are walked.
                    wordgraph::prefetch(self.nodes, Node(nodes[i + 1]).arc());
                }
                let bit = 1u64 << (t - 1);
                let slot = usize::from(t);
                if self.rack[slot] > 0 {
                    self.rack[slot] -= 1;
                    if self.rack[slot] == 0 {
                        self.rack_letters &= !bit;
                    }
                    let v = self.values[slot] * lm;
                    let acc = Acc { main: base.main + v, cross: base.cross + v * pwm, ..base };
                    self.placed[pos] = t;
                    self.on::<LEFT, FULL>(pos, node, acc);
                    self.rack_letters |= bit;
                    self.rack[slot] += 1;
                }
                // Seeking the one best play by score, a blank never stands for a letter the rack
                // still holds: the real tile goes there first (see `swap_blanks`).
                if blank && (!FULL || self.blank_letters & bit != 0) && !(self.swap_blanks && self.rack[slot] > 0) {
                    self.rack[0] -= 1;
                    self.placed[pos] = t | BLANK_FLAG;
                    self.on::<LEFT, FULL>(pos, node, base);
                    self.rack[0] += 1;
                }
            }
            if node.is_end() {
                break;
            }
        }
        self.placed[pos] = 0;
    }

    /// Whether some tile left on the rack may go on the empty square `pos`.
    #[inline(always)]
    fn fits<const FULL: bool>(&self, pos: usize) -> bool {
        let mask = self.line.cross[pos];
        let blanks_fit = if FULL { mask & self.blank_letters } else { mask };
        mask & self.rack_letters != 0 || (self.rack[0] > 0 && blanks_fit != 0)
    }

    /// The walk reads the board tile on `pos` from the sibling list `list`.
    #[inline(always)]
    fn read_board(&mut self, pos: usize, list: u32, acc: Acc) -> Option<(Node, Acc)> {
        if COUNT {
            self.visits += 1;
        }
        let node = find(self.nodes, list, self.line.tiles[pos])?;
        Some((node, Acc { main: acc.main + self.line.values[pos], ..acc }))
    }

    #[inline(always)]
    fn on<const LEFT: bool, const FULL: bool>(&mut self, pos: usize, node: Node, acc: Acc) {
        if LEFT { self.left_on::<FULL>(pos, node, acc) } else { self.right_on::<FULL>(pos, node, acc) }
    }

    /// Going left, square `pos` has been filled, reaching `node`: records the word if it may
    /// end here, goes on left (through any board tiles) and turns right where it may.
    fn left_on<const FULL: bool>(&mut self, mut pos: usize, mut node: Node, mut acc: Acc) {
        let tiles = &self.line.tiles;
        loop {
            let left_open = pos == 0 || tiles[pos - 1] == 0;
            // Until the walk has covered the anchor it may neither end nor turn right.
            let covered = pos <= self.anchor;
            let enough = if FULL { usize::from(acc.placed) == self.min_tiles } else { acc.placed > 0 };
            if covered && node.accepts() && left_open && self.right_open && enough {
                self.record(pos, self.start, acc);
            }
            let arc = node.arc();
            if arc == 0 {
                return;
            }
            if !left_open {
                // A board tile: the walk reads it and goes on from there.
                pos -= 1;
                match self.read_board(pos, arc, acc) {
                    Some(next) => {
                        (node, acc) = next;
                        continue;
                    }
                    None => return,
                }
            }
            let placed = usize::from(acc.placed);
            if placed == self.max_tiles {
                return;
            }
            // Where every tile must be placed: room enough right of the start to turn, and on
            // both sides to go further left.
            let (mut may_turn, mut may_go_left) = (true, true);
            if FULL && let Some(room) = &self.room {
                let wanted = self.min_tiles - placed;
                may_turn = wanted <= usize::from(room.right);
                may_go_left = pos > self.left_limit && wanted <= usize::from(room.left[pos - 1]) + usize::from(room.right);
            }
            // The square after `start` is empty: turning right is worth reading the graph only
            // when some rack tile may go there. The separator is read before the walk goes
            // further left, while its list is at hand.
            let mut right = 0;
            if may_turn && covered && self.start + 1 < BOARD_SIZE && self.fits::<FULL>(self.start + 1) {
                let first = Node(self.nodes[arc as usize]);
                if first.tile() == wordgraph::SEPARATOR {
                    right = first.arc();
                }
                // A sink that keeps only the best skips a turn right whose every play scores too
                // little to be kept.
                if S::PRUNES
                    && right != 0
                    && let Some(tail) = &self.tail
                    && !self.sink.may_keep(self.tail_bound(tail, pos, acc))
                {
                    right = 0;
                }
            }
            if may_go_left && pos > self.left_limit && self.fits::<FULL>(pos - 1) {
                self.go::<true, FULL>(pos - 1, arc, acc);
            }
            if right != 0 {
                acc.leftmost = pos as u8;
                self.go::<false, FULL>(self.start + 1, right, acc);
            }
            return;
        }
    }

    /// Going right, square `pos` has been filled, reaching `node`: follows any board tiles
    /// after it, records the word where it may end, and goes on right.
    fn right_on<const FULL: bool>(&mut self, mut pos: usize, mut node: Node, mut acc: Acc) {
        let tiles = &self.line.tiles;
        loop {
            let arc = node.arc();
            if pos + 1 < BOARD_SIZE && tiles[pos + 1] != 0 {
                pos += 1;
                match self.read_board(pos, arc, acc) {
                    Some(next) => {
                        (node, acc) = next;
                        continue;
                    }
                    None => return,
                }
            }
            let enough = if FULL { usize::from(acc.placed) == self.min_tiles } else { acc.placed > 0 };
            if node.accepts() && enough {
                self.record(usize::from(acc.leftmost), pos, acc);
            }
            if pos + 1 < BOARD_SIZE && arc != 0 && usize::from(acc.placed) < self.max_tiles && self.fits::<FULL>(pos + 1) {
                self.go::<false, FULL>(pos + 1, arc, acc);
            }
            return;
        }
    }

    /// At least the score of any play completed rightwards from the walk at `pos` (`tail`'s
    /// bound); with `swap_blanks`, each blank placed counted as the real tile of its letter,
    /// since it may yet trade squares with one.
    #[inline(always)]
    fn tail_bound(&self, tail: &Tail, pos: usize, acc: Acc) -> i32 {
        let (mut main, mut cross) = (acc.main, acc.cross);
        if self.swap_blanks {
            for p in pos..=self.start {
                let code = self.placed[p];
                if code & BLANK_FLAG != 0 {
                    let v = self.values[usize::from(code & !BLANK_FLAG)] * self.line.letter_mult[p];
                    main += v;
                    cross += v * self.line.perp_wm[p];
                }
            }
        }
        tail.bound(usize::from(acc.placed), main, acc.mult, cross)
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
        let mut score = acc.main * acc.mult + acc.cross + bingo;
        if COUNT {
            self.candidates += 1;
        }
        // Nothing is placed past `end`, so the fixed-size slice holds the word and then zeros.
        let mut word = [0u8; BOARD_SIZE];
        word.copy_from_slice(&self.placed[start..start + BOARD_SIZE]);
        if self.swap_blanks && word.iter().any(|&c| c & BLANK_FLAG != 0) {
            score += self.place_blanks_best(&mut word[..=end - start], start, acc.mult);
        }
        if !self.sink.may_keep(score) {
            return;
        }
        let start_sq = super::line::square(self.dir, self.index, start);
        let play = GeneratedPlay { score, equity: 0, start: start_sq, direction: self.dir, len: (end - start + 1) as u8, word };
        self.sink.push(play, &self.rack);
    }

    /// Gives the blanks of `word` (placed from square `start`, the main word's multiplier
    /// `mult`) the squares of their letters where a real tile would score least, the rightmost
    /// of equal ones (plays order real tiles first); returns what the score gains.
    fn place_blanks_best(&self, word: &mut [u8], start: usize, mult: i32) -> i32 {
        let line = self.line;
        // What a real tile of value 1 scores on the word's square `i`.
        let cost = |i: usize| line.letter_mult[start + i] * (mult + line.perp_wm[start + i]);
        let (mut gain, mut done) = (0, 0u64);
        for i in 0..word.len() {
            let t = word[i] & !BLANK_FLAG;
            if word[i] & BLANK_FLAG == 0 || done & 1 << t != 0 {
                continue;
            }
            done |= 1 << t;
            let mut squares = [0usize; BOARD_SIZE];
            let (mut n, mut blanks) = (0, 0);
            for (j, &c) in word.iter().enumerate() {
                if c & !BLANK_FLAG == t {
                    squares[n] = j;
                    n += 1;
                    blanks += usize::from(c & BLANK_FLAG != 0);
                }
            }
            if blanks == n {
                continue;
            }
            let squares = &mut squares[..n];
            squares.sort_unstable_by_key(|&j| (cost(j), std::cmp::Reverse(j)));
            let before: i32 = squares.iter().filter(|&&j| word[j] & BLANK_FLAG != 0).map(|&j| cost(j)).sum();
            let after: i32 = squares[..blanks].iter().map(|&j| cost(j)).sum();
            gain += self.values[usize::from(t)] * (before - after);
            for (k, &j) in squares.iter().enumerate() {
                word[j] = if k < blanks { t | BLANK_FLAG } else { t };
            }
        }
        gain
    }
}
