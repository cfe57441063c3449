//! What the chain family shows: a game as a player sees it, a hinted word, a word's score and
//! the admin timeline. Data only, so the contract can name it without the family's code.

use serde::Serialize;

use crate::entry::EntryView;
use crate::seat::Seat;

/// What a player sees of a chain game besides what every family shows.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChainView {
    /// The opening word, given (no seat played it), in the spelling most writers use.
    pub opening: String,
    /// Every word played, in order.
    pub chain: Vec<ChainLink>,
    /// The syllable the next word must begin with, as the last word shows it.
    pub syllable: String,
    /// Words spent so far, the opening included: none of them may be played again.
    pub words_used: usize,
    /// Rounds begun after the first (a group chain's, each after a seat lost a life).
    pub round: u32,
}

/// One word of the chain.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChainLink {
    /// Its journal entry's number.
    pub move_no: u32,
    /// Who played it.
    pub seat: Seat,
    /// The word as its player wrote it (lower case, composed, single spaces); for a word played
    /// before spellings were recorded, its canonical spelling.
    pub word: String,
    /// Its points.
    pub points: i32,
    /// The syllable it ends on: the next word's first.
    pub ends_on: String,
    /// A group chain's new round: this is its opening word, given to the seat (no one played
    /// it); shown only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub opens_round: bool,
}

/// A word the player could play.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChainHint {
    /// The word, ready to submit, in the spelling most writers use.
    pub word: String,
    /// Its points.
    pub score: i32,
    /// How many words the opponent could answer it with (0: it wins at once).
    pub replies: usize,
    /// Whether it wins at once: no word answers it. Never every hint: the first is a word that
    /// goes on when one exists.
    pub wins_at_once: bool,
    /// Whether one of those answers would leave the player without a word (it hands the
    /// opponent a win).
    pub answer_wins: bool,
    /// How familiar the word is, 0 (one word list has it, the corpus not) to 9 (every list,
    /// and frequent); 2 and up are the familiar words robots play. Absent for a game on a list
    /// without familiarity scores (pyvi's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub familiarity: Option<u8>,
}

/// A word's score if it were submitted now.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ChainScore {
    /// The word as the player wrote it, tidied (absent for a resignation).
    pub word: Option<String>,
    /// Its points.
    pub total: i32,
}

/// The admin replay of a chain game.
#[derive(Debug, Clone, Serialize)]
pub struct ChainTimeline {
    /// The opening word and the syllable it hands on.
    pub opening: String,
    /// Step 0 (the opening) and one step per move.
    pub steps: Vec<ChainStep>,
}

/// The chain after one move.
#[derive(Debug, Clone, Serialize)]
pub struct ChainStep {
    /// 0 for the opening, then the move's number + 1.
    pub index: usize,
    /// The move (absent at step 0), as an admin sees it.
    #[serde(rename = "move")]
    pub mv: Option<EntryView>,
    /// Running scores.
    pub scores: Vec<i32>,
    /// The syllable handed on.
    pub syllable: String,
    /// The seat to move next (absent once over).
    pub to_move: Option<Seat>,
}

impl ChainTimeline {
    pub(crate) fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        self.steps
            .iter()
            .filter_map(|s| s.mv.as_ref().map(|m| (s, m)))
            .map(|(s, m)| {
                let action = &m.action;
                let what = match action["kind"].as_str() {
                    Some("word") => {
                        format!("plays {} for {}", action["spelled"].as_str().or(action["word"].as_str()).unwrap_or(""), m.score)
                    }
                    Some("resign") => "resigns".to_string(),
                    _ => "runs out of time".to_string(),
                };
                let scores: Vec<String> = s.scores.iter().enumerate().map(|(i, p)| format!("{} {p}", name_of(i))).collect();
                format!("{} {what} ({}); hands on {}", name_of(m.seat.index()), scores.join(" — "), s.syllable)
            })
            .collect()
    }
}
