//! The replay timeline and the GCG export of known games.

use crate::common::{AnyWord, dump_rack, rack_letters};
use engine::gcg::{GcgHeader, to_gcg};
use engine::timeline::timeline;
use engine::{Bag, Rack, RackTile, Seat, TileInput, TileMove, TileVariant, Timestamp, replay};

fn sorted(rules: &engine::Rules, tiles: &[RackTile]) -> Vec<String> {
    Rack::from_tiles(tiles.iter().copied())
        .tiles()
        .map(|t| match t {
            RackTile::Letter(l) => rules.char_of(l).to_string(),
            RackTile::Blank => "?".to_string(),
        })
        .collect()
}

#[test]
fn a_short_game_shows_racks_draws_bag_and_scores_at_every_step() {
    let variant = TileVariant::ScrabbleEn;
    let rules = variant.rules();
    let mut game = engine::Game::new(variant, 2, 4242).unwrap();
    let order: Vec<RackTile> = Bag::new(rules, 4242).tiles().collect();
    let now = Timestamp(0);
    let mv = dump_rack(&game, 0);
    game.play(&AnyWord, Seat(0), &mv, now).unwrap();
    let three: Vec<TileInput> =
        rack_letters(&game, Seat(1))[..3].iter().map(|&c| if c == '?' { TileInput::Blank } else { TileInput::Letter(c) }).collect();
    game.play(&AnyWord, Seat(1), &TileMove::Exchange { tiles: three }, now).unwrap();
    game.play(&AnyWord, Seat(0), &TileMove::Pass, now).unwrap();
    game.play(&AnyWord, Seat(1), &TileMove::Resign, now).unwrap();

    let tl = timeline(game.setup(), game.journal()).unwrap();
    assert_eq!(tl.steps.len(), 5);
    let s0 = &tl.steps[0];
    assert_eq!(s0.racks[0], sorted(rules, &order[..7]));
    assert_eq!(s0.racks[1], sorted(rules, &order[7..14]));
    assert_eq!((s0.bag, s0.to_move, s0.mv.is_none()), (86, Some(0), true));

    let s1 = &tl.steps[1];
    let m1 = s1.mv.as_ref().unwrap();
    assert_eq!(m1.drawn, sorted(rules, &order[14..21]), "a full-rack play draws the next seven");
    assert_eq!((s1.bag, s1.scores[0], s1.to_move), (79, m1.entry.score, Some(1)));
    assert_eq!(m1.entry.action.kind(), "play");

    let s2 = &tl.steps[2];
    let m2 = s2.mv.as_ref().unwrap();
    assert_eq!(m2.drawn, sorted(rules, &order[21..24]), "an exchange draws before returning");
    assert_eq!(s2.bag, 79);
    assert_eq!(s2.racks[1].len(), 7);

    let s3 = &tl.steps[3];
    assert!(s3.mv.as_ref().unwrap().drawn.is_empty());
    assert_eq!((s3.bag, s3.scores.clone()), (79, s2.scores.clone()));
    let s4 = &tl.steps[4];
    assert_eq!((s4.to_move, s4.mv.as_ref().unwrap().entry.action.kind()), (None, "resign"));
    assert_eq!(s4.scores, game.scores());

    let gcg =
        to_gcg(game.setup(), game.journal(), &GcgHeader { id: "g1", names: &["Ann".into(), "Бор Ис".into()], title: "test game" }).unwrap();
    assert!(gcg.starts_with("#character-encoding UTF-8\n#player1 p1 Ann\n#player2 p2 Бор Ис\n"), "{gcg}");
    let lines: Vec<&str> = gcg.lines().filter(|l| l.starts_with('>')).collect();
    assert_eq!(lines.len(), 3, "{gcg}");
    assert!(lines[0].starts_with(&format!(">p1: {} H8 ", s0.racks[0].concat())), "{gcg}");
    assert!(lines[0].ends_with(&format!("+{} {}", m1.entry.score, m1.entry.score)), "{gcg}");
    assert!(lines[1].contains(" -") && lines[1].ends_with("+0 0"), "{gcg}");
    assert!(gcg.contains("#note p2 resigned"));
}

#[test]
fn the_recorded_game_ends_with_its_settlement() {
    #[derive(serde::Deserialize)]
    struct Recorded {
        setup: engine::Setup,
        journal: Vec<engine::JournalEntry>,
    }
    let r: Recorded = serde_json::from_str(include_str!("data/game-en-2p.json")).unwrap();
    let tl = timeline(&r.setup, &r.journal).unwrap();
    let game = replay(&r.setup, &r.journal).unwrap();
    let last = tl.steps.last().unwrap();
    assert_eq!(last.scores, game.scores());
    assert_eq!(last.bag, 0);
    let gcg = to_gcg(&r.setup, &r.journal, &GcgHeader { id: "g2", names: &["a".into(), "b".into()], title: "recorded" }).unwrap();
    let settlement: Vec<&str> = gcg.lines().filter(|l| l.starts_with(">") && l.contains('(')).collect();
    assert_eq!(settlement.len(), 2, "{gcg}");
    let final_line = gcg.lines().last().unwrap();
    let seat = usize::from(final_line.starts_with(">p2"));
    assert!(final_line.ends_with(&game.scores()[seat].to_string()), "{gcg}");
}
