//! Words formed by a play and what each scores.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::square::{Direction, Square};
use crate::tile::{Placement, Tile};
use crate::variant::Rules;

/// One word formed by a play, and its score.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WordScore {
    /// The word, upper case, blanks written as the letter they stand for.
    pub word: String,
    /// Its first square.
    pub start: Square,
    /// Which way it runs.
    pub direction: Direction,
    /// Whether it is the play's main word (the others are cross-words).
    pub main: bool,
    /// Points it scores, premiums included.
    pub score: i32,
    /// Whether it repeats a word already played and so scores 0 (no-repeat rule).
    #[serde(default)]
    pub repeat: bool,
}

/// The score of a play: each word, the bingo bonus and the total.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScoreBreakdown {
    /// The main word first, then cross-words in the order of the placed tiles.
    pub words: Vec<WordScore>,
    /// The full-rack bonus, or 0.
    pub bingo: i32,
    /// Sum of the words and the bonus.
    pub total: i32,
}

/// A tile of a formed word, and whether it was placed this turn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordTile {
    pub(crate) square: Square,
    pub(crate) tile: Tile,
    pub(crate) new: bool,
}

/// The tile at `square`, whether on the board already or placed this turn.
pub(crate) fn tile_at(board: &Board, placed: &[Placement], square: Square) -> Option<(Tile, bool)> {
    if let Some(t) = board.get(square) {
        return Some((t, false));
    }
    placed.iter().find(|p| p.square == square).map(|p| (p.tile, true))
}

/// The word through `square` along `dir` (board tiles plus `placed`), if two or more letters.
///
/// Returns the first square and the tiles, each flagged whether it was placed this turn.
pub(crate) fn word_through(board: &Board, placed: &[Placement], square: Square, dir: Direction) -> Option<(Square, Vec<WordTile>)> {
    let mut start = square;
    while let Some(prev) = start.step(dir, -1).filter(|&p| tile_at(board, placed, p).is_some()) {
        start = prev;
    }
    let mut tiles = Vec::new();
    let mut at = Some(start);
    while let Some(sq) = at {
        let Some((tile, new)) = tile_at(board, placed, sq) else { break };
        tiles.push(WordTile { square: sq, tile, new });
        at = sq.step(dir, 1);
    }
    (tiles.len() >= 2).then_some((start, tiles))
}

/// Points for one word: letter premiums and word premiums only under newly placed tiles;
/// blanks score 0.
pub(crate) fn score_word(rules: &Rules, tiles: &[WordTile]) -> i32 {
    let mut sum = 0;
    let mut word_mult = 1;
    for &WordTile { square: sq, tile, new } in tiles {
        let value = if tile.is_blank() { 0 } else { rules.value(tile.letter()) };
        if new {
            let premium = rules.layout.premium(sq);
            sum += value * premium.letter_multiplier();
            word_mult *= premium.word_multiplier();
        } else {
            sum += value;
        }
    }
    sum * word_mult
}

/// The words a play forms, scored: the main word along `dir` first, then each cross-word.
pub(crate) fn score_play(rules: &Rules, board: &Board, placed: &[Placement], dir: Direction) -> ScoreBreakdown {
    let mut words = Vec::new();
    let mut push = |start: Square, d: Direction, tiles: Vec<WordTile>, main: bool| {
        words.push(WordScore {
            word: tiles.iter().map(|t| rules.char_of(t.tile.letter())).collect(),
            start,
            direction: d,
            main,
            score: score_word(rules, &tiles),
            repeat: false,
        });
    };
    if let Some((start, tiles)) = word_through(board, placed, placed[0].square, dir) {
        push(start, dir, tiles, true);
    }
    for p in placed {
        if let Some((start, tiles)) = word_through(board, placed, p.square, dir.other()) {
            push(start, dir.other(), tiles, false);
        }
    }
    let bingo = if placed.len() == rules.rack_size { rules.bingo_bonus } else { 0 };
    let total = words.iter().map(|w| w.score).sum::<i32>() + bingo;
    ScoreBreakdown { words, bingo, total }
}
