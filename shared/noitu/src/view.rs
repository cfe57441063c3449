//! What a robot may see: a game, read-only. A robot reads the position through [`ChainRobotView`] and
//! proposes a word; it cannot play it, so its word goes through the same checks as anyone's.

use crate::dictionary::{Dictionary, SyllableId, WordId};
use crate::game::WordChain;
use crate::seat::Seat;
use vocabulary::Opponent;

/// A read-only view of a game for the seat to move, and whom it plays against.
#[derive(Debug, Clone, Copy)]
pub struct ChainRobotView<'g, 'd> {
    game: &'g WordChain<'d>,
    against: Opponent,
}

impl<'g, 'd> ChainRobotView<'g, 'd> {
    /// The view of `game` against a person.
    pub fn new(game: &'g WordChain<'d>) -> ChainRobotView<'g, 'd> {
        ChainRobotView::against(game, Opponent::Person)
    }

    /// The view of `game` against `opponent`.
    pub fn against(game: &'g WordChain<'d>, opponent: Opponent) -> ChainRobotView<'g, 'd> {
        ChainRobotView { game, against: opponent }
    }

    /// Whom the seat to move plays against.
    pub fn opponent(&self) -> Opponent {
        self.against
    }

    /// Whether the opponent can play `word`, as far as a robot may judge: a person the familiar
    /// words ([`Dictionary::is_familiar`]), a robot every word.
    pub fn opponent_knows(&self, word: WordId) -> bool {
        self.against == Opponent::Robot || self.dictionary().is_familiar(word)
    }

    /// The dictionary.
    pub fn dictionary(&self) -> &'d Dictionary {
        self.game.dictionary()
    }

    /// The seat to move.
    pub fn seat(&self) -> Seat {
        self.game.to_move()
    }

    /// The syllable the next word must begin with.
    pub fn current(&self) -> SyllableId {
        self.game.current()
    }

    /// The words the seat to move may play.
    pub fn legal_moves(&self) -> impl Iterator<Item = WordId> + 'g {
        self.game.legal_moves()
    }

    /// Whether `word` is spent.
    pub fn is_used(&self, word: WordId) -> bool {
        self.game.used().contains(word)
    }

    /// The spent words, the opening first.
    pub fn used(&self) -> &'g [WordId] {
        self.game.used().in_order()
    }

    /// How many unused words begin with `syllable`.
    pub fn remaining_from(&self, syllable: SyllableId) -> usize {
        self.game.used().remaining_from(self.game.dictionary(), syllable)
    }

    /// How many words the opponent could answer the legal move `word` with, were it played now.
    pub fn replies_after(&self, word: WordId) -> usize {
        let dict = self.dictionary();
        let last = dict.last(word);
        self.remaining_from(last) - usize::from(dict.first(word) == last)
    }

    /// How many words the opponent could answer the legal move `word` with, counted as it can
    /// ([`ChainRobotView::opponent_knows`]): [`ChainRobotView::replies_after`] against a robot, the
    /// unused familiar ones against a person.
    pub fn answers_after(&self, word: WordId) -> usize {
        if self.against == Opponent::Robot {
            return self.replies_after(word);
        }
        let dict = self.dictionary();
        dict.words_from(dict.last(word)).filter(|&w| w != word && !self.is_used(w) && dict.is_familiar(w)).count()
    }

    /// The chain length so far.
    pub fn chain(&self) -> u32 {
        self.game.chain()
    }

    /// Each seat's points.
    pub fn scores(&self) -> &'g [u32] {
        self.game.scores()
    }
}
