//! The chain family's part of the admin replay page: the players, the opening and the syllable
//! handed on, the log and the analysis lines.

use askama::Template;

use crate::chain_view::ChainTimeline;
use crate::timeline::{FamilyTimeline, PageSeat, Stage};

#[derive(Template)]
#[template(path = "chain_stage.html")]
struct ChainStage<'a> {
    seats: &'a [PageSeat<'a>],
    opening: &'a str,
}

impl FamilyTimeline for ChainTimeline {
    fn data(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a timeline always serializes")
    }

    fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        ChainTimeline::log(self, name_of)
    }

    fn finals(&self) -> Vec<i32> {
        self.steps.last().map(|s| s.scores.clone()).unwrap_or_default()
    }

    fn last_step(&self) -> usize {
        self.steps.len().saturating_sub(1)
    }

    /// A chain is won by the chain: the player left without a word loses, whatever the points.
    fn points_decide(&self) -> bool {
        false
    }

    fn stage(&self, seats: &[PageSeat<'_>]) -> Stage {
        let stage = ChainStage { seats, opening: &self.opening };
        Stage {
            style: include_str!("../templates/chain_stage.css"),
            body: stage.render().expect("the stage renders"),
            script: include_str!("../templates/chain_stage.js"),
            log_title: "Chain",
            draw_title: "Draw of lots",
        }
    }

    /// Each word beside a winning word.
    fn analysis_lines(&self, analysis: &serde_json::Value, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        let words = analysis["words"].as_array().map(Vec::as_slice).unwrap_or_default();
        words
            .iter()
            .map(|w| {
                let verdict = if w["wins"] == true {
                    "wins by force".to_string()
                } else {
                    w["winning_word"].as_str().map_or_else(|| "no winning word".to_string(), |x| format!("{x} would have won"))
                };
                let n = w["move_no"].as_u64().unwrap_or(0) + 1;
                format!("{n}. {}: {} · {verdict}", name_of(w["seat"].as_u64().unwrap_or(0) as usize), w["word"].as_str().unwrap_or(""))
            })
            .collect()
    }

    fn export(&self) -> Option<&'static str> {
        None
    }
}
