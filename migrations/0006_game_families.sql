-- One schema for every game family: the tile games (Scrabble, Эрудит) and the word chain (Nối từ).
-- Every existing row stays valid and every journal entry stays as written: a tile game is still
-- rebuilt from its seed, seats and no-repeat flag and its entries, exactly as before.
--
-- Expand only (a release's migrations run while the previous release's functions still serve):
-- CHECKs widened under their own names, NOT NULLs relaxed, a nullable column and constraints the
-- old code satisfies. The journal's `tiles` and `words` columns stay for the old code, which
-- still writes them; they are the tile family's copies of facts its entries hold, nothing reads
-- them, and the code from this release on leaves them at their default ('[]'). A contract
-- migration in a later release drops them.

-- Games: the chain's variant and end reasons; the family's setup as data (for the chain, its
-- seed and pinned options with the opening word; NULL for tile games created before it, which
-- are set up from their columns); the no-repeat flag is the tile family's own.
ALTER TABLE games DROP CONSTRAINT games_variant_check;
ALTER TABLE games ADD CONSTRAINT games_variant_check CHECK (variant IN ('scrabble-en', 'scrabble-ru', 'erudit', 'noi-tu'));
ALTER TABLE games DROP CONSTRAINT games_end_reason_check;
ALTER TABLE games ADD CONSTRAINT games_end_reason_check
    CHECK (end_reason IN ('went_out', 'scoreless_turns', 'resigned', 'no_legal_move', 'timeout'));
ALTER TABLE games ADD COLUMN setup json NULL CHECK (setup IS NULL OR json_typeof(setup) = 'object');
ALTER TABLE games ADD CONSTRAINT games_chain_has_setup CHECK (variant <> 'noi-tu' OR setup IS NOT NULL);
ALTER TABLE games ALTER COLUMN no_repeat_words DROP NOT NULL;
ALTER TABLE games ADD CONSTRAINT games_no_repeat_is_tile CHECK ((variant = 'noi-tu') = (no_repeat_words IS NULL));
ALTER TABLE games ADD CONSTRAINT games_chain_has_two_seats CHECK (variant <> 'noi-tu' OR seats = 2);

-- The journal: the entry as its family wrote it, plus what every family has (number, seat, kind,
-- score, the idempotency key, hash and answer).
ALTER TABLE game_moves DROP CONSTRAINT game_moves_kind_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_kind_check CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout', 'word'));
ALTER TABLE game_moves DROP CONSTRAINT game_moves_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_check CHECK (kind IN ('play', 'word') OR score = 0);

-- The draw that decides who moves first serves both families: a tile draw records the tile's
-- letter; the chain's draw of lots records only the rank drawn (no letter, never a blank).
ALTER TABLE game_setup_draws ALTER COLUMN letter DROP NOT NULL;
ALTER TABLE game_setup_draws ADD CONSTRAINT game_setup_draws_letter_or_lot CHECK (letter IS NOT NULL OR NOT is_blank);
