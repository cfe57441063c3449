-- Post-game analyses: computed once for a finished game (on its first request), then read from
-- here. `analysis` is the service's answer as JSON; `version` names how it was computed (the
-- analysis budget), so a later change of method can tell old rows apart. Expand only: a new table.
CREATE TABLE game_analyses (
    game_id     uuid        PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    version     integer     NOT NULL CHECK (version >= 1),
    analysis    jsonb       NOT NULL CHECK (jsonb_typeof(analysis) = 'object'),
    computed_ms integer     NOT NULL CHECK (computed_ms >= 0),
    created_at  timestamptz NOT NULL
);
