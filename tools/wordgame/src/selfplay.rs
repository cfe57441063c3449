//! Seeded self-play with the move generator's simple robots: best score, or best equity.

use engine::lexicon::builtin_graph;
use engine::movegen::exchanges;
use engine::{Game, GeneratedPlay, LeaveTable, MoveGenerator, Ranking, TileMove, TileVariant, Timestamp};

/// How a seat picks its move.
#[derive(Debug, Clone, Copy)]
pub enum StaticStrategy<'a> {
    /// The highest-scoring play.
    Score,
    /// The highest score + leave value.
    Equity(&'a LeaveTable),
}

/// The strategy's play for the seat to move, if it has one.
pub fn best_play(generator: &MoveGenerator<'_>, game: &Game, strategy: StaticStrategy<'_>) -> Option<GeneratedPlay> {
    let ranking = match strategy {
        StaticStrategy::Score => Ranking::Score,
        StaticStrategy::Equity(t) => Ranking::Equity(t),
    };
    // The game's own rules: in Эрудит no main word repeats.
    engine::best_plays::best_plays(game, generator, game.rack(game.to_move()), 1, ranking).into_iter().next()
}

/// The move for `play`, or without one a full exchange where allowed, else a pass.
pub fn to_move(game: &Game, play: Option<&GeneratedPlay>) -> TileMove {
    let rules = game.rules();
    match play {
        Some(p) => TileMove::play(rules, &p.placements()),
        None => match exchanges(rules, game.rack(game.to_move()), game.bag().len()).into_iter().max_by_key(|r| r.len()) {
            Some(all) => TileMove::exchange(rules, &all),
            None => TileMove::Pass,
        },
    }
}

/// Plays a two-seat game to its end; `observe` sees the game before each move and the play
/// chosen.
pub fn play_game(
    variant: TileVariant,
    seed: u64,
    seats: [StaticStrategy<'_>; 2],
    mut observe: impl FnMut(&Game, Option<&GeneratedPlay>),
) -> Game {
    let rules = variant.rules();
    let generator = MoveGenerator::new(rules, builtin_graph(variant));
    let mut game = Game::new(variant, 2, seed).expect("two seats");
    while !game.is_over() {
        let play = best_play(&generator, &game, seats[game.to_move().index()]);
        observe(&game, play.as_ref());
        let mv = to_move(&game, play.as_ref());
        let seat = game.to_move();
        game.play(builtin_graph(variant), seat, &mv, Timestamp(0)).expect("generated moves are legal");
    }
    game
}
