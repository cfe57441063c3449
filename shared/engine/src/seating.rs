//! The official first-move draw: each participant draws one tile from a full, freshly shuffled
//! set; the tile closest to the start of the alphabet leads and a blank beats every letter;
//! participants tied for the best tile draw again until one leader remains.
//!
//! [`Seating`] is a state machine with a discrete step, one tile for the next participant per
//! call, so a tournament can drive "player N draws a tile" one call at a time; [`draw`] just
//! loops. Entropy is injected ([`Entropy`]): production passes the OS CSPRNG, fresh for every
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
    /// How many of them have drawn.
    drawn: usize,
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
            drawn: 0,
            pool: rules.full_set(),
            log: Vec::new(),
            leader: None,
        })
    }

    /// The participant who draws next, or `None` once a leader is known.
    pub fn next_participant(&self) -> Option<usize> {
        if self.leader.is_some() { None } else { self.contenders.get(self.drawn).copied() }
    }

    /// Draws one tile for the next participant; closes the round after its last pick. Returns
    /// the pick, or `None` once the draw is over.
    pub fn step(&mut self, entropy: &mut dyn Entropy) -> Option<DrawRecord> {
        let participant = self.next_participant()?;
        let tile = self.pool.remove(entropy.pick(self.pool.len()).min(self.pool.len() - 1));
        let (letter, is_blank, rank) = match tile {
            RackTile::Letter(l) => (self.rules.char_of(l), false, l.index() as i16),
            RackTile::Blank => ('?', true, -1),
        };
        self.drawn += 1;
        let record = DrawRecord { round: self.round, pick_no: self.drawn as u16, participant, letter, is_blank, rank };
        self.log.push(record);
        if self.drawn == self.contenders.len() {
            self.close_round();
        }
        Some(record)
    }

    fn close_round(&mut self) {
        let picks = &self.log[self.log.len() - self.contenders.len()..];
        let best = picks.iter().map(|r| r.rank).min().unwrap_or(i16::MAX);
        let tied: Vec<usize> = picks.iter().filter(|r| r.rank == best).map(|r| r.participant).collect();
        if let [one] = tied[..] {
            self.leader = Some(one);
        } else {
            self.contenders = tied;
            self.round += 1;
            self.pool = self.rules.full_set();
        }
        self.drawn = 0;
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
    use crate::variant::Variant;

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
        let rules = Variant::ScrabbleEn.rules();
        let r = draw(rules, 3, &mut script(rules, "MCX")).unwrap();
        assert_eq!(r.leader, 1);
        assert_eq!(
            r.log.iter().map(|d| (d.round, d.pick_no, d.letter, d.rank)).collect::<Vec<_>>(),
            vec![(1, 1, 'M', 12), (1, 2, 'C', 2), (1, 3, 'X', 23)]
        );
    }

    #[test]
    fn a_blank_beats_every_letter() {
        let rules = Variant::Erudit.rules();
        let r = draw(rules, 2, &mut script(rules, "А?")).unwrap();
        assert_eq!(r.leader, 1);
        assert!(r.log[1].is_blank && r.log[1].rank == -1 && r.log[0].rank == 0);
    }

    #[test]
    fn ties_redraw_over_several_rounds_and_only_the_tied_draw_again() {
        let rules = Variant::ScrabbleRu.rules();
        // Round 1: seats 0 and 2 tie on А, seat 1 drops; round 2: blanks tie; round 3: Б beats В.
        let r = draw(rules, 3, &mut script(rules, "АЯА??ВБ")).unwrap();
        assert_eq!(r.leader, 2);
        let rounds: Vec<(u16, usize)> = r.log.iter().map(|d| (d.round, d.participant)).collect();
        assert_eq!(rounds, vec![(1, 0), (1, 1), (1, 2), (2, 0), (2, 2), (3, 0), (3, 2)]);
    }

    #[test]
    fn each_round_draws_without_replacement_from_a_full_set() {
        // Two blanks exist in Scrabble: both can be drawn in one round, a third cannot.
        let rules = Variant::ScrabbleEn.rules();
        let mut s = Seating::new(rules, 3).unwrap();
        let mut e = script(rules, "??");
        s.step(&mut e);
        s.step(&mut e);
        assert_eq!(s.pool.len(), 98);
        assert_eq!(s.pool.iter().filter(|t| **t == RackTile::Blank).count(), 0);
    }

    #[test]
    fn the_step_machine_names_who_draws_next() {
        let rules = Variant::ScrabbleEn.rules();
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
    fn the_same_entropy_gives_the_same_log() {
        struct Lcg(u64);
        impl Entropy for Lcg {
            fn pick(&mut self, n: usize) -> usize {
                self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (self.0 >> 33) as usize % n
            }
        }
        let rules = Variant::ScrabbleEn.rules();
        let a = draw(rules, 4, &mut Lcg(7)).unwrap();
        let b = draw(rules, 4, &mut Lcg(7)).unwrap();
        assert_eq!(a, b);
        assert!(draw(rules, 1, &mut Lcg(7)).is_err());
    }
}
