//! Validation of a placement against a position: shape, rack, board, then words.
//!
//! Stateless: it knows the board, the rack and a lexicon, nothing of a game's history. The
//! game layer adds turn checks in front; replay runs the same checks without a lexicon.

use crate::board::Board;
use crate::lexicon::Lexicon;
use crate::moves::PlacementInput;
use crate::rack::Rack;
use crate::rejection::Rejection;
use crate::scoring::{ScoreBreakdown, score_play, word_through};
use crate::square::{Direction, Square};
use crate::tile::{Placement, RackTile, Tile};
use crate::variant::Rules;

/// A legal placement: its tiles along the main word, the main word's direction and the score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayOutcome {
    /// The tiles placed, sorted along the main word.
    pub placements: Vec<Placement>,
    /// The main word's direction.
    pub direction: Direction,
    /// Words formed and their scores.
    pub score: ScoreBreakdown,
}

/// Turns untrusted placements into typed ones: shape first, then letters and the rack.
///
/// # Errors
/// The first [`Rejection`] in checking order (no tiles, off board, duplicate square, not in
/// line, gap, missing letter, blank without letter, letter not in alphabet, tile not on rack).
pub fn parse_placements(rules: &Rules, board: &Board, rack: &Rack, inputs: &[PlacementInput]) -> Result<Vec<Placement>, Rejection> {
    if inputs.is_empty() {
        return Err(Rejection::NoTiles);
    }
    let mut squares = Vec::with_capacity(inputs.len());
    for input in inputs {
        let sq: Square = input.square.trim().parse().map_err(|_| Rejection::OffBoard { square: input.square.clone() })?;
        if squares.contains(&sq) {
            return Err(Rejection::DuplicateSquare { square: sq });
        }
        squares.push(sq);
    }
    check_line(board, &squares)?;
    let mut placements = Vec::with_capacity(inputs.len());
    for (input, &square) in inputs.iter().zip(&squares) {
        let ch = match (input.letter, input.blank) {
            (Some(ch), _) => ch,
            (None, true) => return Err(Rejection::BlankWithoutLetter { square }),
            (None, false) => return Err(Rejection::MissingLetter { square }),
        };
        let letter = rules.letter(ch).ok_or(Rejection::LetterNotInAlphabet { letter: ch })?;
        let tile = if input.blank { Tile::Blank(letter) } else { Tile::Letter(letter) };
        placements.push(Placement { square, tile });
    }
    check_rack(rules, rack, &placements)?;
    Ok(placements)
}

/// Checks typed placements against the position and scores them.
///
/// With `lexicon` `None` the words are not looked up (replay trusts the journal's words).
///
/// # Errors
/// The first [`Rejection`] in checking order, from "not in line" on; invalid words are all
/// collected into one [`Rejection::InvalidWords`].
pub fn evaluate(
    rules: &Rules,
    board: &Board,
    rack: &Rack,
    lexicon: Option<&dyn Lexicon>,
    placements: &[Placement],
) -> Result<PlayOutcome, Rejection> {
    if placements.is_empty() {
        return Err(Rejection::NoTiles);
    }
    let squares: Vec<Square> = placements.iter().map(|p| p.square).collect();
    for (i, sq) in squares.iter().enumerate() {
        if squares[..i].contains(sq) {
            return Err(Rejection::DuplicateSquare { square: *sq });
        }
    }
    let line = check_line(board, &squares)?;
    check_rack(rules, rack, placements)?;
    check_board(board, &squares)?;
    let direction = match line {
        Some(dir) => dir,
        None if word_through(board, placements, squares[0], Direction::Across).is_some() => Direction::Across,
        None => Direction::Down,
    };
    let mut sorted = placements.to_vec();
    sorted.sort_by_key(|p| p.square.along(direction));
    let score = score_play(rules, board, &sorted, direction);
    if score.words.is_empty() {
        return Err(Rejection::NoWordFormed);
    }
    if let Some(lexicon) = lexicon {
        let invalid: Vec<String> = score
            .words
            .iter()
            .filter(|w| {
                let letters: Option<Vec<_>> = w.word.chars().map(|c| rules.letter(c)).collect();
                !letters.is_some_and(|l| lexicon.contains(&l))
            })
            .map(|w| w.word.clone())
            .collect();
        if !invalid.is_empty() {
            return Err(Rejection::InvalidWords { words: invalid });
        }
    }
    Ok(PlayOutcome { placements: sorted, direction, score })
}

/// Checks untrusted placements fully: [`parse_placements`] then [`evaluate`].
///
/// # Errors
/// The first [`Rejection`] in checking order.
pub fn check(
    rules: &Rules,
    board: &Board,
    rack: &Rack,
    lexicon: &dyn Lexicon,
    inputs: &[PlacementInput],
) -> Result<PlayOutcome, Rejection> {
    let placements = parse_placements(rules, board, rack, inputs)?;
    evaluate(rules, board, rack, Some(lexicon), &placements)
}

/// The line the squares share (`None` for a single tile), with no empty square between them.
fn check_line(board: &Board, squares: &[Square]) -> Result<Option<Direction>, Rejection> {
    let first = squares[0];
    let dir = if squares.len() == 1 {
        return Ok(None);
    } else if squares.iter().all(|s| s.row() == first.row()) {
        Direction::Across
    } else if squares.iter().all(|s| s.col() == first.col()) {
        Direction::Down
    } else {
        return Err(Rejection::NotInLine);
    };
    let lo = squares.iter().map(|s| s.along(dir)).min().unwrap_or(0);
    let hi = squares.iter().map(|s| s.along(dir)).max().unwrap_or(0);
    for pos in lo..=hi {
        let sq = match dir {
            Direction::Across => Square::new(first.row(), pos),
            Direction::Down => Square::new(pos, first.col()),
        }
        .expect("between two board squares");
        if !squares.contains(&sq) && !board.is_occupied(sq) {
            return Err(Rejection::Gap { square: sq });
        }
    }
    Ok(Some(dir))
}

/// Every tile the placements use must be on the rack (a blank for each blank).
fn check_rack(rules: &Rules, rack: &Rack, placements: &[Placement]) -> Result<(), Rejection> {
    let mut left = *rack;
    for p in placements {
        let need = p.tile.rack_tile();
        if !left.remove(need) {
            let tile = match need {
                RackTile::Letter(l) => rules.char_of(l).to_string(),
                RackTile::Blank => "?".to_string(),
            };
            return Err(Rejection::TileNotOnRack { tile });
        }
    }
    Ok(())
}

/// Squares must be free; the first play covers H8; later plays touch a tile on the board.
fn check_board(board: &Board, squares: &[Square]) -> Result<(), Rejection> {
    if let Some(&square) = squares.iter().find(|&&s| board.is_occupied(s)) {
        return Err(Rejection::SquareOccupied { square });
    }
    if board.is_empty() {
        if !squares.contains(&Square::CENTER) {
            return Err(Rejection::FirstPlayMissesCenter);
        }
    } else if !squares.iter().any(|&s| board.has_neighbour(s)) {
        return Err(Rejection::NotConnected);
    }
    Ok(())
}
