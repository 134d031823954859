//! The thin `#[wasm_bindgen]` layer between the pure Rust core and the extension.
//!
//! Compiled for wasm32 only (see `lib.rs`), so the core stays testable natively and
//! knows nothing of the browser. Each export lives in [`exports`] and is a few lines:
//! convert arguments, call the core, convert the result or the error.

mod action;
mod agent;
mod console;
mod error;
mod exports;
mod fence;
mod fetch;
mod hops;
mod js;
mod judge;
mod observation;
mod panic_hook;
mod provider;
mod recording;

pub use action::{canonical_action, parse_action};
pub use agent::{agent_feed, agent_start};
pub use error::Thrown;
pub use exports::{core_version, take_last_panic};
pub use fence::{site_fence, site_list_problems};
pub use hops::{
    tracker_answer, tracker_judge_requests, tracker_navigation, tracker_progress, tracker_start,
    tracker_verdict,
};
pub use judge::{judge_containment, judge_outcome, judge_prompt};
pub use observation::{observe, resolve_element};
pub use provider::{model_call, test_connection};
pub use recording::{action_words, compare_runs, demonstration_record, reference_of};

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs once when the JS side calls `init()`: wasm-bindgen calls a `start` function
/// right after instantiation, before any export can be used, so a panic in any later
/// call is already reported.
#[wasm_bindgen(start)]
pub fn on_start() {
    panic_hook::install();
}
