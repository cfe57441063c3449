-- contract: expand 0007, release dc76086
-- game_players_account_idx (account_id) is a prefix of game_players_recent_idx (account_id,
-- last_activity DESC, game_id DESC), added by 0007: every lookup by account alone uses either.
-- Each move rewrites its seat rows (their last activity and turn are indexed, so the updates are
-- not HOT) and adds an entry to every index of game_players; one index fewer is one entry fewer
-- per seat per move. The code since dc76086 (the release of 0007) names no index and needs
-- neither.
DROP INDEX game_players_account_idx;
