//! Scripted runs of the machine with a fake browser and a fake model.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod endings;
mod harness;
mod http_agent;
mod judging;
mod memory;
mod modular;
mod replay;
mod resume;
mod runs;
mod shapes;
