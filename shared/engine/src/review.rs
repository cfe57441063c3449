//! A finished game reviewed move by move: each play, pass and exchange beside the move the hard
//! level chooses in the same position, both valued by the engine's static equity (score plus the
//! value of the tiles kept, in thousandths of a point; with the bag empty, the endgame value:
//! score, less the points kept, or plus twice the others' points for going out), and the equity
//! the move gave away. The hard level decides with a random source seeded from the game's seed
//! and the move's number and a fixed number of simulation rounds, so a game's review is the same
//! on every run.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::endgame::{self, rack_points};
use crate::game::Game;
use crate::journal::{Action, JournalEntry};
use crate::leave::LeaveTable;
use crate::lexicon::WordGraph;
use crate::movegen::{GeneratedPlay, MoveGenerator};
use crate::moves::TileMove;
use crate::rack::Rack;
use crate::replay::{ReplayError, recorded_move};
use crate::robot::{LevelRobot, Robot, RobotView, Rounds};
use crate::seat::Seat;
use crate::setup::Setup;
use crate::tile::{Placement, RackTile, Tile};
use vocabulary::Level;

/// One move reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveReview {
    /// The move's number in the journal.
    pub move_no: u32,
    /// Who made it.
    pub seat: Seat,
    /// The points the move made scored (0 for a pass or an exchange).
    pub played_score: i32,
    /// The static equity of the move made, thousandths of a point.
    pub played_equity: i32,
    /// The hard level's move in the same position.
    pub best: TileMove,
    /// That move when it is a play, as the generator found it.
    pub best_play: Option<GeneratedPlay>,
    /// The points that move scores.
    pub best_score: i32,
    /// Its static equity, thousandths of a point.
    pub best_equity: i32,
}

impl MoveReview {
    /// The equity the move gave away against the hard level's, thousandths of a point (0 when
    /// it was as good or better).
    pub fn lost(&self) -> i32 {
        (self.best_equity - self.played_equity).max(0)
    }

    /// Whether the move made held at least the static equity of the hard level's. It can hold
    /// more: the hard level chooses by simulation, not by static equity.
    pub fn as_good(&self) -> bool {
        self.played_equity >= self.best_equity
    }
}

/// Reviews every play, pass and exchange of the game `journal` records on `setup`, the hard
/// level deciding with `rounds` simulation rounds at most.
///
/// # Errors
/// [`ReplayError`] for a journal that does not replay.
pub fn review(setup: &Setup, journal: &[JournalEntry], lexicon: &WordGraph, rounds: u32) -> Result<Vec<MoveReview>, ReplayError> {
    let mut game = Game::from_setup(setup)?;
    let rules = game.rules();
    let robot = LevelRobot::new(Level::Hard, &game, lexicon);
    let generator = MoveGenerator::new(rules, lexicon);
    let leave = LeaveTable::standard(rules);
    let mut reviews = Vec::new();
    for entry in journal {
        let reviewable = matches!(entry.action, Action::Play { .. } | Action::Pass | Action::Exchange { .. })
            && !game.is_over()
            && entry.seat == game.to_move();
        if reviewable {
            let ranked = endgame::ranked(&game, &generator, entry.seat, usize::MAX, &leave);
            let worth = Worth { game: &game, rack: game.rack(entry.seat), ranked: &ranked, leave: &leave };
            let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ u64::from(entry.move_no).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let decision = robot.decide(&RobotView::new(&game), &mut rng, &mut Rounds(rounds));
            let (best_score, best_equity) = match (&decision.play, &decision.mv) {
                (Some(p), _) => (p.score, worth.of_play(&p.placements(), p.score)),
                (None, TileMove::Exchange { tiles }) => (0, worth.of_exchange(&worth.returned(tiles))),
                _ => (0, worth.of_pass()),
            };
            let played_equity = match &entry.action {
                Action::Play { tiles, .. } => {
                    let placements: Vec<Placement> = tiles
                        .iter()
                        .filter_map(|t| {
                            let letter = rules.letter(t.letter)?;
                            Some(Placement { square: t.square, tile: if t.blank { Tile::Blank(letter) } else { Tile::Letter(letter) } })
                        })
                        .collect();
                    worth.of_play(&placements, entry.score)
                }
                Action::Exchange { tiles } => worth.of_exchange(&worth.returned(tiles)),
                _ => worth.of_pass(),
            };
            reviews.push(MoveReview {
                move_no: entry.move_no,
                seat: entry.seat,
                played_score: if matches!(entry.action, Action::Play { .. }) { entry.score } else { 0 },
                played_equity,
                best: decision.mv,
                best_play: decision.play,
                best_score,
                best_equity,
            });
        }
        let checked = recorded_move(&game, entry)?;
        game.apply(checked);
    }
    Ok(reviews)
}

/// What a move is worth in one position.
struct Worth<'a> {
    game: &'a Game,
    rack: &'a Rack,
    ranked: &'a [GeneratedPlay],
    leave: &'a LeaveTable,
}

impl Worth<'_> {
    fn endgame(&self) -> bool {
        self.game.bag().is_empty()
    }

    /// A play's equity: as the generator ranked it, or (a play it does not list, such as a
    /// phony laid under a challenge rule) from its score and the tiles it keeps.
    fn of_play(&self, placements: &[Placement], score: i32) -> i32 {
        let listed = self.ranked.iter().find(|g| {
            let mine = g.placements();
            mine.len() == placements.len() && placements.iter().all(|p| mine.contains(p))
        });
        if let Some(g) = listed {
            return g.equity;
        }
        let mut kept = *self.rack;
        for p in placements {
            kept.remove(p.tile.rack_tile());
        }
        if !self.endgame() {
            return score * 1000 + self.leave.value(&kept);
        }
        let rules = self.game.rules();
        1000 * (score - rack_points(rules, &kept))
    }

    /// The rack tiles an exchange returns.
    fn returned(&self, tiles: &[crate::moves::TileInput]) -> Rack {
        let rules = self.game.rules();
        Rack::from_tiles(tiles.iter().filter_map(|t| match t {
            crate::moves::TileInput::Letter(c) => rules.letter(*c).map(RackTile::Letter),
            crate::moves::TileInput::Blank => Some(RackTile::Blank),
        }))
    }

    /// An exchange's equity: the value of the tiles kept.
    fn of_exchange(&self, out: &Rack) -> i32 {
        self.rack.minus(out).map_or(0, |kept| self.leave.value(&kept))
    }

    /// A pass's equity: the whole rack kept (with the bag empty, its points lost at the end).
    fn of_pass(&self) -> i32 {
        if self.endgame() { -1000 * rack_points(self.game.rules(), self.rack) } else { self.leave.value(self.rack) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::builtin_graph;
    use crate::robot::seeded;
    use crate::variant::TileVariant;
    use vocabulary::Timestamp;

    /// A game of `variant` between two medium robots, `moves` moves long (or to its end).
    fn robot_game(variant: TileVariant, seed: u64, moves: usize) -> (Setup, Vec<JournalEntry>, &'static WordGraph) {
        let graph = builtin_graph(variant);
        let mut game = Game::new(variant, 2, seed).unwrap();
        let robot = LevelRobot::new(Level::Medium, &game, graph);
        let mut rng = seeded(seed);
        while !game.is_over() && (game.move_count() as usize) < moves {
            let decision = robot.decide(&RobotView::new(&game), &mut rng, &mut Rounds(2));
            let seat = game.to_move();
            game.play(graph, seat, &decision.mv, Timestamp(0)).unwrap();
        }
        (game.setup().clone(), game.journal().to_vec(), graph)
    }

    #[test]
    fn a_review_is_the_same_on_every_run_and_never_says_a_move_lost_less_than_nothing() {
        let (setup, journal, graph) = robot_game(TileVariant::ScrabbleEn, 11, 12);
        let a = review(&setup, &journal, graph, 4).unwrap();
        let b = review(&setup, &journal, graph, 4).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), journal.len(), "every move of a robot game is a play, a pass or an exchange");
        assert!(a.iter().all(|r| r.lost() >= 0 && r.lost() == (r.best_equity - r.played_equity).max(0)));
        assert!(a.iter().all(|r| r.as_good() == (r.lost() == 0)), "{a:?}");
        let scores: Vec<i32> = journal.iter().map(|e| e.score).collect();
        assert_eq!(a.iter().map(|r| r.played_score).collect::<Vec<_>>(), scores, "a robot game's moves score as recorded");
        // Medium plays the best static equity among short plays: often the hard level's choice.
        assert!(a.iter().any(|r| r.lost() == 0), "{a:?}");
    }

    #[test]
    fn a_weaker_move_gives_away_what_the_generator_says() {
        // The first move of a game: a pass keeps the rack; the best play is worth more.
        let graph = builtin_graph(TileVariant::ScrabbleEn);
        let mut game = Game::new(TileVariant::ScrabbleEn, 2, 5).unwrap();
        game.play(graph, Seat(0), &TileMove::Pass, Timestamp(0)).unwrap();
        let r = review(game.setup(), game.journal(), graph, 2).unwrap();
        assert_eq!(r.len(), 1);
        let leave = LeaveTable::standard(game.rules());
        let fresh = Game::new(TileVariant::ScrabbleEn, 2, 5).unwrap();
        assert_eq!(r[0].played_equity, leave.value(fresh.rack(Seat(0))));
        assert!(r[0].best_equity > r[0].played_equity && matches!(r[0].best, TileMove::Play { .. }), "{r:?}");
        assert!(!r[0].as_good() && r[0].played_score == 0, "{r:?}");
    }
}
