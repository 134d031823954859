//! Provider-neutral model calls: what the agent asks a model and what comes back.
//!
//! The agent builds a [`ModelRequest`]; a provider module turns it into the HTTP body
//! of one API (OpenAI-compatible, Anthropic Messages, Gemini) and parses the reply into
//! a [`ModelReply`]. The transport (fetch) stays in the browser glue.

use serde::{Deserialize, Serialize};

use crate::serde_flat::need;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Role {
    User,
    Assistant,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(Role, "Role", {
    User = "user",
    Assistant = "assistant",
});

/// One piece of a message: text, or an image as base64 bytes with its MIME type
/// (the three APIs all take base64 parts; none can fetch our local pages' images).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Read through one flat struct (`crate::serde_flat`): parts are in every stored step.
#[serde(try_from = "PartFields")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Part {
    Text { text: String },
    Image { mime: String, base64: String },
}

impl Part {
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text { text: text.into() }
    }
}

enum PartType {
    Text,
    Image,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(PartType, "PartType", {
    Text = "text",
    Image = "image",
});

/// A `Part` object as written: `type` names the variant.
#[derive(Deserialize)]
struct PartFields {
    #[serde(rename = "type")]
    kind: PartType,
    text: Option<String>,
    mime: Option<String>,
    base64: Option<String>,
}

impl TryFrom<PartFields> for Part {
    type Error = String;

    fn try_from(f: PartFields) -> Result<Part, String> {
        Ok(match f.kind {
            PartType::Text => Part::Text {
                text: need(f.text, "text")?,
            },
            PartType::Image => Part::Image {
                mime: need(f.mime, "mime")?,
                base64: need(f.base64, "base64")?,
            },
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
}

/// Why a temperature cannot be sent, if it cannot: models take a number from 0 up.
pub fn temperature_problem(temperature: f32) -> Option<String> {
    if temperature.is_finite() && temperature >= 0.0 {
        return None;
    }
    // Written as JSON writes it (shortest form, e.g. -0.1): f32's own `Display`
    // would be a second float formatter in the wasm for this one message.
    let shown = serde_json::to_string(&temperature).unwrap_or_default();
    Some(format!(
        "temperature must be a number from 0 up (got {shown})"
    ))
}

/// Everything a provider needs besides its own settings (URL, model, key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelRequest {
    /// The system prompt (role, rules, examples).
    pub system: String,
    /// The conversation, oldest first; the last message is the current user turn.
    pub messages: Vec<Message>,
    pub temperature: f32,
    pub max_tokens: u32,
    /// For a person's own agent (provider `agent`): the protocol's request, built by
    /// the core (`crate::agent_protocol`), sent as the body instead of the prompt.
    /// Carried as JSON, so the wasm reads it back without the request types' readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "unknown", optional))]
    pub agent: Option<serde_json::Value>,
}

/// Tokens counted by the provider for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Usage {
    /// The whole prompt, cached part included, whichever API counted it: the
    /// provider modules add up what an API reports in pieces (Anthropic).
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The part of `input_tokens` the server read from its prompt cache instead of
    /// computing it again; 0 when it reported none. Records stored before this
    /// field existed read as 0.
    #[serde(default)]
    pub cached_input_tokens: u64,
}

/// The text the model produced, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelReply {
    pub text: String,
    pub usage: Usage,
    /// Why a person's own agent chose its action, when it says (its `text` is then
    /// the action alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reasoning: Option<String>,
}
