//! Which game: the vocabulary's variant ids, and which of the tile engine's variants a tile
//! variant plays.

pub use vocabulary::{Family, UnknownVariant, Variant};

/// The tile engine's variant that `variant` plays, if it is a tile game.
pub(crate) const fn tile_rules(variant: Variant) -> Option<engine::Variant> {
    match variant {
        Variant::ScrabbleEn => Some(engine::Variant::ScrabbleEn),
        Variant::ScrabbleRu => Some(engine::Variant::ScrabbleRu),
        Variant::Erudit => Some(engine::Variant::Erudit),
        Variant::NoiTu => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tile_variant_plays_the_engine_variant_of_its_id() {
        for v in Variant::ALL {
            match tile_rules(v) {
                Some(t) => {
                    assert_eq!(t.id(), v.id());
                    assert_eq!(v.family(), Family::Tile);
                }
                None => assert_eq!((v.id(), v.family()), (noitu::VARIANT, Family::Chain)),
            }
        }
    }
}
