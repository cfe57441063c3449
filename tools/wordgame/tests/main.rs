//! The integration tests of `wordgame`, one test binary: each module was once a
//! binary of its own (one link and, for those that use it, one private PostgreSQL per binary).

mod browser;
mod chaos;
mod cli;
mod common;
mod data_leaves;
mod docs;
mod journals;
mod ladder_cli;
mod modules;
mod push;
mod robot_cli;
mod serve;
mod webapp;
