//! Robots: every word they propose is accepted by submit, a fixed seed gives a fixed choice, a
//! win is taken as each level should, the hard level sees further than medium, the budget is
//! honoured, and a small seeded ladder on the real dictionary keeps the levels in order (a gross
//! guard only: the claim rests on `wordgame ladder --variant noi-tu`).

use noitu::robot::{Basis, Easy, Hard, Level, Medium, Nodes, Opponent, Strategy, ThinkingLimit, seeded};
use noitu::{ChainRobotView, ChainSetup, Dictionary, Seat, Timestamp, WordChain};

/// A cheap hard level for debug builds.
fn hard() -> Hard {
    Hard { node_cap: 5_000, ..Hard::default() }
}

fn strategy(level: Level) -> Box<dyn Strategy> {
    match level {
        Level::Easy => Box::new(Easy),
        Level::Medium => Box::new(Medium),
        Level::Hard => Box::new(hard()),
    }
}

/// Plays one game on the built-in dictionary; every word goes through submit. The winner's level.
fn play(seed: u64, levels: [Level; 2]) -> Level {
    let dict = Dictionary::builtin();
    let mut game = WordChain::new(&ChainSetup::new(seed), dict).unwrap();
    let robots = [strategy(levels[0]), strategy(levels[1])];
    let mut rng = seeded(seed);
    while !game.is_over() {
        let seat = game.to_move();
        let view = ChainRobotView::against(&game, Opponent::Robot);
        let d = robots[seat.index()].decide(&view, &mut rng, &mut Nodes(u64::MAX)).expect("a word while the game goes on");
        let (lo, hi) = match levels[seat.index()] {
            Level::Easy => (400, 900),
            Level::Medium => (500, 1_100),
            Level::Hard => (700, 1_500),
        };
        assert!((lo..=hi).contains(&d.thinking_ms), "{}", d.thinking_ms);
        game.submit(seat, dict.text(d.word), Timestamp(0))
            .unwrap_or_else(|r| panic!("{:?} proposed a refused word: {r}", levels[seat.index()]));
    }
    levels[game.winner().unwrap().index()]
}

/// Wins of `a` over `b` in `n` games, first seats alternating.
fn wins(a: Level, b: Level, n: u64) -> u64 {
    (0..n).filter(|g| play(500 + g / 2, if g % 2 == 0 { [a, b] } else { [b, a] }) == a).count() as u64
}

#[test]
fn a_small_seeded_ladder_keeps_the_levels_in_order() {
    assert!(wins(Level::Hard, Level::Easy, 20) >= 15);
    assert!(wins(Level::Medium, Level::Easy, 20) >= 13);
    assert!(wins(Level::Hard, Level::Medium, 20) >= 9);
}

#[test]
fn easy_and_medium_play_familiar_words_when_they_have_one() {
    // Over seeded games of easy against medium, every word either level plays is familiar
    // whenever a familiar legal word exists; and most positions have one.
    let dict = Dictionary::builtin();
    let (mut played, mut familiar) = (0, 0);
    for seed in 0..30u64 {
        let mut game = WordChain::new(&ChainSetup::new(seed), dict).unwrap();
        let robots: [Box<dyn Strategy>; 2] = [Box::new(Easy), Box::new(Medium)];
        let mut rng = seeded(seed);
        while !game.is_over() {
            let seat = game.to_move();
            let view = ChainRobotView::against(&game, Opponent::Robot);
            let any_familiar = view.legal_moves().any(|w| dict.is_familiar(w));
            let d = robots[seat.index()].decide(&view, &mut rng, &mut Nodes(u64::MAX)).unwrap();
            if any_familiar {
                assert!(dict.is_familiar(d.word), "{} from {}", dict.display(d.word), dict.syllable(game.current()));
            }
            played += 1;
            familiar += u32::from(dict.is_familiar(d.word));

            game.submit(seat, dict.display(d.word), Timestamp(0)).unwrap();
        }
    }
    // A guard: the ladder measures the share (docs/ROBOTS.md).
    assert!(familiar * 10 >= played * 8, "{familiar} familiar of {played}");
}

#[test]
fn a_fixed_seed_gives_a_fixed_choice() {
    let dict = Dictionary::builtin();
    let game = WordChain::new(&ChainSetup::new(7), dict).unwrap();
    for level in Level::ALL {
        let robot = noitu::robot::strategy(level);
        assert_eq!(robot.level(), level);
        let decide = || robot.decide(&ChainRobotView::new(&game), &mut seeded(5), &mut Nodes(u64::MAX)).unwrap();
        assert_eq!(decide(), decide(), "{level:?}");
    }
}

#[test]
fn medium_against_a_robot_always_takes_a_win_it_sees() {
    let dict = crate::common::small();
    let game = crate::common::game(&dict, "pháp luật"); // "luật lệ" leaves no answer
    for seed in 0..20 {
        let d = Medium.decide(&ChainRobotView::against(&game, Opponent::Robot), &mut seeded(seed), &mut Nodes(0)).unwrap();
        assert_eq!((dict.text(d.word), d.basis), ("luật lệ", Basis::Kill));
    }
}

#[test]
fn against_a_person_only_hard_lays_an_unfair_trap_and_at_its_trap_rate() {
    // "luật lệ" leaves no answer at all (every word of the small list counts as familiar).
    let dict = crate::common::small();
    let game = crate::common::game(&dict, "pháp luật");
    let view = ChainRobotView::new(&game);
    assert_eq!(view.opponent(), Opponent::Person);
    let (mut traps, always) = (0, Hard { trap_rate: 1.0, ..Hard::default() });
    for seed in 0..200 {
        for robot in [&Easy as &dyn Strategy, &Medium, &Hard { trap_rate: 0.0, ..Hard::default() }] {
            let d = robot.decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
            assert_ne!(dict.text(d.word), "luật lệ", "{:?}, seed {seed}", robot.level());
            assert!(view.answers_after(d.word) > 0);
        }
        assert_eq!(dict.text(always.decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap().word), "luật lệ");
        let d = Hard::default().decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
        traps += u32::from(d.basis == Basis::Kill);
    }
    assert!((30..=70).contains(&traps), "{traps} traps in 200 at the default rate 0.25");
}

#[test]
fn against_a_person_answers_are_familiar_words_and_a_robot_with_none_concedes() {
    // "sư phạm", the only word from sư, is obscure; every other word is familiar.
    let scores = crate::common::WORDS.iter().map(|w| (*w, if *w == "sư phạm" { 0 } else { 5 }));
    let dict = crate::common::small().with_familiarity(scores).unwrap();
    let game = crate::common::game(&dict, "pháp luật");
    let luat_su = dict.lookup("luật sư").unwrap();
    assert_eq!(ChainRobotView::new(&game).answers_after(luat_su), 0, "a person knows no answer");
    assert_eq!(ChainRobotView::against(&game, Opponent::Robot).answers_after(luat_su), 1);
    // From sư: against a robot every level plays "sư phạm"; against a person none does.
    let game = crate::common::game(&dict, "luật sư");
    for level in Level::ALL {
        let robot = noitu::robot::strategy(level);
        let d = robot.decide(&ChainRobotView::against(&game, Opponent::Robot), &mut seeded(1), &mut Nodes(u64::MAX)).unwrap();
        assert_eq!(dict.text(d.word), "sư phạm", "{level:?}");
        assert_eq!(robot.decide(&ChainRobotView::new(&game), &mut seeded(1), &mut Nodes(u64::MAX)), None, "{level:?} concedes");
    }
}

#[test]
fn hard_takes_a_win_as_often_as_its_kill_rate_says() {
    let dict = crate::common::small();
    let game = crate::common::game(&dict, "pháp luật");
    let view = ChainRobotView::against(&game, Opponent::Robot);
    let always = Hard { kill_rate: 1.0, ..Hard::default() };
    let never = Hard { kill_rate: 0.0, ..Hard::default() };
    let mut kills = 0;
    for seed in 0..200 {
        let d = always.decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
        assert_eq!((dict.text(d.word), d.basis), ("luật lệ", Basis::Kill));
        let d = never.decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
        assert_ne!(dict.text(d.word), "luật lệ");
        assert!(matches!(d.basis, Basis::Search { .. }), "{:?}", d.basis);
        let d = Hard::default().decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
        kills += u32::from(d.basis == Basis::Kill);
    }
    assert!((150..=190).contains(&kills), "{kills} kills in 200 at the default rate 0.85");
}

/// From ba: "ba xô" forces "xô đa", then "đa hạ" leaves no answer; "ba cô" leads nowhere
/// decided. Both leave the opponent one answer and no instant win.
fn forced_win() -> Dictionary {
    Dictionary::from_words(["mở ba", "ba xô", "ba cô", "xô đa", "đa hạ", "cô gì", "gì mà", "gì nữa", "mà gì", "nữa gì", "mà nữa", "nữa mà"])
        .unwrap()
}

#[test]
fn hard_sees_a_win_three_plies_deep_that_medium_cannot() {
    // Medium takes the first in its order, "ba cô".
    let dict = forced_win();
    let game = crate::common::game(&dict, "mở ba");
    let view = ChainRobotView::new(&game);
    for seed in 0..20 {
        let d = Hard::default().decide(&view, &mut seeded(seed), &mut Nodes(u64::MAX)).unwrap();
        assert_eq!((dict.text(d.word), d.basis), ("ba xô", Basis::Search { depth: 3 }));
        let m = Medium.decide(&view, &mut seeded(seed), &mut Nodes(0)).unwrap();
        assert_eq!((dict.text(m.word), m.basis), ("ba cô", Basis::LowDegree));
    }
}

/// The hard level's judgement ranks the forced win first and values it as won, the move that
/// leads nowhere decided after it; out of budget at once, it still ranks by answers left.
#[test]
fn the_hard_judgement_ranks_a_win_three_plies_deep_first() {
    let dict = forced_win();
    let game = crate::common::game(&dict, "mở ba");
    let view = ChainRobotView::new(&game);
    let link = |w: &str| dict.link_of(dict.lookup(w).unwrap());
    let judged = Hard::default().judge(&view, &mut Nodes(u64::MAX));
    assert_eq!(judged.iter().map(|j| j.0).collect::<Vec<_>>(), vec![link("ba xô"), link("ba cô")]);
    assert!(judged[0].1 > 900_000, "a forced win: {judged:?}");
    assert!(judged[1].1 < judged[0].1);
    let hasty = Hard::default().judge(&view, &mut Spent(0));
    assert_eq!(hasty.len(), 2, "every link is listed even with no budget");
}

/// A budget that counts how often it is asked and is out at once.
struct Spent(u32);

impl ThinkingLimit for Spent {
    fn expired(&mut self, _: noitu::robot::Work) -> bool {
        self.0 += 1;
        true
    }
}

#[test]
fn hard_out_of_budget_falls_back_to_medium_and_stays_legal() {
    let dict = Dictionary::builtin();
    let mut game = WordChain::new(&ChainSetup::new(3), dict).unwrap();
    let mut budget = Spent(0);
    let d = Hard { kill_rate: 0.0, ..Hard::default() }.decide(&ChainRobotView::new(&game), &mut seeded(1), &mut budget).unwrap();
    assert_eq!(d.basis, Basis::Fallback);
    assert_eq!(budget.0, 1, "asked once, at the first node");
    let capped = Hard { kill_rate: 0.0, node_cap: 0, ..Hard::default() }
        .decide(&ChainRobotView::new(&game), &mut seeded(1), &mut Nodes(u64::MAX))
        .unwrap();
    assert_eq!(capped.basis, Basis::Fallback);
    game.submit(Seat(0), dict.text(d.word), Timestamp(0)).unwrap();
}

#[test]
fn no_robot_proposes_a_word_in_a_finished_game() {
    let dict = crate::common::small();
    let mut game = crate::common::game(&dict, "pháp luật");
    game.submit(Seat(0), "luật lệ", Timestamp(0)).unwrap();
    for level in Level::ALL {
        assert_eq!(noitu::robot::strategy(level).decide(&ChainRobotView::new(&game), &mut seeded(1), &mut Nodes(u64::MAX)), None);
    }
    assert_eq!(Level::parse("hard"), Some(Level::Hard));
    assert_eq!(Level::parse("expert"), None);
}
