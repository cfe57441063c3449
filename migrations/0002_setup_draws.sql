-- The official first-move draw, one row per tile drawn, recorded with every new game. Self-contained
-- and dictionary-independent: the decoded letter, the blank flag and the rank. A placeholder
-- opponent's rows (auto-match) have a NULL account until someone takes the seat. Games created
-- before this migration have no rows.
CREATE TABLE game_setup_draws (
    game_id    uuid        NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    round      smallint    NOT NULL CHECK (round >= 1),
    pick_no    smallint    NOT NULL CHECK (pick_no BETWEEN 1 AND 4),
    account_id uuid        NULL REFERENCES accounts (account_id),
    letter     text        NOT NULL CHECK (char_length(letter) = 1),
    is_blank   boolean     NOT NULL DEFAULT false,
    rank       smallint    NOT NULL CHECK (rank >= -1),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, round, pick_no),
    CHECK (is_blank = (rank = -1))
);
