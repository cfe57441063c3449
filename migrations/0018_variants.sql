-- Variants as data: a row per variant the service plays, naming its family and seats, which the
-- games and ratings reference instead of listing variant ids in CHECKs. A new family's variants
-- are rows a migration inserts; no constraint names them. Expand only: a new table, and CHECKs
-- replaced under their own names by constraints every existing row and the old code satisfy
-- (the same four variants; the no-repeat flag still required of exactly the three tile games).
CREATE TABLE variants (
    variant   text     PRIMARY KEY,
    family    text     NOT NULL,
    min_seats smallint NOT NULL CHECK (min_seats >= 1),
    max_seats smallint NOT NULL CHECK (max_seats >= min_seats)
);
INSERT INTO variants (variant, family, min_seats, max_seats) VALUES
    ('scrabble-en', 'tile', 2, 4),
    ('scrabble-ru', 'tile', 2, 4),
    ('erudit', 'tile', 2, 4),
    ('noi-tu', 'chain', 2, 2);

ALTER TABLE games DROP CONSTRAINT games_variant_check;
ALTER TABLE games ADD CONSTRAINT games_variant_check FOREIGN KEY (variant) REFERENCES variants (variant);
ALTER TABLE games DROP CONSTRAINT games_no_repeat_is_tile;
ALTER TABLE games ADD CONSTRAINT games_no_repeat_is_tile
    CHECK ((variant IN ('scrabble-en', 'scrabble-ru', 'erudit')) = (no_repeat_words IS NOT NULL));
ALTER TABLE ratings DROP CONSTRAINT ratings_variant_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_variant_check FOREIGN KEY (variant) REFERENCES variants (variant);
