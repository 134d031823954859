//! hopbench core: task model, hop-queue evaluator, action language and metrics.
//!
//! Everything here is pure Rust with no browser code, so it is tested natively.
//! The only browser-facing code is the wasm glue in `glue`, compiled for wasm32 only.

pub mod action;
pub mod agent;
// The CLI and the report read and write files: the native binary's, not the extension's.
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod condition;
pub mod diagnosis;
pub mod evaluator;
pub mod event;
pub mod fence;
pub mod import;
pub mod judge;
pub mod memory;
pub mod metrics;
pub mod model;
pub mod observation;
pub mod provider;
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(not(target_arch = "wasm32"))]
pub mod sandbox;
pub mod task;
pub mod tracker;

#[cfg(target_arch = "wasm32")]
pub mod glue;
