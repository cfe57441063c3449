//! Эрудит's no-repeat-words rule, in the game layer (the move generator stays stateless and
//! standard-rules, and the filter of generated plays is [`crate::best_plays`]): a play whose main word is already on the board is illegal; a repeated
//! cross-word stands but scores 0. The played words are the game's own journal, main words and
//! cross-words alike, compared decoded (a word spelled with a blank is the same word). A one-tile
//! play forming words both ways has no declared direction: its main word is a new one if it forms
//! one, so it is illegal only when every word it forms is a repeat.

use std::collections::HashSet;

use crate::rejection::Rejection;
use crate::scoring::ScoreBreakdown;
use crate::square::Direction;

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
