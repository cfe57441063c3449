//! Challenge rules: a phony laid under a rule other than void, challenged off or left standing;
//! a valid play challenged, at each rule's cost; the window after a play that goes out; and the
//! journal of all of it replayed, in the timeline and in GCG (read back).

use crate::common::{AnyWord, all_tiles, dump_rack};
use engine::gcg::{GcgHeader, to_gcg};
use engine::lexicon::Lexicon;
use engine::{Action, ChallengeRule, Game, Letter, Rejection, Seat, Setup, TileEndReason, TileMove, TileVariant, Timestamp, replay};

const NOW: Timestamp = Timestamp(0);

/// A lexicon that holds no word: every play is a phony.
struct NoWord;

impl Lexicon for NoWord {
    fn contains(&self, _: &[Letter]) -> bool {
        false
    }
}

fn game(rule: ChallengeRule, seed: u64) -> Game {
    let variant = TileVariant::ScrabbleEn;
    Game::from_setup(&Setup { variant, seats: 2, seed, no_repeat_words: false, challenge: rule }).unwrap()
}

/// The kinds of the journal's entries.
fn kinds(game: &Game) -> Vec<&'static str> {
    game.journal().iter().map(|e| e.action.kind()).collect()
}

/// The game rebuilt from its setup and journal is the game, and its GCG reads back.
fn replays(game: &Game) -> String {
    assert_eq!(&replay(game.setup(), game.journal()).unwrap(), game, "the journal replays to the same game");
    engine::timeline::timeline(game.setup(), game.journal()).unwrap();
    let names = ["ann".to_string(), "bob".to_string()];
    let gcg = to_gcg(game.setup(), game.journal(), &GcgHeader { id: "g", names: &names, title: "t" }).unwrap();
    let record = engine::gcg::read::read(&gcg).unwrap_or_else(|e| panic!("{e}\n{gcg}"));
    // Read back: each withdrawal and each bonus is an event of its own, and every player's last
    // total is the game's score.
    let count = |kind: engine::gcg::read::GcgEventKind| record.events.iter().filter(|e| e.kind == kind).count();
    let entries = |action: Action| game.journal().iter().filter(|e| e.action == action).count();
    assert_eq!(count(engine::gcg::read::GcgEventKind::PhonyReturned), entries(Action::ChallengedOff), "{gcg}");
    assert_eq!(count(engine::gcg::read::GcgEventKind::ChallengeBonus), entries(Action::ChallengeBonus), "{gcg}");
    for seat in 0..game.seats() {
        if let Some(last) = record.events.iter().rev().find(|e| e.player == seat) {
            assert_eq!(last.total, game.scores()[seat], "seat {seat}'s total\n{gcg}");
        }
    }
    gcg
}

#[test]
fn under_void_a_phony_is_refused_and_nothing_can_be_challenged() {
    let mut g = game(ChallengeRule::Void, 3);
    let mv = dump_rack(&g, 0);
    assert!(matches!(g.play(&NoWord, Seat(0), &mv, NOW), Err(Rejection::InvalidWords { .. })));
    g.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    assert_eq!(g.challengeable(), None);
    assert_eq!(g.play(&NoWord, Seat(1), &TileMove::Challenge, NOW).unwrap_err(), Rejection::ChallengeNotAllowed);
}

#[test]
fn a_phony_challenged_off_goes_back_to_the_rack_and_the_challenger_moves() {
    for rule in [ChallengeRule::Single, ChallengeRule::Double, ChallengeRule::FivePoint, ChallengeRule::TenPoint] {
        let mut g = game(rule, 3);
        let before = g.clone();
        let mv = dump_rack(&g, 0);
        // Laid as it is: the word list is not asked until a challenge.
        g.play(&NoWord, Seat(0), &mv, NOW).unwrap();
        let points = g.scores()[0];
        assert!(points > 0);
        assert_eq!((g.challengeable(), g.to_move()), (Some(Seat(0)), Seat(1)));
        // Only the next seat may challenge.
        assert!(matches!(g.play(&NoWord, Seat(0), &TileMove::Challenge, NOW), Err(Rejection::NotYourTurn { .. })));
        let entry = g.play(&NoWord, Seat(1), &TileMove::Challenge, NOW).unwrap().clone();
        assert_eq!((entry.seat, entry.action.clone(), entry.score), (Seat(0), Action::ChallengedOff, -points), "{rule:?}");
        assert_eq!(g.board(), before.board(), "the tiles come off the board");
        assert_eq!(g.rack(Seat(0)), before.rack(Seat(0)), "and go back to the rack");
        assert_eq!(g.bag().len(), before.bag().len(), "the tiles drawn go back to the bag");
        assert_eq!(all_tiles(&g), all_tiles(&before));
        assert_eq!(g.scores(), [0, 0]);
        assert_eq!(
            (g.to_move(), g.scoreless_turns(), g.challengeable()),
            (Seat(1), 1, None),
            "the challenger moves, the turn scored nothing"
        );
        assert_eq!(g.play(&NoWord, Seat(1), &TileMove::Challenge, NOW).unwrap_err(), Rejection::NothingToChallenge);
        let gcg = replays(&g);
        assert!(gcg.contains(&format!(">p1: {} -- -{points} 0", engine_rack(&before, 0))), "{gcg}");
    }
}

/// The rack of `seat` as GCG writes it (the timeline's order).
fn engine_rack(game: &Game, seat: usize) -> String {
    engine::timeline::timeline(game.setup(), game.journal()).unwrap().steps.last().unwrap().racks[seat].concat()
}

#[test]
fn a_valid_play_challenged_costs_what_the_rule_says() {
    for (rule, kind, bonus, turn_lost) in [
        (ChallengeRule::Single, "challenge_failed", 0, false),
        (ChallengeRule::Double, "challenge_turn_lost", 0, true),
        (ChallengeRule::FivePoint, "challenge_bonus", 5, false),
        (ChallengeRule::TenPoint, "challenge_bonus", 10, false),
    ] {
        let mut g = game(rule, 4);
        let mv = dump_rack(&g, 0);
        g.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
        let points = g.scores()[0];
        g.play(&AnyWord, Seat(1), &TileMove::Challenge, NOW).unwrap();
        assert_eq!(kinds(&g), ["play", kind], "{rule:?}");
        assert_eq!(g.scores(), [points + bonus, 0], "{rule:?}");
        assert_eq!(g.to_move(), if turn_lost { Seat(0) } else { Seat(1) }, "{rule:?}");
        assert!(!g.board().tiles().collect::<Vec<_>>().is_empty(), "the play stands");
        assert_eq!(g.challengeable(), None, "one challenge a play");
        let gcg = replays(&g);
        if bonus > 0 {
            assert!(gcg.contains(&format!("(challenge) +{bonus} {}", points + bonus)), "{gcg}");
        }
    }
}

#[test]
fn an_unchallenged_phony_stands_once_the_next_seat_moves() {
    let mut g = game(ChallengeRule::Double, 5);
    let mv = dump_rack(&g, 0);
    g.play(&NoWord, Seat(0), &mv, NOW).unwrap();
    g.play(&AnyWord, Seat(1), &TileMove::Pass, NOW).unwrap();
    assert_eq!(g.challengeable(), None);
    assert_eq!(g.play(&NoWord, Seat(0), &TileMove::Challenge, NOW).unwrap_err(), Rejection::NothingToChallenge);
    assert!(g.scores()[0] > 0, "the phony keeps its points");
    replays(&g);
}

/// Plays whole racks (any word) until a play goes out under `rule`.
fn to_the_last_play(rule: ChallengeRule) -> Game {
    let mut g = game(rule, 3);
    let mut k = 0;
    while !g.end_pending() {
        assert!(!g.is_over());
        let mv = dump_rack(&g, k);
        let seat = g.to_move();
        g.play(&NoWord, seat, &mv, NOW).unwrap();
        k += 1;
    }
    g
}

#[test]
fn a_play_that_goes_out_waits_for_the_challenge_or_the_acceptance() {
    let mut g = to_the_last_play(ChallengeRule::Single);
    let out = g.challengeable().unwrap();
    let next = g.to_move();
    assert!(!g.is_over() && g.rack(out).is_empty());
    assert_eq!(g.play(&AnyWord, next, &TileMove::Pass, NOW).unwrap_err(), Rejection::ChallengeWindow);
    assert_eq!(g.play(&AnyWord, out, &TileMove::Accept, NOW).unwrap_err(), Rejection::NotYourTurn { to_move: next });
    // Accepted: the game ends as if the play had gone out unchallenged.
    let mut accepted = g.clone();
    accepted.play(&AnyWord, next, &TileMove::Accept, NOW).unwrap();
    assert_eq!(accepted.end().unwrap().reason, TileEndReason::WentOut { seat: out });
    replays(&accepted);
    // Challenged and valid: the same end.
    let mut stands = g.clone();
    stands.play(&AnyWord, next, &TileMove::Challenge, NOW).unwrap();
    assert_eq!(stands.end().unwrap().reason, TileEndReason::WentOut { seat: out });
    assert_eq!(stands.scores(), accepted.scores());
    replays(&stands);
    // Challenged off: the tiles come back and the game goes on with the challenger to move.
    let mut off = g.clone();
    off.play(&NoWord, next, &TileMove::Challenge, NOW).unwrap();
    assert!(!off.is_over() && !off.end_pending());
    assert!(!off.rack(out).is_empty());
    assert_eq!(off.to_move(), next);
    replays(&off);
    // The window's lapse accepts the play.
    let mut lapsed = g.clone();
    lapsed.set_deadline(Some(NOW));
    let lapse = lapsed.check_timeout(NOW, vocabulary::Lapse::Game).unwrap();
    lapsed.apply(lapse);
    assert_eq!(lapsed.end().unwrap().reason, TileEndReason::WentOut { seat: out });
    assert_eq!(lapsed.journal().last().unwrap().action, Action::Accept);
}

#[test]
fn a_journal_that_claims_a_challenge_it_could_not_have_does_not_replay() {
    let mut g = game(ChallengeRule::FivePoint, 4);
    let mv = dump_rack(&g, 0);
    g.play(&AnyWord, Seat(0), &mv, NOW).unwrap();
    g.play(&AnyWord, Seat(1), &TileMove::Challenge, NOW).unwrap();
    let mut forged = g.journal().to_vec();
    forged[1].score = 50;
    assert!(replay(g.setup(), &forged).is_err(), "a bonus the rule does not give");
    let mut forged = g.journal().to_vec();
    forged[1].action = Action::ChallengedOff;
    assert!(replay(g.setup(), &forged).is_err(), "a withdrawal with the bonus's score");
    let void = Setup { challenge: ChallengeRule::Void, ..g.setup().clone() };
    assert!(replay(&void, g.journal()).is_err(), "a challenge in a void game");
}

#[test]
fn seeded_games_full_of_phonies_and_challenges_replay_and_read_back_in_gcg() {
    let rules = [ChallengeRule::Single, ChallengeRule::Double, ChallengeRule::FivePoint, ChallengeRule::TenPoint];
    for seed in 0..24u64 {
        let mut g = game(rules[seed as usize % 4], seed);
        let (mut k, mut turns) = (0, 0);
        while !g.is_over() {
            turns += 1;
            assert!(turns < 400, "seed {seed}: the game does not end");
            let seat = g.to_move();
            // Now and then the open play is challenged: judged a phony or a word in turn.
            if g.challengeable().is_some() && (seed + turns) % 3 == 0 {
                let words: &dyn Lexicon = if turns % 2 == 0 { &NoWord } else { &AnyWord };
                g.play(words, seat, &TileMove::Challenge, NOW).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                if g.journal().last().unwrap().action == Action::ChallengedOff {
                    // Its column is empty again: the next play fills it.
                    k -= 1;
                }
                continue;
            }
            if g.end_pending() {
                g.play(&AnyWord, seat, &TileMove::Accept, NOW).unwrap();
                continue;
            }
            let mv = dump_rack(&g, k);
            k += 1;
            let n = g.move_count();
            g.play(&NoWord, seat, &mv, NOW).unwrap_or_else(|e| panic!("seed {seed} move {n}: {e}"));
        }
        assert_eq!(all_tiles(&g), TileVariant::ScrabbleEn.rules().full_set(), "seed {seed}: no tile lost or made");
        replays(&g);
    }
}
