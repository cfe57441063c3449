//! The integration tests of `lab`, one test binary.

mod leaves_cli;
