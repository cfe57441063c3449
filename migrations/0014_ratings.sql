-- Ratings: a game may be rated (two humans only, chosen when it is created or opened); each
-- account has a Glicko-2 rating per variant and speed, updated in the transaction that records a
-- rated game's end, with a row per player and game saying what it was and became (its primary
-- key applies a game's change once). Expand only: a new column with a default, new tables.
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;

CREATE TABLE ratings (
    account_id uuid             NOT NULL REFERENCES accounts (account_id),
    variant    text             NOT NULL CHECK (variant IN ('scrabble-en', 'scrabble-ru', 'erudit', 'noi-tu')),
    speed      text             NOT NULL CHECK (speed IN ('realtime', 'correspondence')),
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL CHECK (deviation > 0 AND deviation <= 350),
    volatility double precision NOT NULL CHECK (volatility > 0),
    games      integer          NOT NULL CHECK (games >= 0),
    rated_at   timestamptz      NOT NULL,
    PRIMARY KEY (account_id, variant, speed)
);
-- The leaderboard: established players (deviation under the provisional bound of 110) of a
-- variant and speed, best first, paged by (rating, account).
CREATE INDEX ratings_leaderboard_idx ON ratings (variant, speed, rating DESC, account_id) WHERE deviation < 110;

CREATE TABLE rating_changes (
    game_id          uuid             NOT NULL REFERENCES games (game_id),
    account_id       uuid             NOT NULL REFERENCES accounts (account_id),
    variant          text             NOT NULL,
    speed            text             NOT NULL,
    rating_before    double precision NOT NULL,
    deviation_before double precision NOT NULL,
    rating_after     double precision NOT NULL,
    deviation_after  double precision NOT NULL,
    rated_at         timestamptz      NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
-- An account's recent history.
CREATE INDEX rating_changes_account_idx ON rating_changes (account_id, rated_at DESC);
