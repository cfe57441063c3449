-- Challenge rules (tile games): the rule is pinned in each game's setup JSON (`challenge`,
-- absent = void), so no column is added; the journal gains the challenge's outcomes and the
-- acceptance of a play that went out. Expand only: wider checks.

-- A play challenged off (its points taken back: a score of zero or below), a challenge bonus
-- (above zero), a challenge that cost nothing or the turn, an acceptance (zero).
ALTER TABLE game_moves DROP CONSTRAINT game_moves_kind_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_kind_check
    CHECK (kind IN ('play', 'pass', 'exchange', 'resign', 'timeout', 'word', 'out_of_time', 'time_penalty',
                    'challenged_off', 'challenge_bonus', 'challenge_failed', 'challenge_turn_lost', 'accept'));
ALTER TABLE game_moves DROP CONSTRAINT game_moves_check;
ALTER TABLE game_moves ADD CONSTRAINT game_moves_check
    CHECK (kind IN ('play', 'word')
           OR (kind = 'time_penalty' AND score < 0)
           OR (kind = 'challenged_off' AND score <= 0)
           OR (kind = 'challenge_bonus' AND score > 0)
           OR score = 0);
