//! Эрудит's no-repeat-words rule, in the game layer (the move generator stays stateless and
//! standard-rules): a play whose main word is already on the board is illegal; a repeated
//! cross-word stands but scores 0. The played words are the game's own journal, main words and
//! cross-words alike, compared decoded (a word spelled with a blank is the same word). A one-tile
//! play forming words both ways has no declared direction: its main word is a new one if it forms
//! one, so it is illegal only when every word it forms is a repeat.

use std::collections::HashSet;

use crate::board::Board;
use crate::game::Game;
use crate::movegen::{GeneratedPlay, MoveGenerator, Ranking};
use crate::play;
use crate::rack::Rack;
use crate::rejection::Rejection;
use crate::scoring::ScoreBreakdown;
use crate::square::Direction;
use crate::variant::Rules;

/// Applies the rule to a scored play of `tiles_placed` tiles: marks repeated cross-words (score
/// 0), re-totals, and returns the main word's direction (it changes when a one-tile play's first
/// word is a repeat and its other word is new).
///
/// # Errors
/// [`Rejection::WordAlreadyPlayed`] when the main word repeats (for a one-tile play: every word).
pub fn apply(
    played: &HashSet<String>,
    score: &mut ScoreBreakdown,
    tiles_placed: usize,
    direction: Direction,
) -> Result<Direction, Rejection> {
    let repeated = |w: &str| played.contains(w);
    let mut direction = direction;
    if tiles_placed == 1 && score.words.len() == 2 && repeated(&score.words[0].word) {
        if repeated(&score.words[1].word) {
            return Err(Rejection::WordAlreadyPlayed { words: score.words.iter().map(|w| w.word.clone()).collect() });
        }
        score.words.swap(0, 1);
        score.words[0].main = true;
        score.words[1].main = false;
        direction = score.words[0].direction;
    } else if let Some(main) = score.words.iter().find(|w| w.main)
        && repeated(&main.word)
    {
        return Err(Rejection::WordAlreadyPlayed { words: vec![main.word.clone()] });
    }
    for w in score.words.iter_mut().filter(|w| !w.main && played.contains(&w.word)) {
        w.repeat = true;
        w.score = 0;
    }
    score.total = score.words.iter().map(|w| w.score).sum::<i32>() + score.bingo;
    Ok(direction)
}

/// The best `n` plays for `rack` in `game` under its rules ([`best_plays_on`] with the game's
/// board, and its played words when the rule applies).
pub fn best_plays(game: &Game, generator: &MoveGenerator<'_>, rack: &Rack, n: usize, ranking: Ranking<'_>) -> Vec<GeneratedPlay> {
    let played = game.no_repeat_words().then(|| game.played_words());
    best_plays_on(game.rules(), game.board(), played, generator, rack, n, ranking)
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
        return generator.top(board, rack, n, ranking);
    };
    let key = |p: &GeneratedPlay| match ranking {
        Ranking::Score => p.score,
        Ranking::Equity(_) => p.equity,
    };
    let mut all = generator.all(board, rack);
    generator.rank(rack, &mut all, ranking);
    let mut best: Vec<GeneratedPlay> = Vec::with_capacity(n + 1);
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
