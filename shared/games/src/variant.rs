//! Which game: the vocabulary's variant ids, and which of the tile engine's variants a tile
//! variant plays.

pub use vocabulary::{Family, UnknownVariant, Variant};

/// The tile engine's variant that `variant` plays, if it is a tile game: the one with its id.
pub(crate) fn tile_rules(variant: Variant) -> Option<engine::TileVariant> {
    if variant.family() != Family::TILE {
        return None;
    }
    engine::TileVariant::ALL.into_iter().find(|t| t.id() == variant.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tile_variant_plays_the_engine_variant_of_its_id() {
        for v in Variant::SHIPPED {
            match tile_rules(v) {
                Some(t) => {
                    assert_eq!(t.id(), v.id());
                    assert_eq!(v.family(), Family::TILE);
                }
                None => assert_eq!((v.id(), v.family()), (noitu::VARIANT, Family::CHAIN)),
            }
        }
    }
}
