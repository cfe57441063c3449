-- The winning seats of a finished game, as its family's outcome names them (more than one on a
-- tie), written in the statement that records the end. Every reader of a result outside the
-- game itself (tournament standings and the .t export, my games) reads this column, so none of
-- them judges a result again from scores or move kinds. NULL while unfinished, and for games
-- finished before this migration (or by the previous release during a deploy) until the service
-- rescores them from their journal by the same rule (service::results). Expand only: a nullable
-- column and a constraint every existing row satisfies.
ALTER TABLE games ADD COLUMN winners smallint[] NULL;
ALTER TABLE games ADD CONSTRAINT games_winners_finished CHECK (winners IS NULL OR status = 'finished');
-- The games still to rescore: few once rescored, so the lookups by the sweep and by a
-- tournament's reads stay cheap.
CREATE INDEX games_unscored_idx ON games (finished_at, game_id) WHERE status = 'finished' AND winners IS NULL;
