//! The chain's draw of lots, deciding who answers the opening word: each contender draws a lot
//! numbered 1 to [`LOTS`], the lowest leads, and contenders tied for the lowest draw again. Like
//! the tile games' draw it is a state machine with a discrete step (one lot for the next
//! contender per call), its picks from an injected [`crate::Entropy`].

use crate::draw::{Draw, DrawPick};

/// Lots are numbered 1..=LOTS.
pub const LOTS: usize = 10;

/// A draw of lots in progress.
#[derive(Debug, Clone)]
pub struct Lots {
    round: u16,
    contenders: Vec<usize>,
    drawn: usize,
    log: Vec<DrawPick>,
    leader: Option<usize>,
}

impl Lots {
    /// A draw between `participants` players.
    pub fn new(participants: usize) -> Lots {
        Lots { round: 1, contenders: (0..participants).collect(), drawn: 0, log: Vec::new(), leader: None }
    }

    /// The participant who draws next, or `None` once a leader is known.
    pub fn next_participant(&self) -> Option<usize> {
        if self.leader.is_some() { None } else { self.contenders.get(self.drawn).copied() }
    }

    /// Draws one lot for the next participant; closes the round after its last pick.
    pub fn step(&mut self, entropy: &mut dyn crate::Entropy) -> Option<DrawPick> {
        let participant = self.next_participant()?;
        let rank = (entropy.pick(LOTS).min(LOTS - 1) + 1) as i16;
        self.drawn += 1;
        let pick = DrawPick { round: self.round, pick_no: self.drawn as u16, participant, letter: None, is_blank: false, rank };
        self.log.push(pick);
        if self.drawn == self.contenders.len() {
            let picks = &self.log[self.log.len() - self.contenders.len()..];
            let best = picks.iter().map(|p| p.rank).min().unwrap_or(i16::MAX);
            let tied: Vec<usize> = picks.iter().filter(|p| p.rank == best).map(|p| p.participant).collect();
            match tied[..] {
                [one] => self.leader = Some(one),
                _ => {
                    self.contenders = tied;
                    self.round += 1;
                }
            }
            self.drawn = 0;
        }
        Some(pick)
    }

    /// The whole draw.
    pub fn run(mut self, entropy: &mut dyn crate::Entropy) -> Draw {
        while self.step(entropy).is_some() {}
        Draw { leader: self.leader.expect("a finished draw has a leader"), log: self.log }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Script(Vec<usize>);

    impl crate::Entropy for Script {
        fn pick(&mut self, _n: usize) -> usize {
            self.0.remove(0)
        }
    }

    #[test]
    fn the_lowest_lot_leads_and_ties_draw_again() {
        let draw = Lots::new(2).run(&mut Script(vec![4, 4, 7, 2]));
        assert_eq!(draw.leader, 1);
        let ranks: Vec<(u16, u16, usize, i16)> = draw.log.iter().map(|p| (p.round, p.pick_no, p.participant, p.rank)).collect();
        assert_eq!(ranks, vec![(1, 1, 0, 5), (1, 2, 1, 5), (2, 1, 0, 8), (2, 2, 1, 3)]);
        let mut lots = Lots::new(2);
        assert_eq!(lots.next_participant(), Some(0));
        lots.step(&mut Script(vec![0]));
        assert_eq!(lots.next_participant(), Some(1));
    }
}
