-- Group chains (Nối từ for up to eight seats, issue 59): when a seat loses a life the game
-- itself records the new round's opening as a journal entry of kind 'round' (score 0). Expand
-- only: a wider check; every row written before stays valid.
ALTER TABLE game_moves DROP CONSTRAINT game_moves_kind_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_kind_check
    CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout', 'word', 'out_of_time', 'time_penalty',
                    'challenged_off', 'challenge_bonus', 'challenge_failed', 'challenge_turn_lost', 'accept', 'round'));
