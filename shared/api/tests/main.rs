//! The integration tests of `api`, one test binary: each module was once a
//! binary of its own (one link and, for those that use it, one private PostgreSQL per binary).

mod admin;
mod analysis;
mod automatch;
mod aws_push;
mod chain;
mod challenges;
mod clocks;
mod common;
mod conformance;
mod endgame_hint;
mod errors;
mod games;
mod hints;
mod history;
mod hostile_input;
mod infra;
mod invitations;
mod kept_games;
mod my_games;
mod openapi;
mod proxy_tls;
mod ratings;
mod rematch;
mod request_ids;
mod sessions;
mod spectators;
mod sweep;
mod timed;
mod times;
mod tournament_entry;
mod tournaments;
mod trust;
mod unavailable;
mod websocket;
