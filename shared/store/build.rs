//! `sqlx::migrate!` embeds `migrations/` at compile time, and cargo does not watch that folder on
//! its own: without this, a new migration would not reach a build whose sources did not change.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
