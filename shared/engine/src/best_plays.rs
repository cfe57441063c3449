//! The best plays of a position for hints and robots: the move generator's, filtered and re-ranked
//! by the game's no-repeat rule ([`crate::norepeat`]). The rule itself lives apart from this
//! filter, so the rules core (game, validation, replay) does not depend on the move generator.

use std::collections::HashSet;

use crate::board::Board;
use crate::game::Game;
use crate::movegen::{GeneratedPlay, MoveGenerator, Ranking};
use crate::norepeat::apply;
use crate::play;
use crate::rack::Rack;
use crate::variant::Rules;

/// The best `n` plays for `rack` in `game` under its rules ([`best_plays_on`] with the game's
/// board, and its played words when the rule applies).
pub fn best_plays(game: &Game, generator: &MoveGenerator<'_>, rack: &Rack, n: usize, ranking: Ranking<'_>) -> Vec<GeneratedPlay> {
    let played = game.no_repeat_words().then(|| game.played_words());
    best_plays_on(game.rules(), game.board(), played, generator, rack, n, ranking)
}

/// Every play of `rack` in `game` that its rules allow (main-word repeats dropped, repeated
/// cross-words re-scored at 0 where the no-repeat rule applies), highest score first.
pub fn all_plays(game: &Game, generator: &MoveGenerator<'_>, rack: &Rack) -> Vec<GeneratedPlay> {
    best_plays(game, generator, rack, usize::MAX, Ranking::Score)
}

/// The best `n` plays for `rack` on `board`: without the rule (`played` is `None`), the
/// generator's own top N; with it, main-word repeats dropped and repeated cross-words re-scored
/// at 0, then re-ranked. Exact: a re-score only lowers a play, so the walk down the ranked list
/// stops once no remaining play can enter.
pub fn best_plays_on(
    rules: &Rules,
    board: &Board,
    played: Option<&HashSet<String>>,
    generator: &MoveGenerator<'_>,
    rack: &Rack,
    n: usize,
    ranking: Ranking<'_>,
) -> Vec<GeneratedPlay> {
    let Some(played) = played.filter(|p| !p.is_empty()) else {
        if n == usize::MAX {
            let mut all = generator.all(board, rack);
            generator.rank(rack, &mut all, ranking);
            return all;
        }
        return generator.top(board, rack, n, ranking);
    };
    let key = |p: &GeneratedPlay| match ranking {
        Ranking::Score => p.score,
        Ranking::Equity(_) => p.equity,
    };
    let mut all = generator.all(board, rack);
    generator.rank(rack, &mut all, ranking);
    let mut best: Vec<GeneratedPlay> = Vec::with_capacity(n.saturating_add(1).min(256));
    for mut p in all {
        if best.len() == n && key(&p) < key(&best[n - 1]) {
            break;
        }
        let Ok(outcome) = play::evaluate(rules, board, rack, None, &p.placements()) else { continue };
        let mut score = outcome.score;
        if apply(played, &mut score, p.tiles_placed(), outcome.direction).is_err() {
            continue;
        }
        let lost = p.score - score.total;
        p.score = score.total;
        p.equity -= lost * 1000;
        let at = best.partition_point(|b| key(b) >= key(&p));
        best.insert(at, p);
        best.truncate(n);
    }
    best
}
