//! What a client needs to draw a game before it has one: every variant with its family, seat
//! range and, for a tile game, its letters (value and count), blanks, rack size, bingo bonus
//! and premium layout, all read from the rules engines' own tables (`GET /variants`). A client
//! takes a board's look from here rather than keeping a copy of the tables. And every family
//! with what a client needs to play it: the name of its client module, the clock presets a
//! new-game form offers, and whether its variants are played in tournaments.

use engine::{Premium, Square};
use serde::Serialize;

use vocabulary::{Clocks, TimeControl};

use crate::variant::{Family, Variant, tile_rules};

/// One family as `GET /variants` describes it.
#[derive(Debug, Clone, Serialize)]
pub struct FamilyInfo {
    /// The family's id (`tile`, `chain`).
    pub id: &'static str,
    /// The web app's module that draws its games (`<id>.js`).
    pub module: String,
    /// The time controls a new-game form offers, the first the default.
    pub clock_presets: Vec<TimeControl>,
    /// How its real-time games are clocked: `game_clock` (a clock a seat, increment and
    /// overtime; a lapsed correspondence turn loses the turn) or `turn_timer` (a limit a turn;
    /// any lapse loses the game).
    pub clocks: &'static str,
    /// Whether its games may be played under a challenge rule.
    pub challenges: bool,
    /// Whether its variants are played in tournaments ([`plays_tournaments`]).
    pub tournaments: bool,
}

/// Whether tournaments are played in `family`'s variants: the tile family's (the rating and
/// pairing rules are a tile game's; a Nối từ tournament is refused).
pub fn plays_tournaments(family: Family) -> bool {
    family == Family::TILE
}

/// The clock presets of a family whose games run under `clocks`: none, then its real-time
/// controls, then correspondence.
fn clock_presets(clocks: Clocks) -> Vec<TimeControl> {
    let realtime = |initial_seconds, increment_seconds, max_overtime_minutes| TimeControl::Realtime {
        initial_seconds,
        increment_seconds,
        max_overtime_minutes,
    };
    let day = TimeControl::Correspondence { turn_seconds: 86_400, bank_seconds: 0 };
    match clocks {
        Clocks::GameClock => vec![
            TimeControl::None,
            realtime(300, 5, 0),
            realtime(900, 0, 1),
            realtime(1500, 0, 1),
            day,
            TimeControl::Correspondence { turn_seconds: 86_400, bank_seconds: 259_200 },
        ],
        Clocks::TurnTimer => vec![
            TimeControl::None,
            TimeControl::TurnTimer { turn_seconds: 15 },
            TimeControl::TurnTimer { turn_seconds: 30 },
            TimeControl::TurnTimer { turn_seconds: 60 },
            day,
        ],
    }
}

/// Every family of a shipped variant, in the order they first appear.
pub fn families() -> Vec<FamilyInfo> {
    let mut seen: Vec<Family> = Vec::new();
    for v in Variant::SHIPPED {
        if !seen.contains(&v.family()) {
            seen.push(v.family());
        }
    }
    seen.into_iter()
        .map(|f| FamilyInfo {
            id: f.id(),
            module: format!("{}.js", f.id()),
            clock_presets: clock_presets(f.clocks()),
            clocks: match f.clocks() {
                Clocks::GameClock => "game_clock",
                Clocks::TurnTimer => "turn_timer",
            },
            challenges: f.challenges(),
            tournaments: plays_tournaments(f),
        })
        .collect()
}

/// One variant as `GET /variants` describes it.
#[derive(Debug, Clone, Serialize)]
pub struct VariantInfo {
    /// The id (`scrabble-en`, `scrabble-ru`, `erudit`, `noi-tu`).
    pub id: &'static str,
    /// Its family (`tile` or `chain`).
    pub family: Family,
    /// The fewest players a game of it has.
    pub min_seats: usize,
    /// The most players a game of it has.
    pub max_seats: usize,
    /// The tile set and the board of a tile game; null in the chain game.
    pub tiles: Option<TileSet>,
}

/// A tile variant's set and board.
#[derive(Debug, Clone, Serialize)]
pub struct TileSet {
    /// The alphabet in order, each letter with its value and count in a full set.
    pub letters: Vec<LetterInfo>,
    /// Blank tiles in a full set (they score 0).
    pub blanks: u8,
    /// Tiles on a full rack.
    pub rack_size: usize,
    /// The bonus for playing a full rack in one turn.
    pub bingo_bonus: i32,
    /// Each square's premium, row by row from A1: `tw`, `dw`, `tl`, `dl` or empty.
    pub premiums: Vec<&'static str>,
    /// The square the first play must cover (`H8`).
    pub start: String,
}

/// One letter of a tile variant.
#[derive(Debug, Clone, Serialize)]
pub struct LetterInfo {
    /// The letter, upper case.
    pub letter: String,
    /// Points a tile of it scores.
    pub value: u8,
    /// Tiles of it in a full set.
    pub count: u8,
    /// Whether it is a vowel (tile tracking counts vowels and consonants).
    pub vowel: bool,
}

/// The premium of each square of `layout`, row by row: `tw`, `dw`, `tl`, `dl` or empty.
pub(crate) fn premium_names(layout: &engine::Layout) -> Vec<&'static str> {
    Square::all()
        .map(|sq| match layout.premium(sq) {
            Premium::TripleWord => "tw",
            Premium::DoubleWord => "dw",
            Premium::TripleLetter => "tl",
            Premium::DoubleLetter => "dl",
            Premium::None => "",
        })
        .collect()
}

/// Every variant the service plays, in [`Variant::SHIPPED`]'s order.
pub fn catalog() -> Vec<VariantInfo> {
    Variant::SHIPPED
        .into_iter()
        .map(|v| VariantInfo {
            id: v.id(),
            family: v.family(),
            min_seats: *v.seats().start(),
            max_seats: *v.seats().end(),
            tiles: tile_rules(v).map(|t| {
                let rules = t.rules();
                TileSet {
                    letters: rules
                        .letters
                        .iter()
                        .enumerate()
                        .map(|(i, l)| LetterInfo {
                            letter: l.ch.to_string(),
                            value: l.value,
                            count: l.count,
                            vowel: rules.alphabet().nth(i).is_some_and(|letter| rules.is_vowel(letter)),
                        })
                        .collect(),
                    blanks: rules.blanks,
                    rack_size: rules.rack_size,
                    bingo_bonus: rules.bingo_bonus,
                    premiums: premium_names(&rules.layout),
                    start: Square::CENTER.to_string(),
                }
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_listed_and_each_tile_board_has_225_squares() {
        let all = catalog();
        assert_eq!(all.iter().map(|v| v.id).collect::<Vec<_>>(), ["scrabble-en", "scrabble-ru", "erudit", "noi-tu"]);
        for v in &all {
            match &v.tiles {
                Some(t) => {
                    assert_eq!(t.premiums.len(), 225, "{}", v.id);
                    assert_eq!(t.start, "H8");
                    assert!(t.letters.iter().all(|l| l.count > 0), "{}", v.id);
                }
                None => assert_eq!(v.family, Family::CHAIN),
            }
        }
        // Эрудит's centre is plain; Scrabble's is a double word.
        let centre = |id: &str| all.iter().find(|v| v.id == id).unwrap().tiles.as_ref().unwrap().premiums[7 * 15 + 7];
        assert_eq!((centre("scrabble-en"), centre("erudit")), ("dw", ""));
        let en = all[0].tiles.as_ref().unwrap();
        assert_eq!(en.letters.iter().find(|l| l.letter == "Q").map(|l| l.value), Some(10));
        // Tile tracking's vowels: English A E I O U; Russian ten, Ё where the set has it.
        let vowels = |id: &str| -> String {
            all.iter()
                .find(|v| v.id == id)
                .unwrap()
                .tiles
                .as_ref()
                .unwrap()
                .letters
                .iter()
                .filter(|l| l.vowel)
                .map(|l| l.letter.as_str())
                .collect()
        };
        assert_eq!((vowels("scrabble-en").as_str(), vowels("erudit").as_str()), ("AEIOU", "АЕИОУЫЭЮЯ"));
        assert_eq!(vowels("scrabble-ru").chars().count(), 10);
    }
}
