-- Hints are rationed (docs/API.md, "Hint"): a game pins how many hints each seat may take
-- (`hints_allowed`, 0-20; NULL: as many as it likes, which is what every game created before
-- this played with), and each seat counts the hints it took (`hints_used`). The service decides
-- the allowance once, at creation (service::hints::allowance); a hint's write is one guarded
-- statement, so two requests cannot both take a seat's last one. Expand only: a nullable column
-- and a column with a default, and CHECKs every existing row satisfies.
ALTER TABLE games ADD COLUMN hints_allowed smallint;
ALTER TABLE games ADD CONSTRAINT games_hints_allowed_range CHECK (hints_allowed BETWEEN 0 AND 20);
ALTER TABLE game_players ADD COLUMN hints_used smallint NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD CONSTRAINT game_players_hints_used_count CHECK (hints_used >= 0);
