//! The tile family's part of the admin replay page: the board drawn from the variant's own
//! layout (its premiums, its start square starred), the racks around it, the log and the
//! analysis lines.

use askama::Template;

use crate::tile_view::TileTimeline;
use crate::timeline::{FamilyTimeline, PageSeat, Stage};

/// One square of the board.
struct Cell {
    name: String,
    premium: String,
}

/// One row of the board.
struct Row {
    number: usize,
    cells: Vec<Cell>,
}

/// One entry of the premium squares' legend.
struct LegendEntry {
    class: String,
    mark: &'static str,
    label: String,
}

#[derive(Template)]
#[template(path = "tile_stage.html")]
struct TileStage<'a> {
    seats: &'a [PageSeat<'a>],
    columns: Vec<char>,
    rows: Vec<Row>,
    legend: Vec<LegendEntry>,
}

/// The premiums' classes on the board and their names, in the legend's order.
const PREMIUMS: [(&str, &str); 4] = [("tw", "triple word"), ("dw", "double word"), ("tl", "triple letter"), ("dl", "double letter")];

/// The board's side: the timeline holds one premium per square, row by row.
fn side(premiums: &[&str]) -> usize {
    premiums.len().isqrt()
}

/// The board as rows of cells: each square's premium as the variant's layout has it, the start
/// square marked with a star over its own premium (or none).
fn board_rows(premiums: &[&str], start: &str) -> Vec<Row> {
    let side = side(premiums);
    (0..side)
        .map(|r| Row {
            number: r + 1,
            cells: (0..side)
                .map(|c| {
                    let name = square_name(c, r);
                    let premium = premiums[r * side + c];
                    let premium = if name == start { format!("{premium} star").trim_start().to_string() } else { premium.to_string() };
                    Cell { name, premium }
                })
                .collect(),
        })
        .collect()
}

/// The legend: the premiums this layout has, then the start square as the board shows it.
fn legend(premiums: &[&str], start: &str) -> Vec<LegendEntry> {
    let mut entries: Vec<LegendEntry> = PREMIUMS
        .iter()
        .filter(|(class, _)| premiums.contains(class))
        .map(|&(class, label)| LegendEntry { class: class.to_string(), mark: "", label: label.to_string() })
        .collect();
    let side = side(premiums);
    let at = (0..side * side).find(|&i| square_name(i % side, i / side) == start);
    let premium = at.map_or("", |i| premiums[i]);
    let under = PREMIUMS.iter().find(|(class, _)| *class == premium).map_or("plain".to_string(), |(_, label)| label.to_string());
    let centre = if at == Some(side / 2 * side + side / 2) { ", the centre" } else { "" };
    entries.push(LegendEntry {
        class: format!("{premium} star").trim_start().to_string(),
        mark: "★",
        label: format!("{start}{centre}: the first word covers it ({under})"),
    });
    entries
}

/// The letter naming board column `c` (0: A).
fn column(c: usize) -> char {
    char::from(b'A' + c as u8)
}

/// The name of the square in column `c` and row `r` (both 0-based): "H8" for (7, 7).
fn square_name(c: usize, r: usize) -> String {
    format!("{}{}", column(c), r + 1)
}

impl FamilyTimeline for TileTimeline {
    fn data(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a timeline always serializes")
    }

    fn log(&self, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        TileTimeline::log(self, name_of)
    }

    fn finals(&self) -> Vec<i32> {
        self.timeline.steps.last().map(|s| s.scores.clone()).unwrap_or_default()
    }

    fn last_step(&self) -> usize {
        self.timeline.steps.len().saturating_sub(1)
    }

    fn points_decide(&self) -> bool {
        true
    }

    fn stage(&self, seats: &[PageSeat<'_>]) -> Stage {
        let stage = TileStage {
            seats,
            columns: (0..side(&self.premiums)).map(column).collect(),
            rows: board_rows(&self.premiums, &self.start),
            legend: legend(&self.premiums, &self.start),
        };
        Stage {
            style: include_str!("../templates/tile_stage.css"),
            body: stage.render().expect("the stage renders"),
            script: include_str!("../templates/tile_stage.js"),
            log_title: "Moves",
            draw_title: "First-move draw",
        }
    }

    /// Each move, named, and its equity against the hard robot's move.
    fn analysis_lines(&self, analysis: &serde_json::Value, name_of: &dyn Fn(usize) -> String) -> Vec<String> {
        let moves = analysis["moves"].as_array().map(Vec::as_slice).unwrap_or_default();
        moves
            .iter()
            .map(|m| {
                let best = match m["best_kind"].as_str() {
                    Some("play") => format!(
                        "{} {} {}",
                        m["best_play"]["coord"].as_str().unwrap_or(""),
                        m["best_play"]["word"].as_str().unwrap_or(""),
                        m["best_play"]["score"]
                    ),
                    Some("exchange") => format!(
                        "exchange {}",
                        m["best_exchange"]
                            .as_array()
                            .map(|t| t.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join(""))
                            .unwrap_or_default()
                    ),
                    _ => "pass".to_string(),
                };
                let played = &m["played"];
                let played = match played["kind"].as_str() {
                    Some("play") => {
                        format!("{} {} {} ", played["coord"].as_str().unwrap_or(""), played["word"].as_str().unwrap_or(""), played["score"])
                    }
                    Some("exchange") => format!("exchange {} ", played["count"]),
                    Some(kind) => format!("{kind} "),
                    None => String::new(),
                };
                format!(
                    "{}. {}: {played}equity {} · hard robot: {best} ({}) · given away {}",
                    m["move_no"].as_u64().unwrap_or(0) + 1,
                    name_of(m["seat"].as_u64().unwrap_or(0) as usize),
                    m["played_equity"],
                    m["best_equity"],
                    m["equity_lost"]
                )
            })
            .collect()
    }

    fn export(&self) -> Option<&'static str> {
        Some("gcg")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_and_its_legend_follow_the_layout_and_star_the_start_square() {
        // A 3×3 layout: triple word corners, a plain centre that the first play covers.
        let plain_centre = ["tw", "", "tw", "", "", "", "tw", "dl", "tw"];
        let rows = board_rows(&plain_centre, "B2");
        let classes: Vec<Vec<&str>> = rows.iter().map(|r| r.cells.iter().map(|c| c.premium.as_str()).collect()).collect();
        assert_eq!(classes, [["tw", "", "tw"], ["", "star", ""], ["tw", "dl", "tw"]]);
        assert_eq!(rows[2].cells[1].name, "B3");
        let labels: Vec<(String, String)> = legend(&plain_centre, "B2").into_iter().map(|e| (e.class, e.label)).collect();
        assert_eq!(
            labels,
            [
                ("tw".to_string(), "triple word".to_string()),
                ("dl".to_string(), "double letter".to_string()),
                ("star".to_string(), "B2, the centre: the first word covers it (plain)".to_string()),
            ]
        );
        let double_centre = ["", "", "", "", "dw", "", "", "", ""];
        assert_eq!(board_rows(&double_centre, "B2")[1].cells[1].premium, "dw star");
        assert_eq!(legend(&double_centre, "B2").last().unwrap().label, "B2, the centre: the first word covers it (double word)");
        assert_eq!(legend(&double_centre, "A1").last().unwrap().label, "A1: the first word covers it (plain)");
    }
}
