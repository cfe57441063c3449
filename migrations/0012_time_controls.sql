-- Time controls: each game's control pinned when it is created, the moment its clock started,
-- and each move's commit time by the service's clock; a seat's remaining time is computed from
-- them, never stored. Expand only: new nullable columns, wider checks.

-- The control as JSON ({"kind": "none" | "correspondence" | "realtime", ...}); NULL for games
-- created before controls, which read as correspondence with no bank when `turn_seconds` is set
-- and untimed otherwise (what they were). `turn_seconds` stays written for the previous release.
ALTER TABLE games ADD COLUMN time_control jsonb NULL
    CHECK (time_control IS NULL OR (jsonb_typeof(time_control) = 'object' AND time_control ? 'kind'));
-- A deadline needed a turn limit; now a real-time clock or the chain's turn timer sets one too.
-- The old check was named by PostgreSQL; it is found by what it says.
DO $$
DECLARE c text;
BEGIN
    FOR c IN SELECT conname FROM pg_constraint
             WHERE conrelid = 'games'::regclass AND contype = 'c'
               AND pg_get_constraintdef(oid) LIKE '%turn_deadline IS NULL%turn_seconds IS NOT NULL%'
    LOOP
        EXECUTE format('ALTER TABLE games DROP CONSTRAINT %I', c);
    END LOOP;
END $$;
ALTER TABLE games ADD CONSTRAINT games_deadline_timed
    CHECK (turn_deadline IS NULL OR turn_seconds IS NOT NULL OR time_control IS NOT NULL);
-- When the game became active (its clock started): the last player joined or accepted.
ALTER TABLE games ADD COLUMN started_at timestamptz NULL;
-- When each move was committed, by the service's clock (a robot's move: after its real decision
-- time). NULL for moves written before.
ALTER TABLE game_moves ADD COLUMN played_at timestamptz NULL;

-- A real-time tile game lost on time, and the overtime penalty after the end (negative points).
ALTER TABLE game_moves DROP CONSTRAINT game_moves_kind_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_kind_check
    CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout', 'word', 'out_of_time', 'time_penalty'));
ALTER TABLE game_moves DROP CONSTRAINT game_moves_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_check
    CHECK (kind IN ('play', 'word') OR (kind = 'time_penalty' AND score < 0) OR score = 0);

-- The lobby filters open games by their control's kind; the sweep expires real-time open games
-- sooner. Both read open games only, which are few: the partial index on open games serves them.
