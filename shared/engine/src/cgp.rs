//! Crossword Game Position (CGP): the one-line position format of Macondo and Woogles.
//!
//! `<15 board rows joined by '/'> <racks joined by '/'> <scores joined by '/'> <zero turns>
//! [opcodes]`, e.g. `15/…/15 AEINRST/ 0/0 0 lex NWL20;`. A row is letters (upper case for tiles,
//! lower case for blanks) and digit runs for empty squares; a rack writes a blank as `?`.
//! Cyrillic letters work the same way.

use std::fmt;

use crate::board::Board;
use crate::rack::Rack;
use crate::square::{BOARD_SIZE, Square};
use crate::tile::{Placement, RackTile, Tile};
use crate::variant::Rules;

/// A position: board, racks, scores, consecutive scoreless turns and the lexicon name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgpPosition {
    /// Tiles on the board.
    pub board: Board,
    /// One rack per player (an unknown rack is empty).
    pub racks: Vec<Rack>,
    /// One score per player.
    pub scores: Vec<i32>,
    /// Consecutive scoreless turns.
    pub zero_turns: u32,
    /// The `lex` opcode's value, if given.
    pub lexicon: Option<String>,
}

/// A CGP string that is not a valid position for the variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CgpError {
    /// A required field is missing.
    #[error("missing the {0} field")]
    MissingField(&'static str),
    /// The board has the wrong number of rows.
    #[error("the board has {0} rows, not 15")]
    RowCount(usize),
    /// A row does not describe exactly 15 squares.
    #[error("row {row} describes {squares} squares, not 15")]
    RowLength {
        /// 1-based row.
        row: usize,
        /// Squares described.
        squares: usize,
    },
    /// A character is not a letter of the variant (or `?` in a rack).
    #[error("{0:?} is not a letter of this variant")]
    UnknownLetter(char),
    /// Racks and scores name different numbers of players, or not 2..=4.
    #[error("{racks} racks and {scores} scores: expected the same count, 2 to 4")]
    PlayerCount {
        /// Racks given.
        racks: usize,
        /// Scores given.
        scores: usize,
    },
    /// A rack holds more tiles than a full rack.
    #[error("a rack holds {0} tiles, more than a full rack")]
    RackTooLarge(usize),
    /// A number does not parse.
    #[error("{0:?} is not a number")]
    BadNumber(String),
    /// More tiles of a kind than the variant's set has.
    #[error("{count} {tile} tiles, but the set has only {max}")]
    TooManyTiles {
        /// The tile (`?` for a blank).
        tile: char,
        /// How many the position uses.
        count: usize,
        /// How many the set has.
        max: usize,
    },
    /// An opcode is malformed.
    #[error("malformed opcode {0:?}")]
    BadOpcode(String),
}

impl CgpPosition {
    /// Parses a CGP line for `rules`' alphabet.
    ///
    /// # Errors
    /// [`CgpError`] for the first problem found; never panics on any input.
    pub fn parse(rules: &Rules, text: &str) -> Result<CgpPosition, CgpError> {
        let mut fields = text.split_whitespace();
        let board_field = fields.next().ok_or(CgpError::MissingField("board"))?;
        let racks_field = fields.next().ok_or(CgpError::MissingField("racks"))?;
        let scores_field = fields.next().ok_or(CgpError::MissingField("scores"))?;
        let zero_field = fields.next().ok_or(CgpError::MissingField("zero turns"))?;
        let board = parse_board(rules, board_field)?;
        let racks = racks_field.split('/').map(|r| parse_rack(rules, r)).collect::<Result<Vec<_>, _>>()?;
        let scores = scores_field
            .split('/')
            .map(|s| s.parse::<i32>().map_err(|_| CgpError::BadNumber(s.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        if racks.len() != scores.len() || !(2..=4).contains(&racks.len()) {
            return Err(CgpError::PlayerCount { racks: racks.len(), scores: scores.len() });
        }
        let zero_turns = zero_field.parse().map_err(|_| CgpError::BadNumber(zero_field.to_string()))?;
        let rest: Vec<&str> = fields.collect();
        let lexicon = parse_opcodes(&rest.join(" "))?;
        let position = CgpPosition { board, racks, scores, zero_turns, lexicon };
        position.check_tile_counts(rules)?;
        Ok(position)
    }

    /// The CGP line for this position.
    pub fn to_cgp(&self, rules: &Rules) -> String {
        Cgp { position: self, rules }.to_string()
    }

    fn check_tile_counts(&self, rules: &Rules) -> Result<(), CgpError> {
        let mut used = Rack::new();
        for (_, t) in self.board.tiles() {
            used.add(t.rack_tile());
        }
        for r in &self.racks {
            for t in r.tiles() {
                used.add(t);
            }
        }
        if used.blanks() > usize::from(rules.blanks) {
            return Err(CgpError::TooManyTiles { tile: '?', count: used.blanks(), max: usize::from(rules.blanks) });
        }
        for (letter, spec) in rules.alphabet().zip(&rules.letters) {
            let count = used.count(RackTile::Letter(letter));
            if count > usize::from(spec.count) {
                return Err(CgpError::TooManyTiles { tile: spec.ch, count, max: usize::from(spec.count) });
            }
        }
        Ok(())
    }
}

fn parse_board(rules: &Rules, field: &str) -> Result<Board, CgpError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != BOARD_SIZE {
        return Err(CgpError::RowCount(rows.len()));
    }
    let mut board = Board::new();
    for (r, row) in rows.iter().enumerate() {
        let mut col = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut run = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run.saturating_mul(10).saturating_add(d2 as usize);
                    chars.next();
                }
                col = col.saturating_add(run);
                continue;
            }
            let letter = rules.letter(ch).ok_or(CgpError::UnknownLetter(ch))?;
            let tile = if ch.is_lowercase() { Tile::Blank(letter) } else { Tile::Letter(letter) };
            if let Some(square) = Square::new(r, col) {
                board.place(Placement { square, tile });
            }
            col += 1;
        }
        if col != BOARD_SIZE {
            return Err(CgpError::RowLength { row: r + 1, squares: col });
        }
    }
    Ok(board)
}

fn parse_rack(rules: &Rules, field: &str) -> Result<Rack, CgpError> {
    let mut rack = Rack::new();
    for ch in field.chars() {
        let tile = if ch == '?' { RackTile::Blank } else { RackTile::Letter(rules.letter(ch).ok_or(CgpError::UnknownLetter(ch))?) };
        if rack.len() >= rules.rack_size {
            return Err(CgpError::RackTooLarge(field.chars().count()));
        }
        rack.add(tile);
    }
    Ok(rack)
}

/// Reads the opcodes (`name args;` each), returning the `lex` value.
fn parse_opcodes(text: &str) -> Result<Option<String>, CgpError> {
    let mut lexicon = None;
    for op in text.split(';').map(str::trim).filter(|op| !op.is_empty()) {
        let mut words = op.split_whitespace();
        let name = words.next().unwrap_or_default();
        if name == "lex" {
            let value = words.next().ok_or_else(|| CgpError::BadOpcode(op.to_string()))?;
            lexicon = Some(value.to_string());
        }
    }
    if !text.trim().is_empty() && !text.trim_end().ends_with(';') {
        return Err(CgpError::BadOpcode(text.trim().to_string()));
    }
    Ok(lexicon)
}

struct Cgp<'a> {
    position: &'a CgpPosition,
    rules: &'a Rules,
}

impl fmt::Display for Cgp<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, rules) = (self.position, self.rules);
        for row in 0..BOARD_SIZE {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for col in 0..BOARD_SIZE {
                match Square::new(row, col).and_then(|sq| p.board.get(sq)) {
                    None => empty += 1,
                    Some(tile) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let ch = rules.char_of(tile.letter());
                        if tile.is_blank() {
                            write!(f, "{}", ch.to_lowercase())?;
                        } else {
                            write!(f, "{ch}")?;
                        }
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        f.write_str(" ")?;
        for (i, rack) in p.racks.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for t in rack.tiles() {
                match t {
                    RackTile::Letter(l) => write!(f, "{}", rules.char_of(l))?,
                    RackTile::Blank => f.write_str("?")?,
                }
            }
        }
        f.write_str(" ")?;
        let scores: Vec<String> = p.scores.iter().map(i32::to_string).collect();
        write!(f, "{} {}", scores.join("/"), p.zero_turns)?;
        if let Some(lex) = &p.lexicon {
            write!(f, " lex {lex};")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::TileVariant;

    const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

    #[test]
    fn an_empty_board_round_trips() {
        let rules = TileVariant::ScrabbleEn.rules();
        let text = format!("{EMPTY} AEINRS?/ 0/0 0 lex NWL20;");
        let p = CgpPosition::parse(rules, &text).unwrap();
        assert!(p.board.is_empty());
        assert_eq!(p.racks[0].len(), 7);
        assert!(p.racks[1].is_empty());
        assert_eq!(p.lexicon.as_deref(), Some("NWL20"));
        assert_eq!(p.to_cgp(rules), text);
    }

    #[test]
    fn a_board_with_blanks_and_cyrillic_round_trips() {
        let rules = TileVariant::ScrabbleRu.rules();
        let text = "15/15/15/15/15/15/15/5КОТъ6/15/15/15/15/15/15/15 АБВ?/ЁЖ 12/-3 2 lex RU;";
        let p = CgpPosition::parse(rules, text).unwrap();
        assert_eq!(p.board.tile_count(), 4);
        let sq: Square = "I8".parse().unwrap();
        assert!(p.board.get(sq).unwrap().is_blank());
        assert_eq!(p.scores, vec![12, -3]);
        assert_eq!(p.zero_turns, 2);
        assert_eq!(p.to_cgp(rules), text);
    }

    #[test]
    fn malformed_positions_are_rejected_with_a_reason() {
        let rules = TileVariant::ScrabbleEn.rules();
        let cases = [
            ("", CgpError::MissingField("board")),
            ("15/15 A/B 0/0 0", CgpError::RowCount(2)),
            (&*format!("16/{} A/B 0/0 0", &EMPTY[3..]), CgpError::RowLength { row: 1, squares: 16 }),
            (&*format!("{EMPTY} A1/B 0/0 0"), CgpError::UnknownLetter('1')),
            (&*format!("{EMPTY} A/B 0 0"), CgpError::PlayerCount { racks: 2, scores: 1 }),
            (&*format!("{EMPTY} ABCDEFGH/B 0/0 0"), CgpError::RackTooLarge(8)),
            (&*format!("{EMPTY} A/B x/0 0"), CgpError::BadNumber("x".into())),
            (&*format!("{EMPTY} ZZ/B 0/0 0"), CgpError::TooManyTiles { tile: 'Z', count: 2, max: 1 }),
            (&*format!("{EMPTY} ???/B 0/0 0"), CgpError::TooManyTiles { tile: '?', count: 3, max: 2 }),
            (&*format!("{EMPTY} A/B 0/0 0 lex"), CgpError::BadOpcode("lex".into())),
        ];
        for (text, want) in cases {
            assert_eq!(CgpPosition::parse(rules, text), Err(want), "{text}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_parser_never_panics(text in "\\PC{0,200}") {
            let _ = CgpPosition::parse(TileVariant::ScrabbleEn.rules(), &text);
            let _ = CgpPosition::parse(TileVariant::Erudit.rules(), &text);
        }

        #[test]
        fn near_valid_lines_never_panic(rows in proptest::collection::vec("[A-Za-z0-9?]{0,17}", 14..17), rest in "[ A-Z?/0-9;a-z-]{0,30}") {
            let text = format!("{} {}", rows.join("/"), rest);
            let _ = CgpPosition::parse(TileVariant::ScrabbleEn.rules(), &text);
        }
    }
}
