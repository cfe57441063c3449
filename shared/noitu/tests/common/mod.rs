//! A hand-built dictionary small enough to reason about, and helpers.

#![allow(dead_code)]

use noitu::{ChainSetup, Dictionary, Options, WordChain};

/// The words, as edges between syllables: the opening "pháp luật" leads to luật; luật → pháp,
/// sư, nhân (3 syllables), sự (3 syllables), lệ (a dead end), bác; sư → phạm → luật (a
/// 3-cycle), phạm ⇄ vi; bác → sĩ → quan; nhân → dân → dân (4 syllables, a loop); pháp → lí (a
/// dead end); sự → thật → luật; quan → bình (written in the old tone style, "hòa").
pub const WORDS: &[&str] = &[
    "pháp luật",
    "pháp lí",
    "luật pháp",
    "luật sư",
    "luật hôn nhân",
    "luật hình sự",
    "luật lệ",
    "luật bác",
    "sư phạm",
    "phạm luật",
    "phạm vi",
    "vi phạm",
    "bác sĩ",
    "sĩ quan",
    "nhân dân",
    "dân chủ nhân dân",
    "sự thật",
    "thật luật",
    "quan hòa bình",
];

pub fn small() -> Dictionary {
    Dictionary::from_words(WORDS).unwrap()
}

/// A game over `dict` opening with `opening`.
pub fn game<'d>(dict: &'d Dictionary, opening: &str) -> WordChain<'d> {
    game_with(dict, opening, Options::default())
}

pub fn game_with<'d>(dict: &'d Dictionary, opening: &str, options: Options) -> WordChain<'d> {
    WordChain::new(&ChainSetup { seed: 1, seats: 2, lives: None, options, opening: Some(opening.to_string()) }, dict).unwrap()
}
