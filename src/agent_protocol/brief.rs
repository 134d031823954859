//! The parts of a step request made from the task and the run so far.

use serde::{Deserialize, Serialize};

use crate::task::Task;

/// The task as the agent may know it: what a person reads before starting, never the
/// conditions that score it, the reference answers or the reference trajectory.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TaskBrief {
    pub id: String,
    /// The whole instruction, as a person reads it.
    pub intent: String,
    /// The URLs the run opened, one tab each, the first focused.
    pub start_urls: Vec<String>,
    /// The websites the intent points to.
    pub sites: Vec<SiteBrief>,
    /// One entry per hop, in order, with the description the task file gives it (null
    /// when it gives none: a description made up from the condition would tell it).
    pub hops: Vec<HopBrief>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SiteBrief {
    pub label: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HopBrief {
    pub description: Option<String>,
}

impl TaskBrief {
    pub fn of(task: &Task) -> Self {
        TaskBrief {
            id: task.id.clone(),
            intent: task.intent.clone(),
            start_urls: task.start_urls.clone(),
            sites: task
                .reference_sites
                .iter()
                .map(|s| SiteBrief {
                    label: s.label.clone(),
                    url: s.url.clone(),
                })
                .collect(),
            hops: task
                .hops
                .iter()
                .map(|h| HopBrief {
                    description: h.description.clone(),
                })
                .collect(),
        }
    }
}

/// One tab of the session, as the observation's tabs line names it. The worker sends
/// these with each observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TabBrief {
    pub title: String,
    /// Whether this is the tab being observed.
    pub current: bool,
}

/// A recorded step, as the next requests tell it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PastStep {
    pub step: u32,
    /// The URL the step observed.
    pub url: String,
    /// The action carried out (canonical spelling), or null when the step did nothing.
    pub action: Option<String>,
    /// Why the action failed in the browser, when it did.
    pub error: Option<String>,
    /// Why the step did nothing, when it did nothing (e.g. an action that could not be
    /// read, a call that failed).
    pub note: Option<String>,
}
