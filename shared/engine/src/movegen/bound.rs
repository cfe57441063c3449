//! An upper bound on the score (or equity) of any play generated from one anchor, so a top-N
//! search can take anchors best first and stop when none can beat what it holds.

use super::line::Line;
use crate::bingo::BingoChances;
use crate::counts::Counts;
use crate::square::BOARD_SIZE;

/// What the bound needs to know about the rack, computed once per position.
#[derive(Debug, Clone)]
pub(crate) struct RackFacts {
    /// Tile values, highest first (blanks 0).
    pub(crate) values: Vec<i32>,
    /// Where a full-rack play could form a word at all.
    pub(crate) bingos: BingoChances,
    /// Letters on the rack (bit = letter index) and whether it holds a blank.
    pub(crate) letters: u64,
    pub(crate) blank: bool,
    /// Blanks on the rack.
    pub(crate) blanks: usize,
    /// Letter values by tile code, for the best tile a square's cross-check admits.
    pub(crate) value_of: [i32; 64],
    /// Tiles on a full rack and the bonus for playing them all.
    pub(crate) rack_size: usize,
    pub(crate) bingo: i32,
}

impl RackFacts {
    pub(crate) fn new(counts: &Counts, values_by_code: &[i32; 64], rack_size: usize, bingo: i32, bingos: BingoChances) -> RackFacts {
        let mut values: Vec<i32> = Vec::new();
        for (code, &n) in counts.iter().enumerate() {
            let v = if code == 0 { 0 } else { values_by_code[code] };
            values.extend(std::iter::repeat_n(v, usize::from(n)));
        }
        values.sort_unstable_by(|a, b| b.cmp(a));
        let letters = (1..64).filter(|&c| counts[c] > 0).fold(0u64, |m, c| m | 1 << (c - 1));
        RackFacts {
            values,
            bingos,
            letters,
            blank: counts[0] > 0,
            blanks: usize::from(counts[0]),
            value_of: *values_by_code,
            rack_size,
            bingo,
        }
    }

    /// Whether some rack tile may go on a square with cross-check `mask`.
    fn fits(&self, mask: u64) -> bool {
        mask & self.letters != 0 || (self.blank && mask != 0)
    }

    /// Whether a square with cross-check `mask` takes only a blank (no rack letter fits).
    fn needs_blank(&self, mask: u64) -> bool {
        mask & self.letters == 0
    }

    /// The most a rack tile allowed by `mask` is worth (0 when only a blank fits).
    fn best_value(&self, mask: u64) -> i32 {
        let mut m = mask & self.letters;
        let mut best = 0;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            best = best.max(self.value_of[i + 1]);
            m &= m - 1;
        }
        best
    }
}

/// Bounds on the plays from one anchor, split by whether they empty a full rack: such plays
/// (bingos) are searched apart, with the blank restricted to the letters some word of the rack
/// lets it stand for, so that a promising bingo window does not drag every shorter play along.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnchorBound {
    /// At least the score (or equity) of every play placing all the rack's tiles (`i32::MIN`
    /// when none can).
    pub(crate) full: i32,
    /// At least that of every play placing fewer.
    pub(crate) part: i32,
    /// The letters (bit `code - 1`) a blank may stand for in a play placing all the tiles.
    pub(crate) fills: u64,
}

impl AnchorBound {
    /// The bound on every play from the anchor.
    pub(crate) fn whole(&self) -> i32 {
        self.full.max(self.part)
    }
}

/// At least the score of every play from `anchor`, for plays that place all the rack's tiles and
/// for those that place fewer (with `split`; else only the larger of the two is wanted); in equity mode (`leave[k]` bounding the value of keeping `k`
/// tiles), at least its equity in thousandths.
///
/// A play from the anchor fills a window: the anchor, `a` empty squares to its left (never past
/// `left_limit`) and `b` to its right with a + 1 + b ≤ rack, and every board tile in between or
/// attached at the ends. In a window with word multiplier W (the product of its word premiums),
/// a tile of value v on square i adds v × (lm·W + lm·wm if a cross-word passes there): the rack's
/// values go best-first onto the squares' coefficients (rearrangement inequality), and no square
/// gets more than the best rack tile its cross-check admits (a square that admits none ends the
/// window); each cross-word brings its board tiles × wm, and the bingo bonus counts only where a
/// full rack fills the window and could form a word. A window with more squares that only a
/// blank fits than the rack holds blanks cannot be filled. By score, among the windows of fewer
/// tiles than the rack holds only the widest matter (each term grows with the window; a window
/// one square wider contains each smaller one, unless it lacks the blanks), by equity every size
/// does, since fewer tiles played leave more to keep.
pub(crate) fn anchor_bound(
    line: &Line,
    anchor: usize,
    left_limit: usize,
    rack: &RackFacts,
    leave: Option<&[i32]>,
    split: bool,
) -> AnchorBound {
    let n = rack.values.len();
    let mut bound = AnchorBound { full: i32::MIN, part: i32::MIN, fills: 0 };
    if !rack.fits(line.cross[anchor]) {
        return bound;
    }
    let left = Side::walk(line, anchor, n, rack, |p| p >= left_limit && rack.fits(line.cross[p]), false);
    let right = Side::walk(line, anchor, n, rack, |p| rack.fits(line.cross[p]), true);
    let anchor_blanks = usize::from(rack.needs_blank(line.cross[anchor]));
    let here = Square::of(line, anchor, rack);
    let (mut short_of_blanks, mut skipped) = (false, false);
    for total in (1..=n).rev() {
        // By score a window one square narrower scores no more than one containing it, unless
        // the wider ones lacked the blanks or a bingo. Split, the windows one tile short of the
        // rack are wanted as well as the widest.
        let dominated = if split { total + 1 < n && bound.part != i32::MIN } else { total < n && !(total + 1 == n && skipped) };
        if leave.is_none() && dominated && !short_of_blanks {
            break;
        }
        for a in 0..=left.len.min(total - 1) {
            // A window the room cuts short is taken once, as the first total reaches it.
            let b = right.len.min(total - 1 - a);
            let size = 1 + a + b;
            if size < total && total < n {
                continue;
            }
            if anchor_blanks + left.blanks[a] + right.blanks[b] > rack.blanks {
                short_of_blanks = true;
                continue;
            }
            let board_tiles = left.tiles[a] + right.tiles[b];
            let full = size >= rack.rack_size;
            let nearest = if left.tiles[a] > 0 { left.nearest } else { right.nearest };
            if full {
                if !rack.bingos.open(board_tiles, nearest) {
                    skipped = true;
                    continue;
                }
                bound.fills |= rack.bingos.fills(board_tiles, nearest);
            }
            let word_mult = here.word_mult * left.word_mult[a] * right.word_mult[b];
            let fixed = here.fixed + left.fixed[a] + right.fixed[b];
            let capped = word_mult * (here.lm_best + left.lm_best[a] + right.lm_best[b])
                + here.cross_best
                + left.cross_best[a]
                + right.cross_best[b];
            // Each square's coefficient: lm·W, plus lm·wm where a cross-word passes.
            let mut coeffs = [0i32; BOARD_SIZE];
            coeffs[0] = here.letter_mult * word_mult + here.cross;
            for (c, k) in coeffs[1..=a].iter_mut().zip(0..a) {
                *c = left.letter_mult[k] * word_mult + left.cross[k];
            }
            for (c, k) in coeffs[1 + a..size].iter_mut().zip(0..b) {
                *c = right.letter_mult[k] * word_mult + right.cross[k];
            }
            let coeffs = &mut coeffs[..size];
            coeffs.sort_unstable_by(|x, y| y.cmp(x));
            let tiles: i32 = rack.values.iter().zip(coeffs.iter()).map(|(v, c)| v * c).sum::<i32>().min(capped);
            let bingo = if full { rack.bingo } else { 0 };
            let score = (left.points[a] + right.points[b]) * word_mult + tiles + fixed + bingo;
            // A window of `size` squares holds that many tiles, so n - size stay.
            let value = match leave {
                Some(l) => score * 1000 + l[n - size],
                None => score,
            };
            if size == n {
                bound.full = bound.full.max(value);
            } else {
                bound.part = bound.part.max(value);
            }
        }
    }
    if n < rack.rack_size {
        // No bingo table applies: a blank may stand for anything.
        bound.fills = u64::MAX;
    }
    bound
}

/// What one empty square adds to a window's bound: its letter multiplier `lm`, the extra
/// coefficient a cross-word gives a tile there (`lm·wm`, else 0), its word multiplier, the
/// cross-word's board points times `wm`, and the best rack tile its cross-check admits times
/// `lm` and times the extra coefficient.
#[derive(Debug, Clone, Copy)]
struct Square {
    letter_mult: i32,
    cross: i32,
    word_mult: i32,
    fixed: i32,
    lm_best: i32,
    cross_best: i32,
}

impl Square {
    fn of(line: &Line, p: usize, rack: &RackFacts) -> Square {
        let (lm, wm) = (line.letter_mult[p], line.word_mult[p]);
        let best = rack.best_value(line.cross[p]);
        let (cross, fixed) = match line.cross_score[p] {
            Some(cs) => (lm * wm, cs * wm),
            None => (0, 0),
        };
        Square { letter_mult: lm, cross, word_mult: wm, fixed, lm_best: lm * best, cross_best: cross * best }
    }
}

/// One side of an anchor: the empty squares a play may fill, nearest first, and the board
/// points and tiles a window reaching `j` of them includes (`points[j]`, `tiles[j]`), and how
/// many of those `j` only a blank fits (`blanks[j]`; the walk stops past the rack's blanks);
/// per square its letter multiplier and cross-word coefficient, and over the first `j` the
/// product of the word multipliers and the sums of the other [`Square`] terms. Fixed arrays:
/// this runs for every anchor of every position, and a rack holds at most `BOARD_SIZE` tiles.
struct Side {
    len: usize,
    /// Code of the board tile nearest the anchor on this side, 0 when none is reached.
    nearest: u8,
    points: [i32; BOARD_SIZE],
    tiles: [usize; BOARD_SIZE],
    blanks: [usize; BOARD_SIZE],
    letter_mult: [i32; BOARD_SIZE],
    cross: [i32; BOARD_SIZE],
    word_mult: [i32; BOARD_SIZE],
    fixed: [i32; BOARD_SIZE],
    lm_best: [i32; BOARD_SIZE],
    cross_best: [i32; BOARD_SIZE],
}

impl Side {
    fn walk(line: &Line, anchor: usize, n: usize, rack: &RackFacts, may_fill: impl Fn(usize) -> bool, rightward: bool) -> Side {
        let mut side = Side {
            len: 0,
            nearest: 0,
            points: [0; BOARD_SIZE],
            tiles: [0; BOARD_SIZE],
            blanks: [0; BOARD_SIZE],
            letter_mult: [0; BOARD_SIZE],
            cross: [0; BOARD_SIZE],
            word_mult: [1; BOARD_SIZE],
            fixed: [0; BOARD_SIZE],
            lm_best: [0; BOARD_SIZE],
            cross_best: [0; BOARD_SIZE],
        };
        let mut blanks = 0;
        let next = |p: usize| if rightward { (p + 1 < BOARD_SIZE).then_some(p + 1) } else { p.checked_sub(1) };
        let (mut pos, mut points, mut tiles) = (anchor, 0, 0);
        loop {
            while let Some(p) = next(pos).filter(|&p| line.tiles[p] != 0) {
                if side.nearest == 0 {
                    side.nearest = line.tiles[p];
                }
                points += line.values[p];
                tiles += 1;
                pos = p;
            }
            let j = side.len;
            side.points[j] = points;
            side.tiles[j] = tiles;
            side.blanks[j] = blanks;
            match next(pos) {
                Some(p) if j + 1 < n && may_fill(p) && blanks + usize::from(rack.needs_blank(line.cross[p])) <= rack.blanks => {
                    blanks += usize::from(rack.needs_blank(line.cross[p]));
                    let sq = Square::of(line, p, rack);
                    side.letter_mult[j] = sq.letter_mult;
                    side.cross[j] = sq.cross;
                    side.word_mult[j + 1] = side.word_mult[j] * sq.word_mult;
                    side.fixed[j + 1] = side.fixed[j] + sq.fixed;
                    side.lm_best[j + 1] = side.lm_best[j] + sq.lm_best;
                    side.cross_best[j + 1] = side.cross_best[j] + sq.cross_best;
                    side.len += 1;
                    pos = p;
                }
                _ => break,
            }
        }
        side
    }
}

/// What the squares right of a search's start can still add once the walk turns right, by the
/// number `j` of tiles placed there: a play that turns right with partial scores (main points
/// `m`, word multiplier `w`, cross-words `c`) scores at most `w·W[j]·(m + P[j]) + F[j] + c`, plus
/// the bingo bonus when the `j` tiles empty the rack, with `j` as large as the tiles left and the
/// room allow, since every term grows with `j`. `W[j]` is the product of the `j` squares' word
/// multipliers, `P[j]` the board points they reach plus the rack's best `j` values times their
/// best letter multiplier, `F[j]` their cross-words' board points plus the same values times
/// their best cross-word coefficient. Computed once per anchor searched.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tail {
    /// Empty squares right of the start a tile of the rack may go on, before one none fits.
    room: usize,
    /// Tiles on the rack, and the bingo bonus for playing them all (0 unless a full rack).
    tiles: usize,
    bonus: i32,
    word_mult: [i32; BOARD_SIZE],
    points: [i32; BOARD_SIZE],
    fixed: [i32; BOARD_SIZE],
}

impl Tail {
    /// The tail right of `start` on `line` for a rack with `rack`'s facts, of which a play places
    /// at most `tiles`, the bingo bonus counted when they are a full rack.
    pub(crate) fn new(line: &Line, start: usize, rack: &RackFacts, tiles: usize) -> Tail {
        let n = tiles;
        let mut tail = Tail {
            room: 0,
            tiles: n,
            bonus: if n == rack.rack_size { rack.bingo } else { 0 },
            word_mult: [1; BOARD_SIZE],
            points: [0; BOARD_SIZE],
            fixed: [0; BOARD_SIZE],
        };
        let (mut board, mut wm, mut perp, mut lm, mut cm, mut best) = (0, 1, 0, 0, 0, 0);
        let mut pos = start + 1;
        while tail.room < n && pos < BOARD_SIZE && rack.fits(line.cross[pos]) {
            let j = tail.room;
            wm *= line.word_mult[pos];
            perp += line.perp_score[pos];
            lm = lm.max(line.letter_mult[pos]);
            cm = cm.max(line.letter_mult[pos] * line.perp_wm[pos]);
            best += rack.values[j];
            pos += 1;
            while pos < BOARD_SIZE && line.tiles[pos] != 0 {
                board += line.values[pos];
                pos += 1;
            }
            tail.room = j + 1;
            tail.word_mult[j + 1] = wm;
            tail.points[j + 1] = board + lm * best;
            tail.fixed[j + 1] = perp + cm * best;
        }
        tail
    }

    /// At least the score of any play completed rightwards from a walk that has placed `placed`
    /// tiles with partial scores `main`, `mult` and `cross`.
    #[inline(always)]
    pub(crate) fn bound(&self, placed: usize, main: i32, mult: i32, cross: i32) -> i32 {
        let left = self.tiles - placed;
        let j = self.room.min(left);
        let bonus = if j == left { self.bonus } else { 0 };
        mult * self.word_mult[j] * (main + self.points[j]) + self.fixed[j] + cross + bonus
    }
}

#[cfg(test)]
mod tests {
    use super::super::line::{Grid, Line};
    use super::super::search::{BLANK_FLAG, Search};
    use super::super::{GeneratedPlay, MoveGenerator};
    use super::{RackFacts, Tail};
    use crate::bingo::BingoChances;
    use crate::counts::Counts;
    use crate::counts::tile_code;
    use crate::lexicon::builtin_graph;
    use crate::square::Direction;
    use crate::tile::RackTile;
    use crate::variant::TileVariant;

    /// The walk's partial scores when it turns right for `play` from `line`'s `start`: tiles
    /// placed, main points, word multiplier and cross-words over the squares up to `start`.
    fn turn_state(generator: &MoveGenerator<'_>, line: &Line, play: &GeneratedPlay, first: usize, start: usize) -> (usize, i32, i32, i32) {
        let (mut placed, mut main, mut mult, mut cross) = (0, 0, 1, 0);
        for p in first..=start {
            let code = play.word[p - first];
            if code == 0 {
                main += line.values[p];
                continue;
            }
            let value = if code & BLANK_FLAG != 0 { 0 } else { generator.values[usize::from(code)] };
            let v = value * line.letter_mult[p];
            placed += 1;
            main += v;
            mult *= line.word_mult[p];
            cross += line.perp_score[p] + v * line.perp_wm[p];
        }
        (placed, main, mult, cross)
    }

    #[test]
    fn the_tail_bounds_every_play_that_turns_right_after_the_start() {
        let mut checked = 0;
        for (variant, file) in [
            (TileVariant::ScrabbleEn, include_str!("../../tests/data/bench-en-blank2.cgp")),
            (TileVariant::ScrabbleEn, include_str!("../../tests/data/bench-en-blank1.cgp")),
            (TileVariant::ScrabbleRu, include_str!("../../tests/data/bench-ru-blank2.cgp")),
        ] {
            let rules = variant.rules();
            let lexicon = builtin_graph(variant);
            let generator = MoveGenerator::new(rules, lexicon);
            for text in file.lines().take(12) {
                let position = crate::CgpPosition::parse(rules, text).unwrap();
                let (board, rack) = (&position.board, &position.racks[0]);
                let mut counts: Counts = [0; 64];
                for t in rack.tiles() {
                    match t {
                        RackTile::Letter(l) => counts[usize::from(tile_code(l))] += 1,
                        RackTile::Blank => counts[0] += 1,
                    }
                }
                let facts = RackFacts::new(&counts, &generator.values, rules.rack_size, rules.bingo_bonus, BingoChances::ANY);
                let grid = Grid::new(rules, lexicon.graph(), lexicon.short_words(), board);
                for play in generator.all(board, rack) {
                    let index = match play.direction {
                        Direction::Across => play.start.row(),
                        Direction::Down => play.start.col(),
                    };
                    let line = Line::new(rules, &grid, play.direction, index);
                    let first = play.start.along(play.direction);
                    let end = first + play.word_len() - 1;
                    // The play is generated from the leftmost anchor it covers with a tile.
                    let anchor = (first..=end).find(|&p| play.word[p - first] != 0 && line.anchor[p]).expect("a play covers an anchor");
                    let start = Search::<super::super::AllPlays, false>::start_of(&line, anchor);
                    if end <= start {
                        continue;
                    }
                    let (placed, main, mult, cross) = turn_state(&generator, &line, &play, first, start);
                    let bound = Tail::new(&line, start, &facts, rack.len()).bound(placed, main, mult, cross);
                    assert!(
                        bound >= play.score,
                        "{variant} {text}: {} {} scores {} over {bound}",
                        play.coordinate(),
                        play.notation(rules),
                        play.score
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} plays turn right");
    }
}
