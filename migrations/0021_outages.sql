-- Time when the service could not take a move is not the players' (docs/API.md, "Clocks"):
-- each interval the service knows it was unavailable, recorded once it is available again. A
-- `refused` outage runs from the arrival of the first request a process answered `503
-- unavailable` to the first write that succeeded after it; a `gateway_down` one from the local
-- gateway's last heartbeat to its next start. Every running clock stands still inside them.
-- Expand only: new tables.
CREATE TABLE outages (
    outage_id  bigserial   PRIMARY KEY,
    started_at timestamptz NOT NULL,
    ended_at   timestamptz NOT NULL,
    source     text        NOT NULL CHECK (source IN ('refused', 'gateway_down')),
    CHECK (ended_at > started_at)
);
CREATE INDEX outages_ended_idx ON outages (ended_at);

-- A process's proof of life: the local gateway writes its row every second, so its next start
-- knows since when it was down.
CREATE TABLE heartbeats (
    name text        PRIMARY KEY,
    at   timestamptz NOT NULL
);
