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

/// A manual draw in progress: who leads once it is over, who has still to draw this round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawState {
    /// Who leads, once the draw is over.
    pub leader: Option<usize>,
    /// The round being drawn, from 1 (ties draw again).
    pub round: u16,
    /// The participants who have still to draw this round, in turn order.
    pub pending: Vec<usize>,
}

/// Why a manual draw cannot take a step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The family decides who moves first by lots, all at once: no manual draw.
    #[error("a {0} game draws lots at once, not tiles by hand")]
    NotManual(crate::Variant),
    /// The draw is over.
    #[error("the draw is over")]
    Over,
    /// The participant has no tile to draw now (drawn this round already, or out of a tie).
    #[error("this player has no tile to draw now")]
    NotToDraw(usize),
    /// The recorded picks do not replay.
    #[error("the recorded draw does not replay: {0}")]
    Corrupt(String),
}

impl DrawPick {
    pub(crate) fn of_tile(d: &engine::seating::DrawRecord) -> DrawPick {
        DrawPick {
            round: d.round,
            pick_no: d.pick_no,
            participant: d.participant,
            letter: Some(d.letter),
            is_blank: d.is_blank,
            rank: d.rank,
        }
    }
}

/// A manual draw of tiles between `participants` so far (its recorded `picks`).
///
/// # Errors
/// [`DrawError::NotManual`] for a chain game; [`DrawError::Corrupt`] for picks that do not
/// replay.
pub fn draw_state(variant: crate::Variant, participants: usize, picks: &[DrawPick]) -> Result<DrawState, DrawError> {
    let seating = seating(variant, participants, picks)?;
    Ok(DrawState { leader: seating.leader(), round: seating.round(), pending: seating.pending().collect() })
}

/// One more tile of a manual draw, for `participant`, with the injected entropy: the pick
/// and the draw after it.
///
/// # Errors
/// As [`draw_state`]; [`DrawError::Over`] once a leader is known;
/// [`DrawError::NotToDraw`] for a participant with nothing to draw now.
pub fn draw_step(
    variant: crate::Variant,
    participants: usize,
    picks: &[DrawPick],
    participant: usize,
    entropy: &mut dyn crate::Entropy,
) -> Result<(DrawPick, DrawState), DrawError> {
    let mut seating = seating(variant, participants, picks)?;
    let pick = seating.step_for(participant, entropy).map_err(|e| match e {
        engine::seating::StepError::Over => DrawError::Over,
        engine::seating::StepError::NotToDraw(p) => DrawError::NotToDraw(p),
        other => DrawError::Corrupt(other.to_string()),
    })?;
    Ok((DrawPick::of_tile(&pick), DrawState { leader: seating.leader(), round: seating.round(), pending: seating.pending().collect() }))
}

fn seating(variant: crate::Variant, participants: usize, picks: &[DrawPick]) -> Result<engine::seating::Seating<'static>, DrawError> {
    let rules = crate::variant::tile_rules(variant).ok_or(DrawError::NotManual(variant))?.rules();
    let records: Vec<engine::seating::DrawRecord> = picks
        .iter()
        .map(|p| engine::seating::DrawRecord {
            round: p.round,
            pick_no: p.pick_no,
            participant: p.participant,
            letter: p.letter.unwrap_or('?'),
            is_blank: p.is_blank,
            rank: p.rank,
        })
        .collect();
    engine::seating::Seating::replay(rules, participants, &records).map_err(|e| DrawError::Corrupt(e.to_string()))
}
