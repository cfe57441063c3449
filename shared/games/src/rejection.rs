//! A rules refusal of any family, as the service and the API carry it: the family's stable code,
//! its message and its details. The HTTP layer maps it without knowing the family.

use serde_json::{Value, json};

/// A move the rules refuse; nothing was changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Rejected {
    /// The family's stable snake_case code (`invalid_words`, `wrong_link`, …).
    pub code: &'static str,
    /// What is wrong, for people.
    pub message: String,
    /// Structured details (the squares, words or syllables concerned), or null.
    pub details: Value,
}

/// Every rules code of every family, each once.
pub fn codes() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = engine::Rejection::CODES.to_vec();
    for code in noitu::ChainRejection::CODES {
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

impl From<engine::Rejection> for Rejected {
    fn from(r: engine::Rejection) -> Rejected {
        use engine::Rejection as R;
        let details = match &r {
            R::NotYourTurn { to_move } => json!({ "to_move": to_move.index() }),
            R::OffBoard { square } => json!({ "square": square }),
            R::DuplicateSquare { square }
            | R::Gap { square }
            | R::MissingLetter { square }
            | R::BlankWithoutLetter { square }
            | R::SquareOccupied { square } => json!({ "square": square.to_string() }),
            R::LetterNotInAlphabet { letter } => json!({ "letter": letter.to_string() }),
            R::TileNotOnRack { tile } => json!({ "tile": tile }),
            R::InvalidWords { words } | R::WordAlreadyPlayed { words } => json!({ "words": words }),
            R::BagTooSmall { bag, needed } => json!({ "bag": bag, "needed": needed }),
            _ => Value::Null,
        };
        Rejected { code: r.code(), message: r.to_string(), details }
    }
}

impl From<noitu::ChainRejection> for Rejected {
    fn from(r: noitu::ChainRejection) -> Rejected {
        use noitu::ChainRejection as R;
        let details = match &r {
            R::NotYourTurn { to_move } => json!({ "to_move": to_move.index() }),
            R::TooFewSyllables { found } => json!({ "syllables": found }),
            R::WrongLink { expected, found } => json!({ "expected": expected, "found": found }),
            R::AlreadyUsed { word } => json!({ "word": word }),
            _ => Value::Null,
        };
        Rejected { code: r.code(), message: r.to_string(), details }
    }
}
