//! The agent's replies: one action per step, its name and version to a hello.

use serde::Deserialize;

use super::PROTOCOL_VERSION;

/// Tokens the agent says it spent on the step (its own model calls), for the reports'
/// token and cost columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema, serde::Serialize))]
pub struct ReplyUsage {
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
}

/// The reply to a step request.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema, serde::Serialize))]
pub struct StepReply {
    /// One action in the action language, e.g. `click [12]` or `stop [purple]`.
    pub action: String,
    /// Why the agent chose it, shown in the viewer beside the action.
    #[serde(default)]
    pub reasoning: Option<String>,
    #[serde(default)]
    pub usage: Option<ReplyUsage>,
    /// The contract the agent was written for; when given it must be 1.
    #[serde(default)]
    pub protocol: Option<u32>,
}

/// The reply to a hello.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema, serde::Serialize))]
pub struct HelloReply {
    /// The agent's name, shown where a model's name would be.
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
    /// The contract the agent was written for; when given it must be 1.
    #[serde(default)]
    pub protocol: Option<u32>,
}

/// Either reply, told apart by its fields: `action` for a step, `name` for a hello.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentReply {
    Step(StepReply),
    Hello(HelloReply),
}

impl HelloReply {
    /// "name version", as reports show a model's name.
    pub fn label(&self) -> String {
        match self.version.as_deref().map(str::trim) {
            Some(v) if !v.is_empty() => format!("{} {v}", self.name.trim()),
            _ => self.name.trim().to_string(),
        }
    }
}

/// Reads a 2xx body of the agent. The message of an error says what the agent sent
/// and what was expected, so its author can fix it from the run's record alone.
pub fn read_reply(body: &str) -> Result<AgentReply, String> {
    let value: serde_json::Value = crate::json_read::from_str(body)
        .map_err(|e| format!("the agent's reply is not JSON ({e}): {}", clip(body)))?;
    let Some(object) = value.as_object() else {
        return Err(format!(
            "the agent's reply is not a JSON object: {}",
            clip(body)
        ));
    };
    let reply = if object.contains_key("action") {
        AgentReply::Step(
            crate::json_read::from_value(value.clone())
                .map_err(|e| format!("the agent's step reply is malformed: {e}"))?,
        )
    } else if object.contains_key("name") {
        AgentReply::Hello(
            crate::json_read::from_value(value.clone())
                .map_err(|e| format!("the agent's hello reply is malformed: {e}"))?,
        )
    } else {
        return Err(format!(
            "the agent's reply has neither \"action\" (a step) nor \"name\" (a hello): {}",
            clip(body)
        ));
    };
    let protocol = match &reply {
        AgentReply::Step(s) => s.protocol,
        AgentReply::Hello(h) => h.protocol,
    };
    match protocol {
        Some(version) if version != PROTOCOL_VERSION => Err(format!(
            "the agent speaks protocol {version}, this hopbench speaks {PROTOCOL_VERSION} \
             (docs/agent-protocol.md)"
        )),
        _ => Ok(reply),
    }
}

/// The start of a body, for messages: an agent may send a whole HTML error page.
fn clip(body: &str) -> String {
    const MAX: usize = 200;
    let trimmed = body.trim();
    match trimmed.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_string(),
    }
}
