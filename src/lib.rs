//! hopbench core: task model, hop-queue evaluator, action language and metrics.
//!
//! Everything here is pure Rust with no browser code and no file or network I/O, so it
//! builds unchanged for wasm32 and natively and is tested natively. The browser-facing
//! glue is `crates/wasm`; the command line, report writer and sandbox web are their own
//! crates (`crates/cli`, `crates/sandbox`).

pub mod action;
pub mod agent;
pub mod agent_protocol;
pub mod boundary;
pub mod condition;
pub mod diagnosis;
pub mod evaluator;
pub mod event;
pub mod fence;
pub mod import;
mod json_path;
pub mod json_read;
pub mod judge;
pub mod memory;
pub mod metrics;
pub mod model;
pub mod observation;
pub mod provider;
mod serde_flat;
pub mod task;
pub mod terms;
mod tokens;
pub mod tracker;
/// TypeScript declarations of the glue's values (`hopbench types`); native tools only.
#[cfg(feature = "ts")]
pub mod typescript;
mod variants;

/// The core's name and version ("hopbench 0.1.0"), as the extension and reports show it.
pub const NAME_AND_VERSION: &str = concat!(env!("CARGO_PKG_NAME"), " ", env!("CARGO_PKG_VERSION"));
