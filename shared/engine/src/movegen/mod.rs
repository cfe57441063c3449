//! The move generator: every legal tile-placement play of a position, with its score, each
//! exactly once; or the best N by score or equity, pruning anchors by an upper bound.
//!
//! Stateless and standard-rules: it sees a board, a rack and a word graph, nothing of a game's
//! history. Cross-check sets and cross-scores are computed once per position, per run of board
//! tiles (see [`line`]); each anchor is then searched through the GADDAG (the `search` module).

mod bound;
mod line;
mod search;

use std::cmp::Ordering;

use crate::board::Board;
use crate::counts::{Counts, counts_of, tile_code};
pub use crate::exchange::exchanges;
use crate::leave::{LeaveTable, LeaveValues};
use crate::letter::Letter;
use crate::lexicon::WordGraph;
use crate::rack::Rack;
use crate::square::{BOARD_SIZE, Direction, Square};
use crate::tile::{Placement, Tile};
use crate::variant::Rules;
use line::{Grid, Line};
use search::{BLANK_FLAG, Search};

/// A play found by the generator: its main word's squares, the tiles placed and the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GeneratedPlay {
    /// Points the play scores.
    pub score: i32,
    /// Score plus leave value, in thousandths of a point (0 unless ranked by equity).
    pub equity: i32,
    /// First square of the main word.
    pub start: Square,
    /// Direction of the main word.
    pub direction: Direction,
    len: u8,
    /// Per square of the main word: 0 for a tile already on the board, else the placed tile's
    /// code (letter index + 1), with [`BLANK_FLAG`] for a blank.
    word: [u8; BOARD_SIZE],
}

impl GeneratedPlay {
    /// Length of the main word.
    pub fn word_len(&self) -> usize {
        usize::from(self.len)
    }

    /// The squares of the main word, each with the tile placed there (`None` where a tile
    /// already stood).
    pub fn squares(&self) -> impl Iterator<Item = (Square, Option<Tile>)> + '_ {
        (0..self.word_len()).map(move |i| {
            let sq = self.start.step(self.direction, i as isize).expect("generated words lie on the board");
            let code = self.word[i];
            let tile = (code != 0).then(|| {
                let letter = Letter::new((code & !BLANK_FLAG) - 1);
                if code & BLANK_FLAG != 0 { Tile::Blank(letter) } else { Tile::Letter(letter) }
            });
            (sq, tile)
        })
    }

    /// The tiles placed, in order along the main word.
    pub fn placements(&self) -> Vec<Placement> {
        self.squares().filter_map(|(square, tile)| tile.map(|tile| Placement { square, tile })).collect()
    }

    /// Number of tiles placed.
    pub fn tiles_placed(&self) -> usize {
        self.word[..self.word_len()].iter().filter(|&&c| c != 0).count()
    }

    /// The rack left after this play.
    pub fn leave(&self, rack: &Rack) -> Rack {
        let mut left = *rack;
        for p in self.placements() {
            left.remove(p.tile.rack_tile());
        }
        left
    }

    /// The GCG coordinate: row first for across ("8D"), column first for down ("D8").
    pub fn coordinate(&self) -> String {
        let (row, col) = (self.start.row() + 1, (b'A' + self.start.col() as u8) as char);
        match self.direction {
            Direction::Across => format!("{row}{col}"),
            Direction::Down => format!("{col}{row}"),
        }
    }

    /// The main word: `.` for tiles already on the board, lower case for blanks.
    pub fn notation(&self, rules: &Rules) -> String {
        self.squares()
            .map(|(_, tile)| match tile {
                None => '.',
                Some(Tile::Letter(l)) => rules.char_of(l),
                Some(Tile::Blank(l)) => rules.char_of(l).to_lowercase().next().unwrap_or('?'),
            })
            .collect()
    }

    /// Best first by `key`, then a fixed order of direction, square and tiles.
    fn cmp_by(&self, other: &Self, key: fn(&Self) -> i32) -> Ordering {
        key(other)
            .cmp(&key(self))
            .then_with(|| (self.direction as u8).cmp(&(other.direction as u8)))
            .then_with(|| self.start.cmp(&other.start))
            .then_with(|| self.word.cmp(&other.word))
    }
}

/// What "best" means for [`MoveGenerator::top`].
#[derive(Debug, Clone, Copy)]
pub enum Ranking<'a> {
    /// Highest score.
    Score,
    /// Highest score + leave value.
    Equity(&'a LeaveTable),
}

/// Where the search puts the plays it finds.
pub(crate) trait Sink {
    /// Whether the sink keeps only some plays, so that the search may skip what cannot be kept.
    const PRUNES: bool;
    /// Takes a play; `leave` is the rack left after it.
    fn push(&mut self, play: GeneratedPlay, leave: &Counts);
    /// The key a play must beat to be kept, once that is known.
    fn threshold(&self) -> Option<i32>;
    /// The play at the threshold, which a play of the same key must precede to be kept.
    fn at_threshold(&self) -> Option<&GeneratedPlay>;
    /// Whether a play scoring `score` could be kept (checked before the play is built).
    fn may_keep(&self, score: i32) -> bool;
    /// Whether the sink keeps only the one best play by score.
    fn best_score_only(&self) -> bool;
}

struct AllPlays(Vec<GeneratedPlay>);

impl Sink for AllPlays {
    const PRUNES: bool = false;

    fn push(&mut self, play: GeneratedPlay, _: &Counts) {
        self.0.push(play);
    }

    fn threshold(&self) -> Option<i32> {
        None
    }

    fn at_threshold(&self) -> Option<&GeneratedPlay> {
        None
    }

    fn may_keep(&self, _: i32) -> bool {
        true
    }

    fn best_score_only(&self) -> bool {
        false
    }
}

/// The best `n` plays, kept sorted best first.
struct TopN {
    n: usize,
    leave: Option<LeaveValues>,
    /// The best leave value any play can have (equity ranking only).
    best_leave: i32,
    plays: Vec<GeneratedPlay>,
}

impl TopN {
    fn key(&self) -> fn(&GeneratedPlay) -> i32 {
        if self.leave.is_some() { |p| p.equity } else { |p| p.score }
    }
}

impl Sink for TopN {
    const PRUNES: bool = true;

    fn push(&mut self, mut play: GeneratedPlay, leave: &Counts) {
        if let Some(values) = &self.leave {
            play.equity = play.score * 1000 + values.value(leave);
        }
        let key = self.key();
        if self.plays.len() == self.n && play.cmp_by(&self.plays[self.n - 1], key) != Ordering::Less {
            return;
        }
        let at = self.plays.partition_point(|p| p.cmp_by(&play, key) == Ordering::Less);
        self.plays.insert(at, play);
        self.plays.truncate(self.n);
    }

    fn threshold(&self) -> Option<i32> {
        self.at_threshold().map(self.key())
    }

    fn at_threshold(&self) -> Option<&GeneratedPlay> {
        (self.plays.len() == self.n).then(|| &self.plays[self.n - 1])
    }

    fn may_keep(&self, score: i32) -> bool {
        let key = if self.leave.is_some() { score * 1000 + self.best_leave } else { score };
        self.threshold().is_none_or(|th| key >= th)
    }

    fn best_score_only(&self) -> bool {
        self.n == 1 && self.leave.is_none()
    }
}

/// An anchor's classes of plays: those placing every tile of a full rack, and the rest (all
/// plays when the bound is not split).
const FULL: usize = 0;
const REST: usize = 1;

/// An anchor to search: where it is, the bound of each class of its plays, the letters a blank
/// may stand for in a play of the first class, and which classes are searched or need none.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    line: u8,
    anchor: u8,
    left_limit: u8,
    bound: [i32; 2],
    fills: u64,
    done: [bool; 2],
}

/// One class of an anchor's plays, taken in order of its bound.
#[derive(Debug, Clone, Copy)]
struct Task {
    bound: i32,
    anchor: u16,
    class: u8,
}

/// What one search did, counted only on request (`all_counted`, `top_counted`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Anchors some rack tile fits.
    pub anchors: u64,
    /// Searches of an anchor (all anchors unless the search prunes; with a full rack, its plays
    /// of every tile and the rest may be searched apart, so an anchor may count twice).
    pub searched: u64,
    /// Graph visits: each try to fill an empty square some tile left fits, and each board tile
    /// read, along a GADDAG path.
    pub visits: u64,
    /// Complete plays the walk reached and scored (the candidates a top-N search weighs).
    pub candidates: u64,
}

/// The generator for one variant and word graph.
#[derive(Debug, Clone)]
pub struct MoveGenerator<'a> {
    rules: &'a Rules,
    lexicon: &'a WordGraph,
    /// Letter points by tile code.
    values: [i32; 64],
}

impl<'a> MoveGenerator<'a> {
    /// A generator over `lexicon` for `rules`' alphabet.
    pub fn new(rules: &'a Rules, lexicon: &'a WordGraph) -> MoveGenerator<'a> {
        let mut values = [0; 64];
        for l in rules.alphabet() {
            values[usize::from(tile_code(l))] = rules.value(l);
        }
        MoveGenerator { rules, lexicon, values }
    }

    /// Every legal tile-placement play of `rack` on `board`, each once, in no set order.
    pub fn all(&self, board: &Board, rack: &Rack) -> Vec<GeneratedPlay> {
        let mut sink = AllPlays(Vec::new());
        self.generate::<_, false>(board, rack, &mut sink, None);
        sink.0
    }

    /// As [`MoveGenerator::all`], with the number of graph visits the search made (each try
    /// to fill an empty square some tile left fits, and each board tile read, along a GADDAG
    /// path), the figure behind its speed.
    pub fn all_counted(&self, board: &Board, rack: &Rack) -> (Vec<GeneratedPlay>, u64) {
        let mut sink = AllPlays(Vec::new());
        let counts = self.generate::<_, true>(board, rack, &mut sink, None);
        (sink.0, counts.visits)
    }

    /// As [`MoveGenerator::top`], with what the search did to find them (for `wordgame bench`).
    pub fn top_counted(&self, board: &Board, rack: &Rack, n: usize, ranking: Ranking<'_>) -> (Vec<GeneratedPlay>, SearchCounts) {
        self.top_with::<true>(board, rack, n, ranking)
    }

    /// The best `n` plays by `ranking`, best first (ties in a fixed order).
    pub fn top(&self, board: &Board, rack: &Rack, n: usize, ranking: Ranking<'_>) -> Vec<GeneratedPlay> {
        self.top_with::<false>(board, rack, n, ranking).0
    }

    fn top_with<const COUNT: bool>(
        &self,
        board: &Board,
        rack: &Rack,
        n: usize,
        ranking: Ranking<'_>,
    ) -> (Vec<GeneratedPlay>, SearchCounts) {
        if n == 0 {
            return (Vec::new(), SearchCounts::default());
        }
        let leave = match ranking {
            Ranking::Score => None,
            Ranking::Equity(table) => Some(table),
        };
        // Every leave the rack can keep, valued once, and the best of each size for the bounds.
        let leave = leave.map(|table| table.every_leave(&counts_of(rack)));
        let leave_bounds = leave.as_ref().map(|values| values.best_by_size().to_vec());
        let best_leave = leave_bounds.as_ref().and_then(|b| b.last().copied()).unwrap_or(0);
        let mut sink = TopN { n, leave, best_leave, plays: Vec::with_capacity(n + 1) };
        let counts = self.generate::<_, COUNT>(board, rack, &mut sink, Some(leave_bounds.as_deref()));
        (sink.plays, counts)
    }

    /// Sorts `plays` best first by `ranking`, filling in equity when ranked by it.
    pub fn rank(&self, rack: &Rack, plays: &mut [GeneratedPlay], ranking: Ranking<'_>) {
        match ranking {
            Ranking::Score => plays.sort_by(|a, b| a.cmp_by(b, |p| p.score)),
            Ranking::Equity(table) => {
                for p in plays.iter_mut() {
                    p.equity = p.score * 1000 + table.value(&p.leave(rack));
                }
                plays.sort_by(|a, b| a.cmp_by(b, |p| p.equity));
            }
        }
    }

    /// Runs every anchor; with `prune` (holding, in equity mode, the best leave value for each
    /// number of tiles kept), anchors are taken by falling upper bound and the rest skipped once
    /// no play can beat the sink. Returns what the search did (all 0 unless `COUNT`).
    fn generate<S: Sink, const COUNT: bool>(
        &self,
        board: &Board,
        rack: &Rack,
        sink: &mut S,
        prune: Option<Option<&[i32]>>,
    ) -> SearchCounts {
        let mut counted = SearchCounts::default();
        if rack.is_empty() {
            return counted;
        }
        let counts = counts_of(rack);
        let rack_letters = (1..counts.len()).filter(|&t| counts[t] > 0).fold(0u64, |m, t| m | 1u64 << (t - 1));
        let grid = Grid::new(self.rules, self.lexicon.graph(), self.lexicon.short_words(), board);
        let mut lines: Vec<(Direction, usize, Line)> = Vec::with_capacity(2 * BOARD_SIZE);
        for dir in [Direction::Across, Direction::Down] {
            for i in (0..BOARD_SIZE).filter(|&i| grid.has_anchor(dir, i)) {
                lines.push((dir, i, Line::new(self.rules, &grid, dir, i)));
            }
        }
        let facts = prune.map(|_| {
            let bingos = if self.rules.rack_size == crate::bingo::RACK && rack.len() == crate::bingo::RACK {
                crate::bingo::BingoChances::of(self.lexicon.bingo_words(), &counts, self.rules.alphabet().count() as u8)
            } else {
                crate::bingo::BingoChances::ANY
            };
            bound::RackFacts::new(&counts, &self.values, self.rules.rack_size, self.rules.bingo_bonus, bingos)
        });
        let n = rack.len();
        // With a full rack holding a blank and a bound to prune by, the plays placing every tile
        // are bounded apart from the rest of their anchor's (without a blank the bingos' walk
        // saves too little to pay for the second bound and task).
        let split = prune.is_some() && n == self.rules.rack_size && counts[0] > 0;
        let mut anchors: Vec<Anchor> = Vec::new();
        let mut tasks: Vec<Task> = Vec::new();
        for (li, (_, _, line)) in lines.iter().enumerate() {
            let mut left_limit = 0;
            for pos in 0..BOARD_SIZE {
                if line.anchor[pos] {
                    // No rack tile fits here: every play from an anchor covers it with one, so
                    // none starts here (it still bounds the next anchor's walk leftwards).
                    let m = line.cross[pos];
                    if m & rack_letters == 0 && (counts[0] == 0 || m == 0) {
                        left_limit = pos + 1;
                        continue;
                    }
                    let id = anchors.len() as u16;
                    let mut anchor = Anchor {
                        line: li as u8,
                        anchor: pos as u8,
                        left_limit: left_limit as u8,
                        bound: [i32::MIN; 2],
                        fills: u64::MAX,
                        done: [true; 2],
                    };
                    match (prune, &facts) {
                        (Some(leave), Some(facts)) => {
                            let b = bound::anchor_bound(line, pos, left_limit, facts, leave, split);
                            if split {
                                anchor.bound = [b.full, b.part];
                                anchor.fills = b.fills;
                            } else {
                                anchor.bound[REST] = b.whole();
                            }
                        }
                        _ => anchor.bound[REST] = 0,
                    }
                    for class in [FULL, REST] {
                        // An anchor's whole bound is kept even when no play can reach it (no
                        // window to fill); a split one's class then has no play at all.
                        if !split && class == REST || anchor.bound[class] != i32::MIN {
                            anchor.done[class] = false;
                            tasks.push(Task { bound: anchor.bound[class], anchor: id, class: class as u8 });
                        }
                    }
                    anchors.push(anchor);
                    left_limit = pos + 1;
                }
            }
        }
        if prune.is_some() {
            tasks.sort_by_key(|t| std::cmp::Reverse(t.bound));
        }
        if COUNT {
            counted.anchors = anchors.len() as u64;
        }
        let graph = self.lexicon.graph();
        for task in tasks {
            let a = &mut anchors[usize::from(task.anchor)];
            let class = usize::from(task.class);
            if a.done[class] {
                continue;
            }
            let (anchor, left_limit) = (usize::from(a.anchor), usize::from(a.left_limit));
            let (dir, index, line) = &lines[usize::from(a.line)];
            // Whether a play bounded by `b` may still be kept. A play of the threshold's key is
            // kept only if it precedes the play there (by direction, then first square): every
            // play from this anchor starts at `left_limit` or later, so none does when even that
            // start comes after.
            let wanted = |b: i32| match sink.threshold() {
                Some(th) if prune.is_some() => {
                    let at = sink.at_threshold().expect("a threshold comes from a play");
                    b > th || (b == th && (*dir as u8, line::square(*dir, *index, left_limit)) <= (at.direction as u8, at.start))
                }
                _ => true,
            };
            if !wanted(task.bound) {
                if prune.is_some() && sink.threshold().is_some_and(|th| task.bound < th) {
                    break;
                }
                continue;
            }
            // The anchor's other class is searched in the same walk when it too may be kept:
            // the walk is then shared.
            let other = 1 - class;
            let both = !a.done[other] && wanted(a.bound[other]);
            a.done[class] = true;
            if both {
                a.done[other] = true;
            }
            let full_only = class == FULL && !both;
            let (min_tiles, max_tiles) = if full_only {
                (n, n)
            } else if split && !both {
                (1, n - 1)
            } else {
                (1, n)
            };
            let fills = if full_only { a.fills } else { u64::MAX };
            let start = Search::<S, COUNT>::start_of(line, anchor);
            let mut search = Search::<S, COUNT> {
                nodes: graph.nodes(),
                line,
                dir: *dir,
                index: *index,
                rack: counts,
                rack_letters,
                blank_letters: fills,
                min_tiles,
                max_tiles,
                room: full_only.then(|| search::Room::new(line, left_limit, start, rack_letters, if counts[0] > 0 { fills } else { 0 })),
                rack_size: self.rules.rack_size,
                bingo: self.rules.bingo_bonus,
                values: &self.values,
                anchor,
                start,
                left_limit,
                right_open: start + 1 == BOARD_SIZE || line.tiles[start + 1] == 0,
                tail: match &facts {
                    // By score only: by equity the best leave of any size is added, and the
                    // tail then rarely prunes enough to pay for itself.
                    Some(facts) if S::PRUNES && facts.blanks > 0 && prune == Some(None) => {
                        Some(bound::Tail::new(line, start, facts, max_tiles))
                    }
                    _ => None,
                },
                placed: [0; 2 * BOARD_SIZE],
                swap_blanks: counts[0] > 0 && sink.best_score_only(),
                sink,
                visits: 0,
                candidates: 0,
            };
            if full_only {
                search.run::<true>(graph.gaddag_root());
            } else {
                search.run::<false>(graph.gaddag_root());
            }
            if COUNT {
                counted.searched += 1;
                counted.visits += search.visits;
                counted.candidates += search.candidates;
            }
        }
        counted
    }
}
