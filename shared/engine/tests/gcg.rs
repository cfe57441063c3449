//! GCG round trip: the writer's output of 200 seeded robot games (every variant, two to four
//! seats, some resigned) read back by the GCG reader gives the same moves, racks and scores.

use engine::gcg::read::{GcgEventKind, GcgTile, read};
use engine::gcg::{GcgHeader, lexicon_name, nick, to_gcg};
use engine::lexicon::builtin_graph;
use engine::movegen::exchanges;
use engine::timeline::timeline;
use engine::{Action, Game, MoveGenerator, Ranking, TileEndReason, TileInput, TileMove, TileVariant, Timestamp};

/// A seeded game between best-score robots; the seat to move resigns at `resign_at`, if given.
fn robot_game(variant: TileVariant, seats: usize, seed: u64, resign_at: Option<usize>) -> Game {
    let rules = variant.rules();
    let graph = builtin_graph(variant);
    let generator = MoveGenerator::new(rules, graph);
    let mut game = Game::new(variant, seats, seed).expect("2..=4 seats");
    while !game.is_over() {
        let seat = game.to_move();
        if Some(game.journal().len()) == resign_at {
            game.play(graph, seat, &TileMove::Resign, Timestamp(0)).expect("a resignation is legal");
            continue;
        }
        // The best-scoring play the no-repeat rule (Эрудит) allows, else a full exchange or a pass.
        let played = generator
            .top(game.board(), game.rack(seat), 20, Ranking::Score)
            .iter()
            .any(|p| game.play(graph, seat, &TileMove::play(rules, &p.placements()), Timestamp(0)).is_ok());
        if !played {
            let mv = match exchanges(rules, game.rack(seat), game.bag().len()).into_iter().max_by_key(|r| r.len()) {
                Some(all) => TileMove::Exchange { tiles: all.tiles().map(|t| TileInput::from_rack_tile(rules, t)).collect() },
                None => TileMove::Pass,
            };
            game.play(graph, seat, &mv, Timestamp(0)).expect("an exchange or a pass is legal");
        }
    }
    game
}

#[test]
fn two_hundred_robot_games_read_back_to_the_same_moves_and_scores() {
    let (mut plays, mut settled, mut resigned, mut exchanges_seen) = (0, 0, 0, 0);
    for n in 0..200u64 {
        let variant = TileVariant::ALL[(n % 3) as usize];
        let seats = 2 + (n % 5) as usize % 3;
        let resign_at = (n % 10 == 9).then_some(5 + (n as usize % 7));
        let game = robot_game(variant, seats, 1000 + n, resign_at);
        let names: Vec<String> = (0..seats).map(|s| format!("Player {s} <{n}>")).collect();
        let id = format!("game-{n}");
        let text = to_gcg(game.setup(), game.journal(), &GcgHeader { id: &id, names: &names, title: "round trip" }).unwrap();
        let rec = read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let ctx = || format!("game {n} ({variant}, {seats} seats)\n{text}");

        assert_eq!(rec.id, Some(("wordgame".to_string(), id.clone())), "{}", ctx());
        assert_eq!(rec.lexicon.as_deref(), Some(lexicon_name(variant)));
        assert_eq!(rec.tile_distribution.as_deref(), Some(variant.id()));
        assert_eq!(rec.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(), names);
        assert_eq!(rec.players.iter().map(|p| p.nick.clone()).collect::<Vec<_>>(), (0..seats).map(nick).collect::<Vec<_>>());

        let tl = timeline(game.setup(), game.journal()).unwrap();
        let mut events = rec.events.iter();
        let mut running = vec![0; seats];
        for (k, entry) in game.journal().iter().enumerate() {
            if entry.action == Action::Resign {
                assert!(rec.notes.contains(&format!("{} resigned", nick(entry.seat.index()))), "{}", ctx());
                resigned += 1;
                continue;
            }
            let ev = events.next().unwrap_or_else(|| panic!("move {k} missing\n{}", ctx()));
            let seat = entry.seat.index();
            running[seat] += entry.score;
            assert_eq!((ev.player, ev.score, ev.total), (seat, entry.score, running[seat]), "move {k}: {}", ctx());
            assert_eq!(ev.rack, tl.steps[k].racks[seat].concat(), "move {k}: {}", ctx());
            match (&entry.action, &ev.kind) {
                (Action::Play { tiles, .. }, kind @ GcgEventKind::Play { .. }) => {
                    let mut want: Vec<GcgTile> = tiles
                        .iter()
                        .map(|t| GcgTile { row: t.square.row(), col: t.square.col(), letter: t.letter, blank: t.blank })
                        .collect();
                    let mut got = kind.placed();
                    want.sort_by_key(|t| (t.row, t.col));
                    got.sort_by_key(|t| (t.row, t.col));
                    assert_eq!(got, want, "move {k}: {}", ctx());
                    plays += 1;
                }
                (Action::Exchange { tiles }, GcgEventKind::Exchange { tiles: Some(got), count }) => {
                    let want: String = tiles.iter().map(|t| if let TileInput::Letter(c) = t { *c } else { '?' }).collect();
                    assert_eq!((got, *count), (&want, tiles.len()), "move {k}: {}", ctx());
                    exchanges_seen += 1;
                }
                (Action::Pass | Action::Timeout, GcgEventKind::Pass) => {}
                (a, e) => panic!("move {k}: {a:?} read back as {e:?}\n{}", ctx()),
            }
        }
        let end = game.end().expect("played to the end");
        for ev in events {
            let expected = match (end.reason, &ev.kind) {
                (TileEndReason::WentOut { seat }, GcgEventKind::EndRackPoints { racks }) if seat.index() == ev.player => {
                    let left: String = (0..seats).filter(|&s| s != ev.player).map(|s| tl.steps.last().unwrap().racks[s].concat()).collect();
                    assert_eq!(racks, &left, "{}", ctx());
                    end.adjustments[ev.player]
                }
                (TileEndReason::WentOut { .. } | TileEndReason::ScorelessTurns, GcgEventKind::LastRackPenalty) => {
                    assert_eq!(ev.rack, tl.steps.last().unwrap().racks[ev.player].concat());
                    end.adjustments[ev.player]
                }
                (r, e) => panic!("{r:?} settled by {e:?}\n{}", ctx()),
            };
            assert_eq!(ev.score, expected, "{}", ctx());
            running[ev.player] += ev.score;
            settled += 1;
        }
        assert_eq!(running, game.scores(), "final scores: {}", ctx());
    }
    assert!(plays > 4000 && settled > 150 && resigned == 20 && exchanges_seen > 0, "{plays} {settled} {resigned} {exchanges_seen}");
}
