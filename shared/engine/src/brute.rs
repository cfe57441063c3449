//! A brute-force play enumerator: slow, simple and obviously right, the reference that the fast
//! move generator is tested against, and the move source of the engine's own property tests.
//!
//! For every line, start square and direction it extends words through board tiles and rack
//! tiles (each blank as every letter), pruned by a prefix set, and keeps each candidate that the
//! engine's own validator accepts. Plays are unique by their placements.

use std::collections::HashSet;

use crate::board::Board;
use crate::letter::Letter;
use crate::lexicon::{Lexicon, WordList};
use crate::play::{self, PlayOutcome};
use crate::rack::Rack;
use crate::square::{BOARD_SIZE, Direction, Square};
use crate::tile::{Placement, RackTile, Tile};
use crate::variant::Rules;

/// A word list with every prefix of its words, for pruned enumeration.
#[derive(Debug, Clone)]
pub struct BruteForce<'a> {
    words: &'a WordList,
    prefixes: HashSet<Vec<Letter>>,
}

impl<'a> BruteForce<'a> {
    /// Indexes the prefixes of `words`.
    pub fn new(words: &'a WordList) -> BruteForce<'a> {
        let mut prefixes = HashSet::new();
        for w in words.iter() {
            for n in 1..=w.len() {
                prefixes.insert(w[..n].to_vec());
            }
        }
        BruteForce { words, prefixes }
    }

    /// Every legal tile-placement play of `rack` on `board`, each once, in a stable order.
    pub fn plays(&self, rules: &Rules, board: &Board, rack: &Rack) -> Vec<PlayOutcome> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for dir in [Direction::Across, Direction::Down] {
            for line in 0..BOARD_SIZE {
                for start in 0..BOARD_SIZE {
                    let sq = line_square(dir, line, start);
                    if sq.step(dir, -1).is_some_and(|p| board.is_occupied(p)) {
                        continue;
                    }
                    let mut search =
                        Search { rules, board, brute: self, dir, placed: Vec::new(), word: Vec::new(), seen: &mut seen, out: &mut out };
                    search.extend(sq, *rack);
                }
            }
        }
        out
    }
}

fn line_square(dir: Direction, line: usize, pos: usize) -> Square {
    match dir {
        Direction::Across => Square::new(line, pos),
        Direction::Down => Square::new(pos, line),
    }
    .expect("line and position are on the board")
}

struct Search<'s, 'a> {
    rules: &'s Rules,
    board: &'s Board,
    brute: &'s BruteForce<'a>,
    dir: Direction,
    placed: Vec<Placement>,
    word: Vec<Letter>,
    seen: &'s mut HashSet<Vec<Placement>>,
    out: &'s mut Vec<PlayOutcome>,
}

impl Search<'_, '_> {
    /// Extends the current word onto `sq` (`rack` is what is left to place).
    fn extend(&mut self, sq: Square, rack: Rack) {
        if let Some(tile) = self.board.get(sq) {
            self.push(sq, tile, None, rack);
            return;
        }
        let mut tried = Vec::new();
        for t in rack.tiles() {
            if tried.contains(&t) {
                continue;
            }
            tried.push(t);
            let mut left = rack;
            left.remove(t);
            match t {
                RackTile::Letter(l) => self.push(sq, Tile::Letter(l), Some(()), left),
                RackTile::Blank => {
                    for l in self.rules.alphabet() {
                        self.push(sq, Tile::Blank(l), Some(()), left);
                    }
                }
            }
        }
    }

    /// Puts `tile` at `sq` (newly placed when `new` is set), records a word if one ends here,
    /// and goes on.
    fn push(&mut self, sq: Square, tile: Tile, new: Option<()>, rack: Rack) {
        self.word.push(tile.letter());
        if new.is_some() {
            self.placed.push(Placement { square: sq, tile });
        }
        if self.brute.prefixes.contains(&self.word) {
            let next = sq.step(self.dir, 1);
            let ends = next.is_none_or(|n| !self.board.is_occupied(n));
            if ends && !self.placed.is_empty() && self.word.len() >= 2 && self.brute.words.contains(&self.word) {
                self.record();
            }
            if let Some(n) = next {
                self.extend(n, rack);
            }
        }
        self.word.pop();
        if new.is_some() {
            self.placed.pop();
        }
    }

    fn record(&mut self) {
        let mut key = self.placed.clone();
        key.sort_by_key(|p| p.square);
        if self.seen.contains(&key) {
            return;
        }
        let full = Rack::from_tiles(self.placed.iter().map(|p| p.tile.rack_tile()));
        if let Ok(outcome) = play::evaluate(self.rules, self.board, &full, Some(self.brute.words as &dyn Lexicon), &self.placed) {
            self.seen.insert(key);
            self.out.push(outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::TileVariant;

    #[test]
    fn the_opening_plays_of_a_tiny_list_are_all_found_once() {
        let rules = TileVariant::ScrabbleEn.rules();
        let words = WordList::parse(rules, "at\nta\ncat\nact").unwrap();
        let brute = BruteForce::new(&words);
        let letters: Vec<RackTile> = "CAT".chars().map(|c| RackTile::Letter(rules.letter(c).unwrap())).collect();
        let plays = brute.plays(rules, &Board::new(), &Rack::from_tiles(letters));
        // AT and TA: 2 positions covering H8 each way; CAT and ACT: 3 each way.
        assert_eq!(plays.len(), 2 * (2 + 2 + 3 + 3));
        assert!(plays.iter().all(|p| p.placements.iter().any(|pl| pl.square == Square::CENTER)));
    }
}
