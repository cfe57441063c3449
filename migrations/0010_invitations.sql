-- Consent before any clock: a game that seats another human starts as an invitation, and the
-- account that sent it is the one who may withdraw it (an invitee declines instead). Expand
-- only: a nullable column, filled for the invitations already waiting.
ALTER TABLE games ADD COLUMN invited_by uuid NULL REFERENCES accounts (account_id);

-- Invitations made before this migration (rematches): the inviter is the one human seat that
-- was never invited, the one who asked for the rematch.
UPDATE games g SET invited_by = (
        SELECT p.account_id FROM game_players p JOIN accounts a ON a.account_id = p.account_id
        WHERE p.game_id = g.game_id AND NOT p.invited AND a.kind = 'human' ORDER BY p.seat LIMIT 1)
    WHERE g.status = 'open' AND EXISTS (SELECT 1 FROM game_players q WHERE q.game_id = g.game_id AND q.invited);

