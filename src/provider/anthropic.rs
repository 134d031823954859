//! Anthropic's Messages API (`POST {base}/messages`, base `https://api.anthropic.com/v1`).
//! The system prompt is a top-level field; images are `image` blocks with a base64
//! source. Calls from a browser context must send
//! `anthropic-dangerous-direct-browser-access: true`, or the API answers 401
//! "CORS requests must set 'anthropic-dangerous-direct-browser-access' header".

use super::config::{PromptCache, ProviderConfig};
use super::error::CallError;
use super::url;
use super::Api;
use crate::model::{Message, ModelReply, ModelRequest, Part, Role, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

/// The API version this module's body and reply shapes follow.
const API_VERSION: &str = "2023-06-01";

pub struct Anthropic;

impl Api for Anthropic {
    fn endpoint(&self, config: &ProviderConfig) -> String {
        url::endpoint(config.base(), "v1", "messages")
    }

    fn headers(&self, config: &ProviderConfig) -> Vec<(String, String)> {
        vec![
            ("x-api-key".to_string(), config.api_key.clone()),
            ("anthropic-version".to_string(), API_VERSION.to_string()),
            (
                "anthropic-dangerous-direct-browser-access".to_string(),
                "true".to_string(),
            ),
        ]
    }

    fn body(&self, config: &ProviderConfig, request: &ModelRequest) -> Value {
        let mut body = json!({
            "model": config.model.trim(),
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": request.messages.iter().map(message).collect::<Vec<_>>(),
        });
        if !request.system.is_empty() {
            // The system prompt (role, rules, examples, memory) is the same at every
            // step of a run: marked as a cache breakpoint, later steps read it from
            // Anthropic's prompt cache (billed at a tenth) instead of paying for it
            // again. A prompt shorter than the model's minimum cacheable length is
            // simply not cached; the request is the same either way. Anthropic caches
            // only what is marked, so without the mark (prompt cache off) nothing is.
            let mut block = json!({ "type": "text", "text": request.system });
            if config.prompt_cache == PromptCache::On {
                block["cache_control"] = json!({ "type": "ephemeral" });
            }
            body["system"] = json!([block]);
        }
        body
    }

    fn parse_success(&self, body: &str) -> Result<ModelReply, CallError> {
        let reply: Reply = crate::json_read::from_str(body).map_err(|e| {
            CallError::malformed(format!(
                "the reply is not Anthropic Messages JSON ({e}); is the base URL Anthropic's API?"
            ))
        })?;
        let text: String = reply
            .content
            .iter()
            // Thinking and tool blocks are not the answer.
            .filter(|block| block.kind == "text")
            .filter_map(|block| block.text.as_deref())
            .collect();
        if text.trim().is_empty() {
            return Err(CallError::empty(match reply.stop_reason.as_deref() {
                Some("max_tokens") => {
                    "the model wrote no text before reaching max tokens (stop_reason: max_tokens)"
                        .to_string()
                }
                Some("refusal") => "the model refused to answer (stop_reason: refusal)".into(),
                Some(other) => format!("the reply has no text (stop_reason: {other})"),
                None => "the reply has no text".to_string(),
            }));
        }
        let usage = reply.usage.unwrap_or_default();
        let cached = usage.cache_read_input_tokens.unwrap_or(0);
        Ok(ModelReply {
            text,
            usage: Usage {
                // Anthropic's `input_tokens` counts only the prompt after the last
                // cache breakpoint; what was written to or read from the cache is
                // counted apart. All of it is prompt the model read, so the sum is the
                // input, as every other API reports it, and the read part the cached.
                input_tokens: usage.input_tokens
                    + usage.cache_creation_input_tokens.unwrap_or(0)
                    + cached,
                output_tokens: usage.output_tokens,
                cached_input_tokens: cached,
            },
            reasoning: None,
        })
    }
}

fn message(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let content: Vec<Value> = message
        .parts
        .iter()
        .map(|part| match part {
            Part::Text { text } => json!({ "type": "text", "text": text }),
            Part::Image { mime, base64 } => json!({
                "type": "image",
                "source": { "type": "base64", "media_type": mime, "data": base64 },
            }),
        })
        .collect();
    json!({ "role": role, "content": content })
}

#[derive(Deserialize)]
struct Reply {
    content: Vec<Block>,
    stop_reason: Option<String>,
    usage: Option<ReplyUsage>,
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
    text: Option<String>,
}

#[derive(Deserialize, Default)]
struct ReplyUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
}
