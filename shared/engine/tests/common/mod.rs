//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use engine::lexicon::Lexicon;
use engine::{Board, Direction, Game, Letter, Placement, PlacementInput, RackTile, Rules, Seat, Square, Tile, TileMove, TileVariant};

/// A lexicon that accepts every word: drives games to their end through the shape rules alone.
pub struct AnyWord;

impl Lexicon for AnyWord {
    fn contains(&self, _: &[Letter]) -> bool {
        true
    }
}

/// Placements for `word` from `start` along `dir`; `.` skips a square (a tile already there),
/// lower case is a blank.
pub fn placements(rules: &Rules, start: &str, dir: Direction, word: &str) -> Vec<Placement> {
    let start: Square = start.parse().unwrap();
    word.chars()
        .enumerate()
        .filter(|&(_, c)| c != '.')
        .map(|(i, c)| {
            let letter = rules.letter(c).unwrap_or_else(|| panic!("{c} is not a letter"));
            let tile = if c.is_lowercase() { Tile::Blank(letter) } else { Tile::Letter(letter) };
            Placement { square: start.step(dir, i as isize).unwrap(), tile }
        })
        .collect()
}

/// A board holding `words` (each: start, direction, letters as in [`placements`]).
pub fn board(rules: &Rules, words: &[(&str, Direction, &str)]) -> Board {
    let mut board = Board::new();
    for &(start, dir, word) in words {
        for p in placements(rules, start, dir, word) {
            if !board.is_occupied(p.square) {
                board.place(p);
            }
        }
    }
    board
}

/// The input form of placements.
pub fn inputs(rules: &Rules, placements: &[Placement]) -> Vec<PlacementInput> {
    placements.iter().map(|&p| PlacementInput::from_placement(rules, p)).collect()
}

/// A play move from a square, a direction and the letters of the seat's own choosing.
pub fn play(rules: &Rules, start: &str, dir: Direction, word: &str) -> TileMove {
    TileMove::Play { placements: inputs(rules, &placements(rules, start, dir, word)) }
}

/// The letters of a seat's rack, blanks as `?`.
pub fn rack_letters(game: &Game, seat: Seat) -> Vec<char> {
    game.rack(seat)
        .tiles()
        .map(|t| match t {
            RackTile::Letter(l) => game.rules().char_of(l),
            RackTile::Blank => '?',
        })
        .collect()
}

/// The first seed from 1 up whose first two racks hold no blank.
pub fn blankless_game(variant: TileVariant) -> Game {
    (1..).map(|seed| Game::new(variant, 2, seed).unwrap()).find(|g| g.rack(Seat(0)).blanks() == 0 && g.rack(Seat(1)).blanks() == 0).unwrap()
}

/// Every tile the game holds (bag, racks, board with blanks as blanks), sorted.
pub fn all_tiles(game: &Game) -> Vec<RackTile> {
    let mut tiles: Vec<RackTile> = game.bag().tiles().collect();
    for s in 0..game.seats() {
        tiles.extend(game.rack(Seat(s as u8)).tiles());
    }
    tiles.extend(game.board().tiles().map(|(_, t)| t.rack_tile()));
    tiles.sort();
    tiles
}

/// The seat's whole rack as a word for [`play`], each blank played as the alphabet's first letter.
pub fn rack_word(game: &Game, seat: Seat) -> String {
    let first = game.rules().letters[0].ch.to_lowercase().next().unwrap();
    rack_letters(game, seat).into_iter().map(|c| if c == '?' { first } else { c }).collect()
}

/// Columns in the order [`dump_rack`] fills them: out from H.
pub const COLUMNS: [&str; 15] = ["H", "I", "J", "K", "L", "M", "N", "O", "G", "F", "E", "D", "C", "B", "A"];

/// The move that lays the seat's whole rack down a column: slots 0..15 below row 7 in
/// [`COLUMNS`] order, slots 15..30 above row 8 (any word: use with [`AnyWord`]).
pub fn dump_rack(game: &Game, k: usize) -> TileMove {
    let seat = game.to_move();
    let word = rack_word(game, seat);
    let start = if k < 15 { 8 } else { 8 - word.chars().count() };
    play(game.rules(), &format!("{}{start}", COLUMNS[k % 15]), Direction::Down, &word)
}
