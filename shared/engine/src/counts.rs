//! Rack counts by tile code, the form the move generator, the bingo table and leave values
//! share: one slot per tile code (letter index + 1), slot 0 for blanks.

/// Rack counts by tile code; index 0 counts blanks.
pub(crate) type Counts = [u8; 64];
