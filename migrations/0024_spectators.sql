-- Spectators (docs/API.md, "Spectators"): who may watch a player's games, and how far behind a
-- tournament's spectators see its live games. Expand only: two columns with defaults.
--
-- `spectating`: `standard` (tournament, lobby and robot games are watchable, invitations and
-- rematches private), `always` (every game) or `never` (none). A game is watchable only while
-- every human seated in it allows it; the service decides it (store::Watch::allowed)
-- each time a spectator reads, so a change of mind applies at once.
ALTER TABLE accounts ADD COLUMN spectating text NOT NULL DEFAULT 'standard'
    CHECK (spectating IN ('standard', 'always', 'never'));
-- The director's delay: spectators of a live game of the tournament see it this many moves
-- behind (0: live); once the game is over, all of it.
ALTER TABLE tournaments ADD COLUMN spectator_delay smallint NOT NULL DEFAULT 0
    CHECK (spectator_delay BETWEEN 0 AND 20);
-- The live-games list: active games, most recently changed first.
CREATE INDEX games_live_idx ON games (updated_at DESC, game_id) WHERE status IN ('active', 'drawing');
