//! hopbench core: task model, hop-queue evaluator, action language and metrics.
//!
//! Everything here is pure Rust with no browser code, so it is tested natively.
//! The only browser-facing code is the wasm glue in [`glue`], compiled for wasm32 only.

pub mod action;
