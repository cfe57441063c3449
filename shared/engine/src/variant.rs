//! The three variants as data: alphabet, tiles, values, board, rack, bonuses and end rules.
//!
//! Every fact comes from `docs/RULES.md`; the rules are a value, not a branch in the code. The
//! code branches on the variant only to pick the variant's own data: its word lists (`lexicon`),
//! its GCG lexicon name (`gcg`) and the robots' leave values (`leave`: English letter values in
//! the heuristic, and each variant's fitted table), which are strategy, not rules.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use crate::layout::Layout;
use crate::letter::Letter;
use crate::tables::{ERUDIT_FOLDS, ERUDIT_LETTERS, SCRABBLE_EN_LETTERS, SCRABBLE_RU_LETTERS};
use crate::tile::RackTile;

/// One of the supported game variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileVariant {
    /// Scrabble (English), id `scrabble-en`.
    ScrabbleEn,
    /// Scrabble (Russian), Mattel's edition, id `scrabble-ru`.
    ScrabbleRu,
    /// Эрудит, id `erudit`.
    Erudit,
}

impl TileVariant {
    /// Every variant.
    pub const ALL: [TileVariant; 3] = [TileVariant::ScrabbleEn, TileVariant::ScrabbleRu, TileVariant::Erudit];

    /// The stable id used in the API, the database and the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            TileVariant::ScrabbleEn => "scrabble-en",
            TileVariant::ScrabbleRu => "scrabble-ru",
            TileVariant::Erudit => "erudit",
        }
    }

    /// The variant's rules.
    pub fn rules(self) -> &'static Rules {
        match self {
            TileVariant::ScrabbleEn => &SCRABBLE_EN,
            TileVariant::ScrabbleRu => &SCRABBLE_RU,
            TileVariant::Erudit => &ERUDIT,
        }
    }
}

/// An unknown variant id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?} (expected scrabble-en, scrabble-ru or erudit)")]
pub struct VariantError(pub String);

impl FromStr for TileVariant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TileVariant::ALL.into_iter().find(|v| v.id() == s).ok_or_else(|| VariantError(s.to_string()))
    }
}

impl serde::Serialize for TileVariant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for TileVariant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for TileVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One letter of an alphabet: its character, how many tiles carry it, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LetterSpec {
    /// The upper-case character.
    pub ch: char,
    /// Tiles of this letter in a full set.
    pub count: u8,
    /// Points a tile of this letter scores.
    pub value: u8,
}

/// When an exchange is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExchangeRule {
    /// Only while the bag holds at least a full rack of tiles (Scrabble: 7).
    BagHoldsFullRack,
    /// While the bag holds at least as many tiles as are exchanged (Эрудит).
    BagHoldsExchanged,
}

/// How many consecutive scoreless turns end the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndRule {
    /// A fixed number of turns, whatever the seat count (Scrabble: 6).
    ScorelessTurns(u32),
    /// This many turns per seat (Эрудит: every player passes twice, 2 × players).
    ScorelessRoundsPerSeat(u32),
}

impl EndRule {
    /// Consecutive scoreless turns that end a game with `seats` players.
    pub const fn limit(self, seats: usize) -> u32 {
        match self {
            EndRule::ScorelessTurns(n) => n,
            EndRule::ScorelessRoundsPerSeat(n) => n * seats as u32,
        }
    }
}

/// The full rules of a variant.
#[derive(Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which variant these are.
    pub variant: TileVariant,
    /// The alphabet in order (the order of the first-move draw), with counts and values.
    pub letters: Vec<LetterSpec>,
    /// Blank tiles in a full set (they score 0).
    pub blanks: u8,
    /// Premium squares.
    pub layout: Layout,
    /// Tiles on a full rack.
    pub rack_size: usize,
    /// Bonus for playing a full rack in one turn.
    pub bingo_bonus: i32,
    /// When an exchange is allowed.
    pub exchange: ExchangeRule,
    /// When scoreless turns end the game.
    pub end: EndRule,
    /// Whether new games of this variant forbid repeated words by default.
    pub no_repeat_words: bool,
    /// Characters read as another letter of the alphabet (Эрудит: Ё is played as Е).
    pub folds: &'static [(char, char)],
}

impl Rules {
    /// The letter written `ch` (either case, after the variant's folds), if in the alphabet.
    pub fn letter(&self, ch: char) -> Option<Letter> {
        let mut upper = ch.to_uppercase();
        let up = upper.next()?;
        if upper.next().is_some() {
            return None;
        }
        let up = self.folds.iter().find(|(from, _)| *from == up).map_or(up, |&(_, to)| to);
        self.letters.iter().position(|spec| spec.ch == up).map(|i| Letter::new(i as u8))
    }

    /// The upper-case character of `letter`.
    pub fn char_of(&self, letter: Letter) -> char {
        self.letters[letter.index()].ch
    }

    /// Whether `letter` is a vowel (English A E I O U; Russian А Е Ё И О У Ы Э Ю Я), as leaves
    /// balance them and tile tracking counts them.
    pub fn is_vowel(&self, letter: Letter) -> bool {
        const VOWELS: &str = "AEIOUАЕЁИОУЫЭЮЯ";
        VOWELS.contains(self.char_of(letter))
    }

    /// Points scored by a lettered tile of `letter`.
    pub fn value(&self, letter: Letter) -> i32 {
        i32::from(self.letters[letter.index()].value)
    }

    /// Points a rack tile counts in the final settlement (a blank counts 0).
    pub fn rack_tile_value(&self, tile: RackTile) -> i32 {
        match tile {
            RackTile::Letter(l) => self.value(l),
            RackTile::Blank => 0,
        }
    }

    /// Every letter of the alphabet, in order.
    pub fn alphabet(&self) -> impl Iterator<Item = Letter> + '_ {
        (0..self.letters.len()).map(|i| Letter::new(i as u8))
    }

    /// Tiles in a full set.
    pub fn tile_count(&self) -> usize {
        self.letters.iter().map(|s| usize::from(s.count)).sum::<usize>() + usize::from(self.blanks)
    }

    /// Points of a full set.
    pub fn total_points(&self) -> i32 {
        self.letters.iter().map(|s| i32::from(s.count) * i32::from(s.value)).sum()
    }

    /// The full tile multiset in alphabet order, blanks last.
    pub fn full_set(&self) -> Vec<RackTile> {
        let mut tiles = Vec::with_capacity(self.tile_count());
        for (letter, spec) in self.alphabet().zip(&self.letters) {
            tiles.extend(std::iter::repeat_n(RackTile::Letter(letter), usize::from(spec.count)));
        }
        tiles.extend(std::iter::repeat_n(RackTile::Blank, usize::from(self.blanks)));
        tiles
    }

    /// Whether `exchanged` tiles may be exchanged with `bag` tiles left.
    pub const fn exchange_allowed(&self, exchanged: usize, bag: usize) -> bool {
        match self.exchange {
            ExchangeRule::BagHoldsFullRack => bag >= self.rack_size,
            ExchangeRule::BagHoldsExchanged => bag >= exchanged,
        }
    }

    /// The least bag size that allows exchanging `exchanged` tiles.
    pub const fn exchange_needs(&self, exchanged: usize) -> usize {
        match self.exchange {
            ExchangeRule::BagHoldsFullRack => self.rack_size,
            ExchangeRule::BagHoldsExchanged => exchanged,
        }
    }
}

fn letters(table: &[(char, u8, u8)]) -> Vec<LetterSpec> {
    table.iter().map(|&(ch, count, value)| LetterSpec { ch, count, value }).collect()
}

const TW: &[&str] = &["A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"];
const DW_OUTER: &[&str] = &["B2", "N2", "C3", "M3", "D4", "L4", "E5", "K5", "E11", "K11", "D12", "L12", "C13", "M13", "B14", "N14"];
const TL_OUTER: &[&str] = &["F2", "J2", "B6", "N6", "B10", "N10", "F14", "J14"];
const TL_INNER: &[&str] = &["F6", "J6", "F10", "J10"];
const DL: &[&str] = &[
    "D1", "L1", "G3", "I3", "A4", "H4", "O4", "C7", "G7", "I7", "M7", "D8", "L8", "C9", "G9", "I9", "M9", "A12", "H12", "O12", "G13",
    "I13", "D15", "L15",
];

fn scrabble_layout() -> Layout {
    let dw: Vec<&str> = DW_OUTER.iter().copied().chain(["H8"]).collect();
    let tl: Vec<&str> = TL_OUTER.iter().chain(TL_INNER).copied().collect();
    Layout::from_lists(TW, &dw, &tl, DL)
}

/// Mattel's rules, shared by both Scrabble editions: they differ only in their tiles.
fn scrabble(variant: TileVariant, table: &[(char, u8, u8)]) -> Rules {
    Rules {
        variant,
        letters: letters(table),
        blanks: 2,
        layout: scrabble_layout(),
        rack_size: 7,
        bingo_bonus: 50,
        exchange: ExchangeRule::BagHoldsFullRack,
        end: EndRule::ScorelessTurns(6),
        no_repeat_words: false,
        folds: &[],
    }
}

static SCRABBLE_EN: LazyLock<Rules> = LazyLock::new(|| scrabble(TileVariant::ScrabbleEn, SCRABBLE_EN_LETTERS));

static SCRABBLE_RU: LazyLock<Rules> = LazyLock::new(|| scrabble(TileVariant::ScrabbleRu, SCRABBLE_RU_LETTERS));

static ERUDIT: LazyLock<Rules> = LazyLock::new(|| Rules {
    variant: TileVariant::Erudit,
    letters: letters(ERUDIT_LETTERS),
    blanks: 3,
    layout: Layout::from_lists(TW, DW_OUTER, TL_OUTER, DL),
    rack_size: 7,
    bingo_bonus: 15,
    exchange: ExchangeRule::BagHoldsExchanged,
    end: EndRule::ScorelessRoundsPerSeat(2),
    no_repeat_words: true,
    folds: ERUDIT_FOLDS,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Premium;

    #[test]
    fn tile_sets_have_the_published_totals() {
        let expect = [
            (TileVariant::ScrabbleEn, 100, 187, 26, 2),
            (TileVariant::ScrabbleRu, 104, 224, 33, 2),
            (TileVariant::Erudit, 131, 315, 32, 3),
        ];
        for (variant, tiles, points, letters, blanks) in expect {
            let rules = variant.rules();
            assert_eq!(rules.tile_count(), tiles, "{variant}");
            assert_eq!(rules.full_set().len(), tiles, "{variant}");
            assert_eq!(rules.total_points(), points, "{variant}");
            assert_eq!(rules.letters.len(), letters, "{variant}");
            assert_eq!(usize::from(rules.blanks), blanks, "{variant}");
        }
    }

    #[test]
    fn layouts_have_the_published_premium_counts() {
        for variant in [TileVariant::ScrabbleEn, TileVariant::ScrabbleRu] {
            let l = &variant.rules().layout;
            assert_eq!(
                [
                    l.count(Premium::TripleWord),
                    l.count(Premium::DoubleWord),
                    l.count(Premium::TripleLetter),
                    l.count(Premium::DoubleLetter)
                ],
                [8, 17, 12, 24]
            );
            assert_eq!(l.premium(crate::Square::CENTER), Premium::DoubleWord);
        }
        let l = &TileVariant::Erudit.rules().layout;
        assert_eq!(
            [l.count(Premium::TripleWord), l.count(Premium::DoubleWord), l.count(Premium::TripleLetter), l.count(Premium::DoubleLetter)],
            [8, 16, 8, 24]
        );
        assert_eq!(l.premium(crate::Square::CENTER), Premium::None);
        assert_eq!(l.premium("F6".parse().unwrap()), Premium::None);
    }

    #[test]
    fn variants_parse_and_print_as_their_ids() {
        for v in TileVariant::ALL {
            assert_eq!(v.id().parse::<TileVariant>().unwrap(), v);
            assert_eq!(v.to_string(), v.id());
        }
        assert!("scrabble".parse::<TileVariant>().is_err());
    }

    #[test]
    fn letters_parse_in_either_case_and_erudit_folds_yo() {
        let ru = TileVariant::ScrabbleRu.rules();
        assert_eq!(ru.letter('ё').map(|l| ru.char_of(l)), Some('Ё'));
        assert_eq!(ru.letter('а').map(|l| l.index()), Some(0));
        let er = TileVariant::Erudit.rules();
        assert_eq!(er.letter('ё').map(|l| er.char_of(l)), Some('Е'));
        let en = TileVariant::ScrabbleEn.rules();
        assert_eq!(en.letter('q').map(|l| en.char_of(l)), Some('Q'));
        assert_eq!(en.letter('Ж'), None);
        assert_eq!(en.letter('?'), None);
    }

    #[test]
    fn exchange_and_end_rules_follow_the_variant() {
        let en = TileVariant::ScrabbleEn.rules();
        assert!(!en.exchange_allowed(1, 6));
        assert!(en.exchange_allowed(7, 7));
        let er = TileVariant::Erudit.rules();
        assert!(er.exchange_allowed(3, 3));
        assert!(!er.exchange_allowed(4, 3));
        assert_eq!(en.end.limit(4), 6);
        assert_eq!(er.end.limit(3), 6);
        assert!(er.no_repeat_words && !en.no_repeat_words && !TileVariant::ScrabbleRu.rules().no_repeat_words);
    }
}
