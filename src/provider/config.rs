//! Which API, where, which model, with which key; and the per-call options.

use super::error::CallError;
use super::url;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// Chat Completions: OpenAI and every server that copies its API.
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
    /// Google's Generative Language API (Gemini).
    Gemini,
    /// A person's own agent, spoken to in the agent protocol (docs/agent-protocol.md).
    Agent,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(ProviderKind, "ProviderKind", {
    Openai = "openai",
    Anthropic = "anthropic",
    Gemini = "gemini",
    Agent = "agent",
});

impl ProviderKind {
    /// The name people know the API by, for messages and hints.
    pub fn label(self) -> &'static str {
        match self {
            ProviderKind::Openai => "OpenAI-compatible server",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::Gemini => "Gemini",
            ProviderKind::Agent => "your own agent (HTTP)",
        }
    }

    /// The base URL an empty field falls back to (the public service of each API; a
    /// person's own agent has none, so an empty field stays empty and is refused).
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Agent => "",
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com/v1",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        }
    }
}

/// Whether the server is asked to keep the prompt's prefix between calls, so that each
/// step pays only for what changed (the new observation), not for the system prompt
/// again. `Off` is for measuring a server as it runs without it, or for a server whose
/// cache misbehaves. How each API is asked, and what it cannot be asked, is in the
/// API's module (`openai.rs` `may_read_cache_prompt`, `anthropic.rs`, `gemini.rs`) and
/// docs/agent-run.md "Prompt caching".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptCache {
    /// Ask for the cache wherever the API takes the request (the default).
    #[default]
    On,
    /// Ask for no caching wherever the API takes the request; send no cache marks.
    Off,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(PromptCache, "PromptCache", {
    On = "on",
    Off = "off",
});

crate::variants::every_variant!(PromptCache { On, Off });

/// One model endpoint. The settings' `model` and `judge` objects deserialize into
/// this directly; their other fields (temperature, max_tokens) are ignored here.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderConfig {
    pub provider: ProviderKind,
    pub base_url: String,
    pub model: String,
    /// Empty for servers without keys (a local Ollama or LM Studio).
    #[serde(default)]
    pub api_key: String,
    /// Settings saved before this existed have none: the default, on.
    #[serde(default)]
    pub prompt_cache: PromptCache,
}

/// Never prints the key, so a config can appear in any debug output.
impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key_set", &!self.api_key.is_empty())
            .field("prompt_cache", &self.prompt_cache)
            .finish()
    }
}

impl ProviderConfig {
    /// The base URL without trailing slashes; the provider's default when empty.
    pub fn base(&self) -> &str {
        let trimmed = self.base_url.trim().trim_end_matches('/');
        if trimmed.is_empty() {
            self.provider.default_base_url()
        } else {
            trimmed
        }
    }

    /// Problems that make a call pointless, reported before anything is sent.
    pub fn check(&self) -> Result<(), CallError> {
        let base = self.base();
        if self.provider == ProviderKind::Agent && base.is_empty() {
            return Err(CallError::config(
                "no agent URL is set: give the URL your agent listens on, e.g. http://127.0.0.1:8700/",
            ));
        }
        if url::host_of(base).is_none() {
            return Err(CallError::config(format!(
                "base URL {base:?} is not an http:// or https:// URL with a host"
            )));
        }
        // An agent names itself in its replies; a model must be named.
        if self.model.trim().is_empty() && self.provider != ProviderKind::Agent {
            return Err(CallError::config("no model name is set"));
        }
        let key_needed = !matches!(self.provider, ProviderKind::Openai | ProviderKind::Agent);
        if key_needed && self.api_key.is_empty() {
            return Err(CallError::config(format!(
                "no API key is set for {}",
                self.provider.label()
            )));
        }
        // A header value cannot hold spaces or control characters: a key pasted with a
        // line break would make fetch throw before anything is sent.
        if !self.api_key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(CallError::config(
                "the API key contains spaces, line breaks or non-ASCII characters; paste it again",
            ));
        }
        Ok(())
    }
}

/// Per-call options from the caller (`model_call`'s `options` argument).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallOptions {
    /// Tries in all, the first included.
    #[serde(default = "default_max_tries")]
    pub max_tries: u32,
    /// Each try is aborted after this long (the whole exchange, body included).
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// `chrome-extension://<id>`, for hints about servers that check the Origin.
    #[serde(default)]
    pub extension_origin: Option<String>,
}

fn default_max_tries() -> u32 {
    4
}

fn default_timeout_ms() -> u64 {
    120_000
}

/// Bounds that keep a call sane whatever the caller passed: at least one try and at
/// most 10; a timeout from 1 s (a shorter one fails every real model) to 10 min.
const TRIES: std::ops::RangeInclusive<u32> = 1..=10;
const TIMEOUT_MS: std::ops::RangeInclusive<u64> = 1_000..=600_000;

impl CallOptions {
    pub fn normalized(mut self) -> Self {
        self.max_tries = self.max_tries.clamp(*TRIES.start(), *TRIES.end());
        self.timeout_ms = self
            .timeout_ms
            .clamp(*TIMEOUT_MS.start(), *TIMEOUT_MS.end());
        self
    }
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            max_tries: default_max_tries(),
            timeout_ms: default_timeout_ms(),
            extension_origin: None,
        }
    }
}
