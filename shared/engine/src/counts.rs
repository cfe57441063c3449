//! Rack counts by tile code, the form the move generator, the bingo table and leave values
//! share: one slot per tile code (letter index + 1), slot 0 for blanks.

use crate::letter::Letter;
use crate::rack::Rack;
use crate::tile::RackTile;

/// The graph's tile code for a letter: its alphabet index + 1 (0 is the GADDAG separator).
pub(crate) const fn tile_code(letter: Letter) -> u8 {
    letter.index() as u8 + 1
}

/// Rack counts by tile code; index 0 counts blanks.
pub(crate) type Counts = [u8; 64];

/// A rack's tiles counted by tile code (index 0: blanks).
pub(crate) fn counts_of(rack: &Rack) -> Counts {
    let mut counts: Counts = [0; 64];
    for t in rack.tiles() {
        match t {
            RackTile::Letter(l) => counts[usize::from(tile_code(l))] += 1,
            RackTile::Blank => counts[0] += 1,
        }
    }
    counts
}
