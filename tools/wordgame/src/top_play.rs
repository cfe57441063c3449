//! The top play by equity for a rack on a game view's board: what the load and crash clients
//! submit without asking the hint route (which a rated game refuses), and what browser tests
//! play in rated games.

/// The parts of a tile game's view a play is found from (the rest of the JSON is skipped).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Table {
    variant: engine::TileVariant,
    no_repeat_words: bool,
    played_words: Vec<String>,
    board: Vec<engine::moves::PlacementInput>,
}

/// The top play by equity for `rack` on `view`'s board (the hint route's generator, leave table
/// and no-repeat rule), searched first with any blanks held back, and with them only when that
/// finds no play; a pass when there is none. Holding blanks back keeps a load client's share of the machine small: racks with a blank
/// are about a sixth of all positions but about two thirds of the generator's time.
pub fn top_play(view: &Table, rack: &[String]) -> engine::TileMove {
    let rules = view.variant.rules();
    let mut board = engine::Board::new();
    for t in &view.board {
        let (Some(letter), Ok(square)) = (t.letter.and_then(|c| rules.letter(c)), t.square.parse()) else { continue };
        board.place(engine::Placement { square, tile: if t.blank { engine::Tile::Blank(letter) } else { engine::Tile::Letter(letter) } });
    }
    let tiles = rack.iter().filter_map(|s| match s.as_str() {
        "?" => Some(engine::RackTile::Blank),
        s => s.chars().next().and_then(|c| rules.letter(c)).map(engine::RackTile::Letter),
    });
    let rack = engine::Rack::from_tiles(tiles);
    let mut without_blanks = rack;
    while without_blanks.remove(engine::RackTile::Blank) {}
    let generator = engine::MoveGenerator::new(rules, engine::builtin_graph(view.variant));
    let leave = engine::LeaveTable::heuristic(rules);
    let played: std::collections::HashSet<String> = view.played_words.iter().cloned().collect();
    let played = view.no_repeat_words.then_some(&played);
    let top = |rack: &engine::Rack| {
        engine::best_plays::best_plays_on(rules, &board, played, &generator, rack, 1, engine::Ranking::Equity(&leave))
    };
    let mut plays = top(&without_blanks);
    if plays.is_empty() && without_blanks.len() < rack.len() {
        plays = top(&rack);
    }
    plays.first().map_or(engine::TileMove::Pass, |p| engine::TileMove::play(rules, &p.placements()))
}
