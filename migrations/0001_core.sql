-- Accounts, games, seats and the move journal. A game's state is always rebuilt from its seed
-- and its journal; the other columns of games are what queries and the API need without a replay.

CREATE TABLE accounts (
    account_id   uuid        PRIMARY KEY,
    display_name text        NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 64),
    kind         text        NOT NULL CHECK (kind IN ('human', 'robot')),
    robot_level  text        NULL CHECK (robot_level IN ('easy', 'medium', 'hard')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'robot') = (robot_level IS NOT NULL))
);

CREATE TABLE games (
    game_id         uuid        PRIMARY KEY,
    variant         text        NOT NULL CHECK (variant IN ('scrabble-en', 'scrabble-ru', 'erudit')),
    seed            bigint      NOT NULL,
    seats           smallint    NOT NULL CHECK (seats BETWEEN 2 AND 4),
    no_repeat_words boolean     NOT NULL,
    status          text        NOT NULL CHECK (status IN ('open', 'active', 'finished')),
    move_count      integer     NOT NULL DEFAULT 0 CHECK (move_count >= 0),
    turn_seconds    integer     NULL CHECK (turn_seconds BETWEEN 10 AND 2592000),
    turn_deadline   timestamptz NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz NULL,
    end_reason      text        NULL CHECK (end_reason IN ('went_out', 'scoreless_turns', 'resigned')),
    CHECK ((status = 'finished') = (finished_at IS NOT NULL)),
    CHECK ((status = 'finished') = (end_reason IS NOT NULL)),
    CHECK (turn_deadline IS NULL OR turn_seconds IS NOT NULL)
);

CREATE INDEX games_status_idx ON games (status, updated_at);

CREATE TABLE game_players (
    game_id    uuid     NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat       smallint NOT NULL CHECK (seat BETWEEN 0 AND 3),
    account_id uuid     NULL REFERENCES accounts (account_id),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, account_id)
);

CREATE INDEX game_players_account_idx ON game_players (account_id);

-- The journal: one self-contained, dictionary-independent row per applied move. `entry` is the
-- engine's JournalEntry as JSON; the other columns repeat its facts for queries and checks.
CREATE TABLE game_moves (
    game_id        uuid        NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    move_no        integer     NOT NULL CHECK (move_no >= 0),
    seat           smallint    NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind           text        NOT NULL CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout')),
    tiles          jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(tiles) = 'array'),
    words          jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(words) = 'array'),
    score          integer     NOT NULL,
    entry          jsonb       NOT NULL CHECK (jsonb_typeof(entry) = 'object'),
    client_move_id uuid        NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, move_no),
    UNIQUE (game_id, client_move_id),
    CHECK (kind = 'play' OR score = 0),
    CHECK (kind IN ('play', 'exchange') OR tiles = '[]'::jsonb)
);

-- The robots are accounts, so they appear like players.
INSERT INTO accounts (account_id, display_name, kind, robot_level) VALUES
    ('00000000-0000-4000-8000-00000000000e', 'Robot (easy)', 'robot', 'easy'),
    ('00000000-0000-4000-8000-00000000000d', 'Robot (medium)', 'robot', 'medium'),
    ('00000000-0000-4000-8000-00000000000a', 'Robot (hard)', 'robot', 'hard');
