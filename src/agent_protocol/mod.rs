//! The agent protocol: a person's own agent (their code, in any language) takes part in
//! a run over HTTP. Each step the extension POSTs one [`StepRequest`] (the task without
//! its conditions or answers, the observation as data, the history); the agent answers
//! with a [`StepReply`] holding one action in the action language. A [`HelloRequest`]
//! (Test connection, and the runner's check before a batch) is answered with the
//! agent's name and version, which reports show as they show a model's.
//!
//! The request travels as the `agent` field of a [`crate::model::ModelRequest`], so the
//! model transport (tries, timeouts, error kinds, the key) carries it unchanged; the
//! provider module `provider/agent_http.rs` sends it and reads the reply. The contract
//! is `docs/agent-protocol.md`; its JSON Schema (`schema/agent-protocol.schema.json`)
//! is generated from these types by `hopbench agent-schema`.

mod brief;
mod reply;
#[cfg(feature = "schema")]
mod schema;

pub use brief::{HopBrief, PastStep, SiteBrief, TabBrief, TaskBrief};
pub use reply::{read_reply, AgentReply, HelloReply, ReplyUsage, StepReply};
#[cfg(feature = "schema")]
pub use schema::agent_protocol_schema;

use serde::Serialize;

/// The version every request carries; a reply may name it too, and a different one is
/// refused (the agent was written for another contract).
pub const PROTOCOL_VERSION: u32 = 1;

/// "Who are you?": sent by Test connection and by the runner before a batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HelloRequest {
    /// Always 1 for this version of the contract.
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub protocol: u32,
    /// Always `hello`.
    #[cfg_attr(feature = "schema", schemars(extend("const" = "hello")))]
    pub kind: &'static str,
}

impl HelloRequest {
    pub fn new() -> Self {
        HelloRequest {
            protocol: PROTOCOL_VERSION,
            kind: "hello",
        }
    }
}

impl Default for HelloRequest {
    fn default() -> Self {
        HelloRequest::new()
    }
}

/// One step: what the agent needs to choose the step's action, and nothing that scores
/// it (no hop conditions, no reference answers, no reference trajectory).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepRequest {
    /// Always 1 for this version of the contract.
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub protocol: u32,
    /// Always `step`.
    #[cfg_attr(feature = "schema", schemars(extend("const" = "step")))]
    pub kind: &'static str,
    /// The step being chosen, from 1.
    pub step: u32,
    /// The run ends once this many steps are recorded.
    pub max_steps: u32,
    pub task: TaskBrief,
    pub observation: ObservationData,
    /// Why the previous step did nothing (its action could not be read, or failed),
    /// in a sentence; null when it did what it said.
    pub feedback: Option<String>,
    /// The steps so far, oldest first.
    pub history: Vec<PastStep>,
    /// Procedural memory: past runs written as the prompt agent would see them; null
    /// when memory is off.
    pub memory: Option<String>,
}

/// The page as the agent sees it this step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ObservationData {
    /// How `text` is written: `mmina` (the benchmark's accessibility-tree text) or
    /// `compact` (fewer tokens), as the run's observation format says.
    pub format: String,
    /// The run's observation mode: `text`, `text+images`, `text+screenshot` or `som`.
    pub mode: String,
    /// The current tab's URL.
    pub url: String,
    /// The accessibility-tree text; `[id]` before an element is what actions name.
    pub text: String,
    /// The session's tabs, in order; `tab_focus [index]` takes the position here.
    pub tabs: Vec<TabBrief>,
    /// The viewport's images (`text+images`), each with the id of its element.
    pub images: Vec<ImageData>,
    /// The viewport's screenshot (`text+screenshot`), or the one with elements boxed
    /// and numbered (`som`); null in the other modes.
    pub screenshot: Option<PictureData>,
}

/// One image of the viewport, as the page loaded it (base64 bytes).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ImageData {
    /// The id of the image's element in `text`.
    pub id: u32,
    pub mime: String,
    pub base64: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PictureData {
    pub mime: String,
    pub base64: String,
}

#[cfg(test)]
mod tests;
