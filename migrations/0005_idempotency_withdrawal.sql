-- Idempotency keys bound to their request, withdrawn open games, and clean display names.
-- Expand only: new nullable columns, a widened CHECK; old code keeps working against it.

-- A submit's client_move_id is bound to its request: the hash of (caller, expected move number,
-- move) and the answer the first request got, returned byte for byte to a retry of the same
-- request. Rows written before this migration have neither (a retry of those is answered from
-- the journal, as before).
ALTER TABLE game_moves ADD COLUMN request_hash bytea NULL CHECK (request_hash IS NULL OR octet_length(request_hash) = 32);
ALTER TABLE game_moves ADD COLUMN response text NULL;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_request_has_key CHECK (request_hash IS NULL OR client_move_id IS NOT NULL);

-- An open game its opener withdrew before anyone joined: no result, no loss.
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check CHECK (status IN ('open', 'active', 'finished', 'withdrawn'));

-- Display names are shown to other players: no control characters, never an email address
-- (names taken from a token's email claim before this release become the neutral name).
UPDATE accounts a SET display_name = CASE
        WHEN btrim(c.cleaned) = '' OR c.cleaned ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' THEN 'Player'
        ELSE c.cleaned END
    FROM (SELECT account_id, btrim(regexp_replace(display_name, '[[:cntrl:]]', '', 'g')) AS cleaned FROM accounts WHERE kind = 'human') c
    WHERE a.account_id = c.account_id AND a.display_name IS DISTINCT FROM (CASE
        WHEN btrim(c.cleaned) = '' OR c.cleaned ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' THEN 'Player'
        ELSE c.cleaned END);
