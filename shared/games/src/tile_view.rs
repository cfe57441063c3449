//! What the tile family shows: a game as a player sees it, a hinted play and the admin
//! timeline. Data only, so the contract can name it without the family's code.

use engine::PlacementInput;
use serde::Serialize;

/// What a player sees of a tile game besides what every family shows.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TileView {
    /// Whether the no-repeat-words rule applies.
    pub no_repeat_words: bool,
    /// Every word played so far (main and cross), upper case, sorted (empty when the rule is
    /// off).
    pub played_words: Vec<String>,
    /// Tiles on the board.
    pub board: Vec<BoardTile>,
    /// Tiles left in the bag.
    pub bag_size: usize,
    /// The viewer's rack: letters, `?` for a blank.
    pub your_rack: Option<Vec<String>>,
    /// How a word not in the list is settled: `void` (refused when laid) or a challenge rule.
    pub challenge_rule: vocabulary::ChallengeRule,
    /// The seat whose play just made the seat to move may challenge (null when none may be).
    pub challengeable: Option<crate::seat::Seat>,
    /// Whether that play went out, and the game ends when it is accepted (or stands).
    pub end_pending: bool,
}

/// A tile on the board.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BoardTile {
    /// Its square, "A1".."O15".
    pub square: String,
    /// The letter it shows.
    pub letter: char,
    /// Whether it is a blank.
    pub blank: bool,
}

/// A suggested play.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TileHint {
    /// GCG coordinate: "8D" across from row 8, "D8" down.
    pub coord: String,
    /// The main word (`.` for board tiles, lower case for blanks).
    pub word: String,
    /// Points.
    pub score: i32,
    /// Score + leave value, thousandths of a point.
    pub equity: i32,
    /// The placements, ready to submit as a play.
    pub placements: Vec<PlacementInput>,
}

impl TileHint {
    /// The hint that shows `play`.
    pub(crate) fn of_play(rules: &engine::Rules, play: &engine::movegen::GeneratedPlay) -> TileHint {
        TileHint {
            coord: play.coordinate(),
            word: play.notation(rules),
            score: play.score,
            equity: play.equity,
            placements: play.placements().into_iter().map(|pl| PlacementInput::from_placement(rules, pl)).collect(),
        }
    }
}

/// The admin replay of a tile game.
#[derive(Debug, Clone, Serialize)]
pub struct TileTimeline {
    /// Premium of each square, row by row: "tw", "dw", "tl", "dl" or "".
    pub premiums: Vec<&'static str>,
    /// The square the first play must cover, such as "H8".
    pub start: String,
    /// Points of each letter (upper case).
    pub values: std::collections::BTreeMap<String, i32>,
    /// Step 0 (the deal) and one step per move.
    pub timeline: engine::timeline::ReplaySteps,
}

impl TileTimeline {
    pub(crate) fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        self.timeline
            .steps
            .iter()
            .filter_map(|s| s.mv.as_ref().map(|m| (s, m)))
            .map(|(s, m)| {
                let who = name_of(m.entry.seat.index());
                let what = match &m.entry.action {
                    engine::Action::Play { words, tiles, .. } => {
                        let (coord, word) = engine::gcg::notation(words, tiles).unwrap_or_default();
                        format!("plays {coord} {word} for {}", m.entry.score)
                    }
                    engine::Action::Exchange { tiles } => format!("exchanges {} tiles", tiles.len()),
                    engine::Action::Pass => "passes".to_string(),
                    engine::Action::Resign => "resigns".to_string(),
                    engine::Action::Timeout => "runs out of time".to_string(),
                    engine::Action::OutOfTime => "loses on time".to_string(),
                    engine::Action::TimePenalty => format!("loses {} points for overtime", -m.entry.score),
                    engine::Action::ChallengedOff => format!("has the play challenged off, {} points", m.entry.score),
                    engine::Action::ChallengeBonus => format!("gains {} points: the challenge failed", m.entry.score),
                    engine::Action::ChallengeFailed => "challenges; the play stands".to_string(),
                    engine::Action::ChallengeTurnLost => "challenges; the play stands and the turn is lost".to_string(),
                    engine::Action::Accept => "accepts the play that went out".to_string(),
                };
                let drawn = if m.drawn.is_empty() { String::new() } else { format!("; draws {}", m.drawn.concat()) };
                format!("{who} {what}{drawn}; bag {}", s.bag)
            })
            .collect()
    }
}
