//! Idempotency keys bound to their request: a `client_move_id` names one request, by one
//! caller, with one body. Its hash is stored beside the move it made, so a retry of the same
//! request gets the first answer and any other use of the key is refused.

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::Caller;
use crate::requests::SubmitMove;

/// A submit's idempotency key and the hash of the request it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    /// The client's id for the move.
    pub id: Uuid,
    /// [`request_hash`] of the request.
    pub hash: [u8; 32],
}

/// SHA-256 of the caller's account and the request as parsed (`expected_move_no` and the move,
/// written back in one canonical form): the same request hashes the same however its JSON was
/// spaced or its keys ordered; anything that changes its meaning changes the hash.
pub(crate) fn request_hash(caller: &Caller, req: &SubmitMove) -> [u8; 32] {
    let canonical = serde_json::to_vec(&(req.expected_move_no, &req.mv)).expect("a move always serializes");
    let mut hasher = Sha256::new();
    hasher.update(caller.account_id().as_bytes());
    hasher.update((canonical.len() as u64).to_be_bytes());
    hasher.update(&canonical);
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submit(json: &str) -> SubmitMove {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_same_request_hashes_the_same_and_any_change_differs() {
        let ann = Caller::new(Uuid::new_v4(), ["Ann"]).unwrap();
        let bob = Caller::new(Uuid::new_v4(), ["Bob"]).unwrap();
        let a =
            submit(r#"{"expected_move_no":3,"client_move_id":null,"move":{"kind":"play","placements":[{"square":"H8","letter":"A"}]}}"#);
        let spaced =
            submit(r#"{ "move" : {"placements":[{"letter":"A","square":"H8","blank":false}],"kind":"play"}, "expected_move_no": 3 }"#);
        assert_eq!(request_hash(&ann, &a), request_hash(&ann, &spaced));
        assert_ne!(request_hash(&ann, &a), request_hash(&bob, &a), "another caller");
        for other in [
            r#"{"expected_move_no":4,"move":{"kind":"play","placements":[{"square":"H8","letter":"A"}]}}"#,
            r#"{"expected_move_no":3,"move":{"kind":"play","placements":[{"square":"H8","letter":"B"}]}}"#,
            r#"{"expected_move_no":3,"move":{"kind":"pass"}}"#,
            r#"{"expected_move_no":999,"move":{"kind":"resign"}}"#,
        ] {
            assert_ne!(request_hash(&ann, &a), request_hash(&ann, &submit(other)), "{other}");
        }
    }
}
