-- The answer kept for a retry of a move (about 4 KB of JSON) was compressed with pglz on every
-- insert; lz4 compresses it several times faster. Expand only: it applies to new rows, rows
-- already written keep pglz, and both read back the same.
ALTER TABLE game_moves ALTER COLUMN response SET COMPRESSION lz4;
