//! Our task format: what a multihop task asks and how each hop is judged.
//!
//! The JSON Schema is `schema/task.schema.json`; README's "Task format" explains it.

mod load;
mod overview;
mod reference;
#[cfg(feature = "schema")]
mod schema;
mod validate;

#[cfg(test)]
mod tests;

pub(crate) use load::read_json;
pub use load::{parse_task, TaskError};
pub use overview::{overview_from_text, Site, TaskOverview};
pub use reference::{ElementTarget, ReferenceError, ReferenceStep};
#[cfg(feature = "schema")]
pub use schema::task_schema;
#[cfg(feature = "schema")]
pub(crate) use schema::unwrap_descriptions as unwrap_schema_descriptions;

use crate::condition::{AnswerCondition, Condition};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
/// One multihop web task: what to do, where to start, and the ordered hop conditions
/// that score it.
pub struct Task {
    /// Optional pointer to the JSON Schema, so editors can validate task files.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Unique within a suite; results' file names are made from it.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub id: String,
    /// The whole instruction given to the agent or person.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub intent: String,
    /// Opened one tab each, the first focused.
    #[cfg_attr(
        feature = "schema",
        schemars(length(min = 1), inner(pattern(r"^[Hh][Tt][Tt][Pp][Ss]?://[^/]")))
    )]
    pub start_urls: Vec<String>,
    /// Websites the intent points to (MMInA lists these inside the intent text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_sites: Vec<ReferenceSite>,
    /// Completed strictly in order; the task passes when every hop is done (and a
    /// required final answer passes).
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub hops: Vec<Hop>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// A check on the answer given at the end.
    pub final_answer: Option<FinalAnswer>,
    /// The actions a person would take to solve the task, in the action language with
    /// each element written as `{role 'name'}` instead of an `[id]` (ids are only known
    /// once a page is observed). The replay agent follows it; bundled tasks carry one so
    /// tests prove every task solvable. E.g. `click {link 'Tokyo'}`,
    /// `type {searchbox 'Search'} [Tokyo] [1]`, `stop [42]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(inner(length(min = 1))))]
    pub reference_trajectory: Vec<String>,
    /// Other valid ways through the task (e.g. people's demonstrations), written like
    /// `reference_trajectory`. Stage diagnosis accepts their steps as correct too
    /// (scores "with alternatives"); replay follows the reference only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(inner(inner(length(min = 1)))))]
    pub alternative_trajectories: Vec<Vec<String>>,
    /// Where the task came from and how it was mapped, when imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<TaskSource>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReferenceSite {
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub label: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Hop {
    /// Shown in progress displays; derived from the condition when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub condition: Condition,
    /// The event that completes this hop is then checked against the next hop too.
    /// Off by default, so one page never counts for two hops; MMInA's Wikipedia hop
    /// sets it because that hop is completed by arriving at the next hop's site.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pass_event_on: bool,
}

impl Hop {
    /// A hop whose completing event is not passed on (the usual case).
    pub fn new(description: Option<String>, condition: Condition) -> Self {
        Hop {
            description,
            condition,
            pass_event_on: false,
        }
    }

    pub fn label(&self) -> String {
        self.description
            .clone()
            .unwrap_or_else(|| self.condition.describe())
    }
}

/// A check on the answer given at the end, scored alongside the hop queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FinalAnswer {
    pub condition: AnswerCondition,
    /// Whether a PASS also needs this check to pass. MMInA multihop imports set it
    /// false: the paper scores those by the hop queue and reports the answer beside it.
    #[serde(default = "yes")]
    pub required: bool,
}

fn yes() -> bool {
    true
}

/// Provenance of an imported task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TaskSource {
    /// `hopbench`, `mmina` or `webarena`.
    #[cfg_attr(feature = "schema", schemars(extend("enum" = ["hopbench", "mmina", "webarena"])))]
    pub format: String,
    /// The file the task was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Mapping decisions worth knowing when reading results (e.g. a dropped locator).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}
