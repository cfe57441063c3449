-- Tournaments: a director's rounds of paired tile games, with standings by wins then spread. A
-- tournament game starts `drawing`: its players draw the official first-move tiles one call at a
-- time (each pick a row of game_setup_draws, as every draw is recorded) until a leader emerges,
-- then it becomes active with the leader at seat 0. Expand only: new tables, new nullable
-- columns, widened CHECKs; old code keeps working against it (it never sees a drawing game).

CREATE TABLE tournaments (
    tournament_id    uuid        PRIMARY KEY,
    name             text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
    variant          text        NOT NULL CHECK (variant IN ('scrabble-en', 'scrabble-ru', 'erudit')),
    time_control     jsonb       NOT NULL CHECK (jsonb_typeof(time_control) = 'object'),
    challenge_rule   text        NOT NULL CHECK (challenge_rule IN ('void', 'single', 'double', 'five_point', 'ten_point')),
    rated            boolean     NOT NULL,
    pairing          text        NOT NULL CHECK (pairing IN ('round_robin', 'swiss')),
    king_of_the_hill boolean     NOT NULL,
    rounds           smallint    NOT NULL CHECK (rounds BETWEEN 1 AND 40),
    draw_seconds     integer     NOT NULL CHECK (draw_seconds BETWEEN 30 AND 604800),
    status           text        NOT NULL CHECK (status IN ('registering', 'running', 'closed')),
    -- The latest round paired (0: none yet) and whether its games were created.
    round            smallint    NOT NULL DEFAULT 0 CHECK (round >= 0 AND round <= rounds),
    round_started    boolean     NOT NULL DEFAULT false,
    director_id      uuid        NOT NULL REFERENCES accounts (account_id),
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    CHECK (round > 0 OR NOT round_started),
    CHECK (status <> 'registering' OR round = 0)
);
CREATE INDEX tournaments_recent_idx ON tournaments (created_at DESC, tournament_id DESC);

-- Players, numbered from 1 in registration order (the standard tournament software numbers them
-- so); the rating is the seed taken at registration.
CREATE TABLE tournament_players (
    tournament_id uuid        NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    player_no     smallint    NOT NULL CHECK (player_no BETWEEN 1 AND 999),
    account_id    uuid        NOT NULL REFERENCES accounts (account_id),
    rating        integer     NOT NULL,
    withdrawn     boolean     NOT NULL DEFAULT false,
    registered_at timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, player_no),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX tournament_players_account_idx ON tournament_players (account_id);

-- Each round's pairings: a bye has no second player; a game once the round starts; a forfeit the
-- director recorded (which side forfeits). A played game's result is its game's.
CREATE TABLE tournament_pairings (
    tournament_id uuid     NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round         smallint NOT NULL CHECK (round >= 1),
    table_no      smallint NOT NULL CHECK (table_no >= 1),
    first_no      smallint NOT NULL,
    second_no     smallint NULL,
    game_id       uuid     NULL UNIQUE REFERENCES games (game_id),
    forfeit       text     NULL CHECK (forfeit IN ('first', 'second', 'both')),
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, first_no) REFERENCES tournament_players (tournament_id, player_no),
    FOREIGN KEY (tournament_id, second_no) REFERENCES tournament_players (tournament_id, player_no),
    CHECK (second_no IS NULL OR second_no <> first_no),
    CHECK (second_no IS NOT NULL OR (game_id IS NULL AND forfeit IS NULL))
);

ALTER TABLE games ADD COLUMN tournament_id uuid NULL REFERENCES tournaments (tournament_id);
ALTER TABLE games ADD COLUMN draw_deadline timestamptz NULL;
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check CHECK (status IN ('open', 'active', 'finished', 'withdrawn', 'drawing'));
ALTER TABLE games ADD CONSTRAINT games_drawing_has_deadline CHECK (status <> 'drawing' OR draw_deadline IS NOT NULL);
-- The sweep's default draw: drawing games past their deadline.
CREATE INDEX games_draw_deadline_idx ON games (draw_deadline) WHERE status = 'drawing';
ALTER TABLE game_players DROP CONSTRAINT game_players_game_status_check;
ALTER TABLE game_players ADD CONSTRAINT game_players_game_status_check
    CHECK (game_status IN ('open', 'active', 'finished', 'withdrawn', 'drawing'));

-- A manual pick's idempotency key and request digest (a retry answers as the first call did),
-- and who drew it when not the player: the director, or nobody (the server's default draw).
ALTER TABLE game_setup_draws ADD COLUMN client_draw_id uuid NULL;
ALTER TABLE game_setup_draws ADD COLUMN request_hash bytea NULL CHECK (request_hash IS NULL OR octet_length(request_hash) = 32);
ALTER TABLE game_setup_draws ADD COLUMN drawn_by text NULL CHECK (drawn_by IN ('player', 'director', 'server'));
ALTER TABLE game_setup_draws ADD CONSTRAINT game_setup_draws_client_draw_id UNIQUE (game_id, client_draw_id);
