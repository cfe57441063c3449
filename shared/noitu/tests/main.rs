//! The integration tests of `noitu`, one test binary: each module was once a
//! binary of its own (one link and, for those that use it, one private PostgreSQL per binary).

mod common;
mod dictionary;
mod groups;
mod purity;
mod replay;
mod robots;
mod rules;
mod shown;
mod spelling;
