//! The official first-move draw: each participant draws one tile from a full, freshly shuffled
//! set; the tile closest to the start of the alphabet leads and a blank beats every letter;
//! participants tied for the best tile draw again until one leader remains.
//!
//! [`Seating`] is a state machine with a discrete step, one tile per call, so a tournament can
//! drive "player N draws a tile" one call at a time, in whatever order the players call
//! ([`Seating::step_for`]), and take the draw up again from its recorded picks
//! ([`Seating::replay`]); [`draw`] just loops. Entropy is injected ([`Entropy`]): production passes the OS CSPRNG, fresh for every
//! draw and never the game's bag seed; tests pass a script.

use crate::setup::SetupError;
use crate::tile::RackTile;
use crate::variant::Rules;

/// A source of uniform choices.
pub trait Entropy {
    /// A uniformly chosen index in `0..n` (`n ≥ 1`).
    fn pick(&mut self, n: usize) -> usize;
}

/// One tile drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRecord {
    /// Round, from 1.
    pub round: u16,
    /// Pick within the round, from 1.
    pub pick_no: u16,
    /// The participant (index into the seat list the draw was run over).
    pub participant: usize,
    /// The letter drawn, upper case (for a blank: `?`).
    pub letter: char,
    /// Whether the tile was a blank.
    pub is_blank: bool,
    /// Its rank: −1 for a blank, else the letter's alphabet index; lower leads.
    pub rank: i16,
}

/// The draw in progress.
#[derive(Debug, Clone)]
pub struct Seating<'r> {
    rules: &'r Rules,
    round: u16,
    /// Who draws this round, in order.
    contenders: Vec<usize>,
    /// Which of them have drawn, in the order they drew.
    drawn: Vec<usize>,
    /// What is left of this round's shuffled set, in set order.
    pool: Vec<RackTile>,
    log: Vec<DrawRecord>,
    leader: Option<usize>,
}

impl<'r> Seating<'r> {
    /// A draw between `participants` (2..=4) players.
    ///
    /// # Errors
    /// [`SetupError::SeatCount`] outside 2..=4.
    pub fn new(rules: &'r Rules, participants: usize) -> Result<Seating<'r>, SetupError> {
        if !(2..=4).contains(&participants) {
            return Err(SetupError::SeatCount(participants));
        }
        Ok(Seating {
            rules,
            round: 1,
            contenders: (0..participants).collect(),
            drawn: Vec::new(),
            pool: rules.full_set(),
            log: Vec::new(),
            leader: None,
        })
    }

    /// The participant who draws next in turn, or `None` once a leader is known.
    pub fn next_participant(&self) -> Option<usize> {
        if self.leader.is_some() { None } else { self.pending().next() }
    }

    /// The participants who have still to draw this round, in turn order (none once a leader
    /// is known).
    pub fn pending(&self) -> impl Iterator<Item = usize> + '_ {
        self.contenders.iter().copied().filter(|c| self.leader.is_none() && !self.drawn.contains(c))
    }

    /// The round being drawn, from 1 (ties draw again in the next).
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Draws one tile for the next participant in turn; closes the round after its last pick.
    /// Returns the pick, or `None` once the draw is over.
    pub fn step(&mut self, entropy: &mut dyn Entropy) -> Option<DrawRecord> {
        let participant = self.next_participant()?;
        self.step_for(participant, entropy).ok()
    }

    /// Draws one tile for `participant`, who may draw before others of the round: a manual
    /// draw takes the players in the order they call.
    ///
    /// # Errors
    /// [`StepError`] once the draw is over, or for a participant not to draw this round.
    pub fn step_for(&mut self, participant: usize, entropy: &mut dyn Entropy) -> Result<DrawRecord, StepError> {
        self.check_turn(participant)?;
        let index = entropy.pick(self.pool.len()).min(self.pool.len() - 1);
        Ok(self.take(participant, index))
    }

    /// The draw again from its recorded picks, in order, ready for the next.
    ///
    /// # Errors
    /// [`StepError`] for a pick out of turn, of another round, or of a tile the set has no more
    /// of; [`SetupError`] through [`StepError::Setup`] for a participant count outside 2..=4.
    pub fn replay(rules: &'r Rules, participants: usize, picks: &[DrawRecord]) -> Result<Seating<'r>, StepError> {
        let mut seating = Seating::new(rules, participants).map_err(StepError::Setup)?;
        for pick in picks {
            seating.check_turn(pick.participant)?;
            let index = seating
                .pool
                .iter()
                .position(|t| match t {
                    RackTile::Blank => pick.is_blank,
                    RackTile::Letter(l) => !pick.is_blank && rules.char_of(*l) == pick.letter,
                })
                .filter(|_| pick.round == seating.round)
                .ok_or(StepError::NotDrawable { round: pick.round, letter: pick.letter })?;
            seating.take(pick.participant, index);
        }
        Ok(seating)
    }

    fn check_turn(&self, participant: usize) -> Result<(), StepError> {
        if self.leader.is_some() {
            return Err(StepError::Over);
        }
        if !self.pending().any(|p| p == participant) {
            return Err(StepError::NotToDraw(participant));
        }
        Ok(())
    }

    fn take(&mut self, participant: usize, index: usize) -> DrawRecord {
        let tile = self.pool.remove(index);
        let (letter, is_blank, rank) = match tile {
            RackTile::Letter(l) => (self.rules.char_of(l), false, l.index() as i16),
            RackTile::Blank => ('?', true, -1),
        };
        self.drawn.push(participant);
        let record = DrawRecord { round: self.round, pick_no: self.drawn.len() as u16, participant, letter, is_blank, rank };
        self.log.push(record);
        if self.drawn.len() == self.contenders.len() {
            self.close_round();
        }
        record
    }

    fn close_round(&mut self) {
        let picks = &self.log[self.log.len() - self.contenders.len()..];
        let best = picks.iter().map(|r| r.rank).min().unwrap_or(i16::MAX);
        let tied: Vec<usize> = picks.iter().filter(|r| r.rank == best).map(|r| r.participant).collect();
        if let [one] = tied[..] {
            self.leader = Some(one);
        } else {
            // The tied draw again in their seat order, whatever order they called in.
            self.contenders = tied;
            self.contenders.sort_unstable();
            self.round += 1;
            self.pool = self.rules.full_set();
        }
        self.drawn.clear();
    }

    /// The leader, once the draw is over.
    pub fn leader(&self) -> Option<usize> {
        self.leader
    }

    /// Every tile drawn so far, in order.
    pub fn log(&self) -> &[DrawRecord] {
        &self.log
    }
}

/// Why a draw cannot take a step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The draw is over: a leader is known.
    #[error("the draw is over")]
    Over,
    /// The participant is not one who has still to draw this round (drawn already, or out of
    /// a tie-break).
    #[error("participant {0} has no tile to draw now")]
    NotToDraw(usize),
    /// A recorded pick names a tile the round's set has no more of, or another round.
    #[error("round {round}'s set has no {letter:?} left to draw")]
    NotDrawable {
        /// The pick's round.
        round: u16,
        /// The pick's letter.
        letter: char,
    },
    /// The participant count.
    #[error(transparent)]
    Setup(SetupError),
}

/// The result of a complete draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawResult {
    /// Who leads (index into the participants).
    pub leader: usize,
    /// Every tile drawn.
    pub log: Vec<DrawRecord>,
}

/// Runs the whole draw between `participants` players.
///
/// # Errors
/// [`SetupError::SeatCount`] outside 2..=4.
pub fn draw(rules: &Rules, participants: usize, entropy: &mut dyn Entropy) -> Result<DrawResult, SetupError> {
    let mut seating = Seating::new(rules, participants)?;
    while seating.step(entropy).is_some() {}
    let leader = seating.leader().expect("a draw loops until one leader remains");
    Ok(DrawResult { leader, log: seating.log })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::TileVariant;

    /// Picks from a script, by the letter wanted: the first remaining tile of that letter.
    struct Script<'a> {
        rules: &'a Rules,
        wanted: Vec<char>,
        pool: Vec<RackTile>,
    }

    impl Entropy for Script<'_> {
        fn pick(&mut self, n: usize) -> usize {
            if self.pool.len() != n {
                self.pool = self.rules.full_set();
            }
            let want = self.wanted.remove(0);
            let i = self
                .pool
                .iter()
                .position(|t| match (t, want) {
                    (RackTile::Blank, '?') => true,
                    (RackTile::Letter(l), c) => self.rules.char_of(*l) == c,
                    _ => false,
                })
                .expect("the scripted tile is in the set");
            self.pool.remove(i);
            i
        }
    }

    fn script<'a>(rules: &'a Rules, wanted: &str) -> Script<'a> {
        Script { rules, wanted: wanted.chars().collect(), pool: rules.full_set() }
    }

    #[test]
    fn closer_to_a_leads() {
        let rules = TileVariant::ScrabbleEn.rules();
        let r = draw(rules, 3, &mut script(rules, "MCX")).unwrap();
        assert_eq!(r.leader, 1);
        assert_eq!(
            r.log.iter().map(|d| (d.round, d.pick_no, d.letter, d.rank)).collect::<Vec<_>>(),
            vec![(1, 1, 'M', 12), (1, 2, 'C', 2), (1, 3, 'X', 23)]
        );
    }

    #[test]
    fn a_blank_beats_every_letter() {
        let rules = TileVariant::Erudit.rules();
        let r = draw(rules, 2, &mut script(rules, "А?")).unwrap();
        assert_eq!(r.leader, 1);
        assert!(r.log[1].is_blank && r.log[1].rank == -1 && r.log[0].rank == 0);
    }

    #[test]
    fn ties_redraw_over_several_rounds_and_only_the_tied_draw_again() {
        let rules = TileVariant::ScrabbleRu.rules();
        // Round 1: seats 0 and 2 tie on А, seat 1 drops; round 2: blanks tie; round 3: Б beats В.
        let r = draw(rules, 3, &mut script(rules, "АЯА??ВБ")).unwrap();
        assert_eq!(r.leader, 2);
        let rounds: Vec<(u16, usize)> = r.log.iter().map(|d| (d.round, d.participant)).collect();
        assert_eq!(rounds, vec![(1, 0), (1, 1), (1, 2), (2, 0), (2, 2), (3, 0), (3, 2)]);
    }

    #[test]
    fn each_round_draws_without_replacement_from_a_full_set() {
        // Two blanks exist in Scrabble: both can be drawn in one round, a third cannot.
        let rules = TileVariant::ScrabbleEn.rules();
        let mut s = Seating::new(rules, 3).unwrap();
        let mut e = script(rules, "??");
        s.step(&mut e);
        s.step(&mut e);
        assert_eq!(s.pool.len(), 98);
        assert_eq!(s.pool.iter().filter(|t| **t == RackTile::Blank).count(), 0);
    }

    #[test]
    fn the_step_machine_names_who_draws_next() {
        let rules = TileVariant::ScrabbleEn.rules();
        let mut s = Seating::new(rules, 2).unwrap();
        let mut e = script(rules, "EEAB");
        assert_eq!(s.next_participant(), Some(0));
        s.step(&mut e);
        assert_eq!(s.next_participant(), Some(1));
        s.step(&mut e);
        assert_eq!((s.next_participant(), s.leader()), (Some(0), None), "a tie starts round 2");
        s.step(&mut e);
        s.step(&mut e);
        assert_eq!((s.next_participant(), s.leader()), (None, Some(0)));
        assert_eq!(s.step(&mut e), None);
    }

    #[test]
    fn players_may_draw_in_any_order_and_the_draw_replays_from_its_picks() {
        let rules = TileVariant::ScrabbleEn.rules();
        let mut s = Seating::new(rules, 3).unwrap();
        let mut e = script(rules, "EQEDA");
        // Round 1 in the order 2, 0, 1: seats 2 and 1 tie on E; round 2 among them only.
        assert_eq!(s.step_for(2, &mut e).unwrap().pick_no, 1);
        assert_eq!(s.step_for(2, &mut e), Err(StepError::NotToDraw(2)), "one tile a round");
        s.step_for(0, &mut e).unwrap();
        s.step_for(1, &mut e).unwrap();
        assert_eq!((s.round(), s.pending().collect::<Vec<_>>()), (2, vec![1, 2]));
        assert_eq!(s.step_for(0, &mut e), Err(StepError::NotToDraw(0)), "out of the tie");
        s.step_for(2, &mut e).unwrap();
        s.step_for(1, &mut e).unwrap();
        assert_eq!(s.leader(), Some(1), "A beats D");
        assert_eq!(s.step_for(1, &mut e), Err(StepError::Over));
        let again = Seating::replay(rules, 3, s.log()).unwrap();
        assert_eq!((again.leader(), again.log()), (Some(1), s.log()));
        let half = Seating::replay(rules, 3, &s.log()[..4]).unwrap();
        assert_eq!((half.round(), half.pending().collect::<Vec<_>>()), (2, vec![1]));
        assert_eq!(half.pool.len(), 99);
    }

    #[test]
    fn a_replay_refuses_picks_the_set_cannot_give() {
        let rules = TileVariant::ScrabbleEn.rules();
        let blank = |participant| DrawRecord { round: 1, pick_no: 1, participant, letter: '?', is_blank: true, rank: -1 };
        let mut s = Seating::new(rules, 4).unwrap();
        let picks: Vec<DrawRecord> = (0..3).map(blank).collect();
        assert!(matches!(Seating::replay(rules, 4, &picks), Err(StepError::NotDrawable { round: 1, letter: '?' })));
        assert_eq!(Seating::replay(rules, 4, &[blank(0), blank(0)]).err(), Some(StepError::NotToDraw(0)));
        let other_round = DrawRecord { round: 2, ..blank(1) };
        assert!(Seating::replay(rules, 4, &[other_round]).is_err());
        assert_eq!(s.step(&mut script(rules, "Z")).map(|r| r.letter), Some('Z'));
    }

    #[test]
    fn the_same_entropy_gives_the_same_log() {
        struct Lcg(u64);
        impl Entropy for Lcg {
            fn pick(&mut self, n: usize) -> usize {
                self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (self.0 >> 33) as usize % n
            }
        }
        let rules = TileVariant::ScrabbleEn.rules();
        let a = draw(rules, 4, &mut Lcg(7)).unwrap();
        let b = draw(rules, 4, &mut Lcg(7)).unwrap();
        assert_eq!(a, b);
        assert!(draw(rules, 1, &mut Lcg(7)).is_err());
    }
}
