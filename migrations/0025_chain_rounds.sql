-- Group chains (Nối từ for 2 to 8 seats, issue 59). When a seat loses a life the game itself
-- records the new round's opening as a journal entry of kind 'round' (score 0). Expand only:
-- each check replaced under its own name by a wider one, and the variant's row names its
-- seats; every row written before stays valid (code from before this migration replays only
-- two-seat chain games, all there were).
ALTER TABLE game_moves DROP CONSTRAINT game_moves_kind_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_kind_check
    CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout', 'word', 'out_of_time', 'time_penalty',
                    'challenged_off', 'challenge_bonus', 'challenge_failed', 'challenge_turn_lost', 'accept', 'round'));
-- A chain game has 2 to 8 seats, a tile game 2 to 4.
ALTER TABLE games DROP CONSTRAINT games_seats_check;
ALTER TABLE games ADD CONSTRAINT games_seats_check CHECK (seats BETWEEN 2 AND 8);
ALTER TABLE games DROP CONSTRAINT games_chain_has_two_seats;
ALTER TABLE games ADD CONSTRAINT games_chain_has_two_seats
    CHECK (CASE WHEN variant = 'noi-tu' THEN seats BETWEEN 2 AND 8 ELSE seats BETWEEN 2 AND 4 END);
ALTER TABLE game_players DROP CONSTRAINT game_players_seat_check;
ALTER TABLE game_players ADD CONSTRAINT game_players_seat_check CHECK (seat BETWEEN 0 AND 7);
ALTER TABLE game_moves DROP CONSTRAINT game_moves_seat_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_seat_check CHECK (seat BETWEEN 0 AND 7);
UPDATE variants SET max_seats = 8 WHERE variant = 'noi-tu';
