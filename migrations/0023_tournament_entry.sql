-- Tournament entry by consent (docs/API.md, "Tournaments"): a player is in a tournament only if
-- they entered it themselves. A director's registration is an invitation, kept here until the
-- player answers: accepting enters them (a tournament_players row, numbered then), declining
-- leaves them out. Nothing pairs an invitation: pairing reads tournament_players alone, so every
-- player stored before this migration (they were playing) counts as entered. Expand only: a new
-- table.
CREATE TABLE tournament_invitations (
    tournament_id uuid        NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    account_id    uuid        NOT NULL REFERENCES accounts (account_id),
    invited_at    timestamptz NOT NULL,
    -- `invited` until the player answers; `accepted` (they entered) or `declined`.
    state         text        NOT NULL DEFAULT 'invited' CHECK (state IN ('invited', 'accepted', 'declined')),
    answered_at   timestamptz NULL,
    PRIMARY KEY (tournament_id, account_id),
    CHECK ((state = 'invited') = (answered_at IS NULL))
);
-- A player's open invitations, for their list.
CREATE INDEX tournament_invitations_account_idx ON tournament_invitations (account_id) WHERE state = 'invited';
