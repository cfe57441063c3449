//! Who moves first, for any family: the tile games' draw of tiles or the chain's draw of lots,
//! as one log of picks.

/// One pick of a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawPick {
    /// Round, from 1.
    pub round: u16,
    /// Pick within the round, from 1.
    pub pick_no: u16,
    /// The participant (index into the list the draw ran over).
    pub participant: usize,
    /// The tile's letter (`?` for a blank); none for a lot.
    pub letter: Option<char>,
    /// Whether the tile was a blank.
    pub is_blank: bool,
    /// The rank drawn; the lowest leads.
    pub rank: i16,
}

/// A finished draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// Who leads (index into the participants).
    pub leader: usize,
    /// Every pick.
    pub log: Vec<DrawPick>,
}
