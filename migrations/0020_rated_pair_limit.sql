-- Rating farming: rated games between the same two accounts count for a documented number a day
-- (service::rating::RATED_GAMES_PER_PAIR_PER_DAY); a later one asked rated is played casual and
-- says so. `pair_limited` marks such a game (`rated` is then false). Expand only: a column with
-- a default and an index for the count of a pair's recent rated games.
ALTER TABLE games ADD COLUMN pair_limited boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD CONSTRAINT games_pair_limited_casual CHECK (NOT (pair_limited AND rated));
CREATE INDEX games_rated_started_idx ON games (started_at) WHERE rated AND tournament_id IS NULL;
