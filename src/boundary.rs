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

/// What an error thrown by a core export is about: its `kind` property, beside the
/// message for people, so JavaScript can tell errors apart without reading their words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum CoreErrorKind {
    /// The task file cannot be read or used (its format, a missing start URL, replay
    /// without a reference trajectory).
    Task,
    /// Settings that cannot work: the agent's, the memory pool, the site lists.
    Config,
    /// A state the core wrote earlier (an agent run, a hop tracker, an id registry)
    /// cannot be read back: start the run or session again.
    State,
    /// A value the caller passed is not what the export takes (an event, a verdict,
    /// judgements, recorded steps, observation input).
    Input,
    /// An action text that does not parse.
    Action,
    /// No element has that id in the tab's last observation.
    Element,
    /// The core's own result could not cross to JavaScript (a bug).
    Internal,
}

crate::variants::every_variant!(CoreErrorKind {
    Task,
    Config,
    State,
    Input,
    Action,
    Element,
    Internal,
});

impl CoreErrorKind {
    /// The name JavaScript reads in `error.kind`.
    pub fn name(self) -> &'static str {
        match self {
            CoreErrorKind::Task => "task",
            CoreErrorKind::Config => "config",
            CoreErrorKind::State => "state",
            CoreErrorKind::Input => "input",
            CoreErrorKind::Action => "action",
            CoreErrorKind::Element => "element",
            CoreErrorKind::Internal => "internal",
        }
    }
}

impl crate::agent::AgentError {
    /// What the error is about, for the `kind` JavaScript reads.
    pub fn kind(&self) -> CoreErrorKind {
        use crate::agent::AgentError;
        match self {
            AgentError::Import(_) | AgentError::NoReferenceTrajectory { .. } => CoreErrorKind::Task,
            AgentError::Config(_) => CoreErrorKind::Config,
            AgentError::State(_) => CoreErrorKind::State,
            AgentError::Event(_) => CoreErrorKind::Input,
        }
    }
}

impl crate::tracker::TrackerError {
    /// What the error is about, for the `kind` JavaScript reads.
    pub fn kind(&self) -> CoreErrorKind {
        use crate::tracker::TrackerError;
        match self {
            TrackerError::Import(_) | TrackerError::NoStartUrl => CoreErrorKind::Task,
            TrackerError::State(_) => CoreErrorKind::State,
            // The judgements given with an answer do not cover its questions.
            TrackerError::Judge(_) => CoreErrorKind::Input,
        }
    }
}

impl crate::observation::RegistryError {
    /// What the error is about, for the `kind` JavaScript reads.
    pub fn kind(&self) -> CoreErrorKind {
        use crate::observation::RegistryError;
        match self {
            RegistryError::UnknownId(_) => CoreErrorKind::Element,
            RegistryError::BadJson(_) => CoreErrorKind::State,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CoreErrorKind;
    use crate::terms::name_of;

    #[test]
    fn kinds_are_named_as_serde_writes_them() {
        for kind in CoreErrorKind::ALL {
            assert_eq!(kind.name(), name_of(kind));
        }
    }
}
