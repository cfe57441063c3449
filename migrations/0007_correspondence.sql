-- Correspondence play: a player's list of games, the sweep of abandoned games, rematches and
-- push connections. Expand only: new columns with defaults, new tables and indexes.

-- "My games" in one indexed query: each seat row carries what the list filters and orders on
-- (its game's status, the game's last activity, whether it is this seat's turn) and the seat's
-- score, kept by every statement that changes the game. Rows the previous release writes
-- during a rollout keep the defaults until their game's next change.
ALTER TABLE game_players ADD COLUMN game_status text NULL
    CHECK (game_status IN ('open', 'active', 'finished', 'withdrawn'));
ALTER TABLE game_players ADD COLUMN last_activity timestamptz NOT NULL DEFAULT now();
ALTER TABLE game_players ADD COLUMN my_turn boolean NOT NULL DEFAULT false;
ALTER TABLE game_players ADD COLUMN score integer NOT NULL DEFAULT 0;
-- A rematch seats the other human at once, invited: the game waits for them to accept (join)
-- or decline.
ALTER TABLE game_players ADD COLUMN invited boolean NOT NULL DEFAULT false;

-- Existing rows: status and activity from their game; the turn by rotation (exact for two
-- seats, the usual game; a multi-seat game with a resigned seat is put right by its next move);
-- the score as the sum of the seat's moves (the end-of-game settlement is not in the journal's
-- columns, so a finished game's listed score may differ from its view's until then).
UPDATE game_players p SET game_status = g.status, last_activity = g.updated_at,
       my_turn = (g.status IN ('open', 'active') AND p.seat = g.move_count % g.seats),
       score = coalesce((SELECT sum(m.score) FROM game_moves m WHERE m.game_id = p.game_id AND m.seat = p.seat), 0)
    FROM games g WHERE g.game_id = p.game_id;

CREATE INDEX game_players_recent_idx ON game_players (account_id, last_activity DESC, game_id DESC);
CREATE INDEX game_players_status_recent_idx ON game_players (account_id, game_status, last_activity DESC, game_id DESC);
CREATE INDEX game_players_my_turn_idx ON game_players (account_id, last_activity DESC, game_id DESC) WHERE my_turn;

-- The sweep: timed games past their deadline (the index covers timed games only, so untimed
-- games' updates stay HOT).
CREATE INDEX games_deadline_idx ON games (turn_deadline) WHERE turn_deadline IS NOT NULL;

-- A rematch names the finished game it follows.
ALTER TABLE games ADD COLUMN rematch_of uuid NULL REFERENCES games (game_id) ON DELETE SET NULL;
CREATE UNIQUE INDEX games_rematch_of_idx ON games (rematch_of) WHERE rematch_of IS NOT NULL;
-- An open game the sweep expires (nobody joined in time) becomes 'withdrawn': no result.

-- Push: a client's WebSocket connection (API Gateway's connection id, or the local server's),
-- whose account is the verified token's, alive until expires_at (the sweep deletes the
-- expired), and the games it subscribed to.
CREATE TABLE push_connections (
    connection_id text        PRIMARY KEY CHECK (char_length(connection_id) BETWEEN 1 AND 128),
    account_id    uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_connections_expiry_idx ON push_connections (expires_at);

CREATE TABLE push_subscriptions (
    connection_id text NOT NULL REFERENCES push_connections (connection_id) ON DELETE CASCADE,
    game_id       uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    PRIMARY KEY (connection_id, game_id)
);
CREATE INDEX push_subscriptions_game_idx ON push_subscriptions (game_id);
