//! The integration tests of `engine`, one test binary: each module was once a
//! binary of its own (one link and, for those that use it, one private PostgreSQL per binary).

mod challenges;
mod common;
mod endgame;
mod game;
mod gcg;
mod golden;
mod manifest;
mod movegen;
mod norepeat;
mod properties;
mod recorded;
mod rejections;
mod robots;
mod scoring;
mod timeline;
mod wordlists;
