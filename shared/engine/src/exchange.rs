//! Exchanges: the distinct multisets of rack tiles a player may return to the bag.

use crate::rack::Rack;
use crate::tile::RackTile;
use crate::variant::Rules;

/// Every distinct non-empty multiset of rack tiles that may be exchanged with `bag` tiles left.
pub fn exchanges(rules: &Rules, rack: &Rack, bag: usize) -> Vec<Rack> {
    let mut out = exchanges_all(rack);
    out.retain(|r| rules.exchange_allowed(r.len(), bag));
    out
}

/// Every distinct non-empty sub-multiset of `rack`.
pub(crate) fn exchanges_all(rack: &Rack) -> Vec<Rack> {
    let kinds: Vec<(RackTile, usize)> = {
        let mut seen: Vec<(RackTile, usize)> = Vec::new();
        for t in rack.tiles() {
            match seen.last_mut() {
                Some((k, n)) if *k == t => *n += 1,
                _ => seen.push((t, 1)),
            }
        }
        seen
    };
    let mut out = vec![Rack::new()];
    for (tile, n) in kinds {
        let mut next = Vec::with_capacity(out.len() * (n + 1));
        for r in &out {
            for k in 0..=n {
                let mut r = *r;
                for _ in 0..k {
                    r.add(tile);
                }
                next.push(r);
            }
        }
        out = next;
    }
    out.retain(|r| !r.is_empty());
    out
}
