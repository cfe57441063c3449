//! The words spent in a game, shared by both seats (the opening word included), and how many
//! words each syllable still begins.

use crate::dictionary::{Dictionary, SyllableId, WordId};

/// The used-word set of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsedWords {
    bits: Vec<u64>,
    /// Used words beginning with each syllable.
    used_from: Vec<u32>,
    /// In the order they were spent.
    order: Vec<WordId>,
}

impl UsedWords {
    /// Nothing spent, over `dict`.
    pub fn new(dict: &Dictionary) -> UsedWords {
        UsedWords { bits: vec![0; dict.len().div_ceil(64)], used_from: vec![0; dict.syllable_count()], order: Vec::new() }
    }

    /// Whether `word` is spent.
    pub fn contains(&self, word: WordId) -> bool {
        self.bits[word.index() / 64] & (1 << (word.index() % 64)) != 0
    }

    /// Spends `word`; false if it was already spent.
    pub fn insert(&mut self, dict: &Dictionary, word: WordId) -> bool {
        if self.contains(word) {
            return false;
        }
        self.bits[word.index() / 64] |= 1 << (word.index() % 64);
        self.used_from[dict.first(word).index()] += 1;
        self.order.push(word);
        true
    }

    /// How many unused words begin with `syllable`.
    pub fn remaining_from(&self, dict: &Dictionary, syllable: SyllableId) -> usize {
        dict.out_degree(syllable) - self.used_from[syllable.index()] as usize
    }

    /// The spent words, in order (the opening word first).
    pub fn in_order(&self) -> &[WordId] {
        &self.order
    }

    /// How many words are spent.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}
