-- Admin tokens refused before their expiry: a signed-out admin session (by a digest of its token,
-- never the token) and a local one-time sign-in code already redeemed (by its jti), each kept
-- until the token itself expires, so a restart forgets neither. Expand only: a new table.
CREATE TABLE spent_admin_tokens (
    kind       text        NOT NULL CHECK (kind IN ('session', 'signin_code')),
    token_id   text        NOT NULL CHECK (char_length(token_id) BETWEEN 1 AND 128),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (kind, token_id)
);
-- Each new row deletes the expired ones.
CREATE INDEX spent_admin_tokens_expiry_idx ON spent_admin_tokens (expires_at);

-- At most a few push connections per account at once (the cap is counted under a lock on the
-- account's row): the account's connections, on their own index.
CREATE INDEX push_connections_account_idx ON push_connections (account_id, expires_at);
