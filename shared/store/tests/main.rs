//! The integration tests of `store`, one test binary: each module was once a
//! binary of its own (one link and, for those that use it, one private PostgreSQL per binary).

mod migration;
mod migration_rules;
mod roles;
mod store;
