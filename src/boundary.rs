//! The shapes the wasm glue hands to JavaScript, defined here (not in the glue) so the
//! core's `ts` feature can derive TypeScript declarations for them and for everything
//! they hold. `hopbench types` writes those declarations to `pkg/core-types.d.ts`; the
//! worker's JSDoc imports them, so a renamed field here fails `tsc` (issue 14).
//!
//! The states (`state` fields) are opaque JSON text to JavaScript: the worker stores
//! them and passes them back unread.

use serde::Serialize;

use crate::agent::Command;
use crate::evaluator::{Outcome, Progress};
use crate::memory::MemoryPolicy;
use crate::observation::{IdRegistry, Observation};
use crate::tracker::TaskSummary;

/// `agent_feed` → the new state, the commands to carry out, and why an event changed
/// nothing (stale, duplicate, after the end), `null` otherwise.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentStepped<'a> {
    pub state: String,
    pub commands: &'a [Command],
    pub ignored: Option<String>,
}

/// What `agent_start` says of memory: the settings and the task ids the prompt shows.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MemoryShown<'a> {
    pub k: u32,
    pub policy: MemoryPolicy,
    pub tasks: &'a [String],
}

/// `agent_start` → as `agent_feed`, plus what memory the run was given.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentStarted<'a> {
    #[serde(flatten)]
    pub stepped: AgentStepped<'a>,
    pub memory: MemoryShown<'a>,
}

/// `tracker_start` → the session's tracker state, its task and the empty hop queue.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TrackerStarted<'a> {
    pub state: String,
    pub task: &'a TaskSummary,
    pub progress: Progress,
}

/// `tracker_navigation` / `tracker_answer` → the new state, what the event did to the
/// hop queue, and the queue after it.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TrackerFed {
    pub state: String,
    pub outcome: Outcome,
    pub progress: Progress,
}

/// `observe` → the observation and the updated ids, which the worker stores and passes
/// to the next call (opaque to it).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ObserveResult<'a> {
    #[serde(flatten)]
    pub observation: &'a Observation,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub registry: &'a IdRegistry,
}
