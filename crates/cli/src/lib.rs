//! The native side of hopbench: the command line and the report writer. Everything
//! here reads and writes files, so none of it belongs in the core or the wasm.

pub mod cli;
pub mod report;
