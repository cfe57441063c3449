-- Every move rewrites its game's row (move_count, status, turn_deadline, updated_at). When no
-- index covers a changed column and the row's page has room, PostgreSQL updates it in place (a
-- HOT update: no new index entries, less WAL, no index bloat). The status index covered
-- updated_at, which changes with every move, and no query used it: the lobby's index now covers
-- open games only, and pages keep a fifth of their space free for the new row versions.
DROP INDEX games_status_idx;
CREATE INDEX games_open_idx ON games (created_at, game_id) WHERE status = 'open';
ALTER TABLE games SET (fillfactor = 80);
