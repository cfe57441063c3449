-- The journal entry is written once and read back whole on every request: keep it as the JSON
-- text it was written as (`json`), which PostgreSQL stores and aggregates without re-encoding.
-- The columns queries filter on (kind, tiles, words, score) stay as they are.
ALTER TABLE game_moves DROP CONSTRAINT game_moves_entry_check;
ALTER TABLE game_moves ALTER COLUMN entry TYPE json USING entry::json;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_entry_check CHECK (json_typeof(entry) = 'object');
