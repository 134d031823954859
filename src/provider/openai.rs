//! Chat Completions (`POST {base}/chat/completions`), the API OpenAI-compatible
//! servers share. Images go as `image_url` parts holding a `data:` URL, the form
//! every compatible server with vision accepts.

use super::config::{PromptCache, ProviderConfig};
use super::error::{CallError, ErrorKind};
use super::error_body;
use super::url;
use super::Api;
use crate::model::{Message, ModelReply, ModelRequest, Part, Role, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

pub struct OpenAi;

impl Api for OpenAi {
    fn endpoint(&self, config: &ProviderConfig) -> String {
        url::endpoint(config.base(), "v1", "chat/completions")
    }

    fn headers(&self, config: &ProviderConfig) -> Vec<(String, String)> {
        // Local servers take no key; an empty Bearer would be refused by some.
        if config.api_key.is_empty() {
            return Vec::new();
        }
        vec![(
            "authorization".to_string(),
            format!("Bearer {}", config.api_key),
        )]
    }

    fn body(&self, config: &ProviderConfig, request: &ModelRequest) -> Value {
        let mut messages = Vec::with_capacity(request.messages.len() + 1);
        if !request.system.is_empty() {
            messages.push(json!({ "role": "system", "content": request.system }));
        }
        messages.extend(request.messages.iter().map(message));
        // `max_tokens`, not OpenAI's newer `max_completion_tokens`: every compatible
        // server (vLLM, Ollama, LM Studio, OpenRouter) reads this name.
        let mut body = json!({
            "model": config.model.trim(),
            "messages": messages,
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        });
        if may_read_cache_prompt(config.base()) {
            body["cache_prompt"] = json!(config.prompt_cache == PromptCache::On);
        }
        body
    }

    fn parse_success(&self, body: &str) -> Result<ModelReply, CallError> {
        let reply: Reply = crate::json_read::from_str(body).map_err(|e| {
            CallError::malformed(format!(
                "the reply is not Chat Completions JSON ({e}); is the base URL an OpenAI-compatible API?"
            ))
        })?;
        if let Some(error) = reply.error {
            return Err(error_in_success(&error));
        }
        let Some(choices) = reply.choices else {
            return Err(CallError::malformed(
                "the reply is not Chat Completions JSON (no choices); is the base URL an OpenAI-compatible API?",
            ));
        };
        let Some(choice) = choices.into_iter().next() else {
            return Err(CallError::empty("the reply has no choices"));
        };
        let message = choice.message.unwrap_or_default();
        let text = message
            .content
            .as_ref()
            .map(content_text)
            .unwrap_or_default();
        if text.trim().is_empty() {
            return Err(CallError::empty(empty_reason(
                choice.finish_reason.as_deref(),
                message.refusal.as_deref(),
            )));
        }
        let usage = reply.usage.unwrap_or_default();
        let input_tokens = usage.prompt_tokens.unwrap_or(0);
        // OpenAI, vLLM and current llama-server report the cache hit in
        // `usage.prompt_tokens_details.cached_tokens`; llama-server builds before that
        // field only in `timings.cache_n`. Both are part of `prompt_tokens`.
        let cached = usage
            .prompt_tokens_details
            .and_then(|details| details.cached_tokens)
            .or_else(|| reply.timings.and_then(|timings| timings.cache_n))
            .unwrap_or(0);
        Ok(ModelReply {
            text,
            usage: Usage {
                input_tokens,
                output_tokens: usage.completion_tokens.unwrap_or(0),
                cached_input_tokens: cached.min(input_tokens),
            },
            reasoning: None,
        })
    }
}

/// Whether the request carries llama-server's `cache_prompt` field: `true` with the
/// prompt cache on (the slot keeps the previous prompt's computed state and reprocesses
/// only what changed, so each step pays for its new observation, not for the system
/// prompt again), `false` with it off. The request's field overrides the server's own
/// default either way (its `--no-cache-prompt` included), so the setting means the
/// same whatever the server was started with.
///
/// Nothing can turn caching off where the field does not go: OpenAI's API caches
/// prompts of 1024 tokens and more by itself, and vLLM (automatic prefix caching),
/// Ollama and LM Studio keep what their own settings say.
///
/// Only servers on this machine or a private network get the field. OpenAI's own API
/// refuses fields it does not know ("Unrecognized request argument supplied"), and so
/// may any gateway that copies it; llama-server on the other hand is almost always run
/// locally. On a local address the field is harmless to the other servers found there
/// (vLLM's request models accept unknown fields and ignore them; Ollama's decoder drops
/// them). Ollama's and LM Studio's default ports are left out all the same: neither
/// reads the field (both cache on their own), and LM Studio's native API refuses unknown
/// keys, so there is nothing to gain in risking it. Current llama-server builds cache by
/// default; the field keeps older builds caching too.
fn may_read_cache_prompt(base: &str) -> bool {
    url::is_local(base)
        && !matches!(
            url::port_of(base),
            Some(url::OLLAMA_PORT | url::LM_STUDIO_PORT)
        )
}

fn message(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let has_image = message
        .parts
        .iter()
        .any(|p| matches!(p, Part::Image { .. }));
    if !has_image {
        // A plain string: servers without vision support may not accept part arrays.
        let text: Vec<&str> = message
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text } => Some(text.as_str()),
                Part::Image { .. } => None,
            })
            .collect();
        return json!({ "role": role, "content": text.join("\n") });
    }
    let parts: Vec<Value> = message
        .parts
        .iter()
        .map(|part| match part {
            Part::Text { text } => json!({ "type": "text", "text": text }),
            Part::Image { mime, base64 } => json!({
                "type": "image_url",
                "image_url": { "url": format!("data:{mime};base64,{base64}") },
            }),
        })
        .collect();
    json!({ "role": role, "content": parts })
}

#[derive(Deserialize)]
struct Reply {
    choices: Option<Vec<Choice>>,
    usage: Option<ReplyUsage>,
    /// llama-server's own timing report beside `usage`.
    timings: Option<Timings>,
    /// Some gateways (OpenRouter) report errors inside a 200 reply.
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice {
    message: Option<ChoiceMessage>,
    finish_reason: Option<String>,
}

#[derive(Deserialize, Default)]
struct ChoiceMessage {
    /// A string, or (some servers) an array of `{type: "text", text}` parts.
    content: Option<Value>,
    refusal: Option<String>,
}

#[derive(Deserialize, Default)]
struct ReplyUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
    prompt_tokens_details: Option<PromptTokensDetails>,
}

#[derive(Deserialize)]
struct PromptTokensDetails {
    cached_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct Timings {
    /// Prompt tokens reused from the slot's cache.
    cache_n: Option<u64>,
}

fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

fn empty_reason(finish_reason: Option<&str>, refusal: Option<&str>) -> String {
    if let Some(refusal) = refusal.filter(|r| !r.trim().is_empty()) {
        return format!("the model refused and wrote no answer: {refusal}");
    }
    match finish_reason {
        Some("length") => {
            "the model wrote no text before reaching max tokens (finish_reason: length)".into()
        }
        Some("content_filter") => "the reply was withheld by a content filter".into(),
        Some(other) => format!("the reply has no text (finish_reason: {other})"),
        None => "the reply has no text".into(),
    }
}

/// An error object in a 200 reply. Words that name a cause decide as they do for an
/// error status; otherwise its numeric `code` (when it is an HTTP status) picks the
/// kind, so a 429 reported this way is still retried.
fn error_in_success(error: &Value) -> CallError {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| error.to_string());
    let body = error_body::from_error_object(error);
    let said = format!("the server reported an error: {message}");
    if let Some(error) = CallError::from_cause(&body, said) {
        return error;
    }
    let kind = match error.get("code").and_then(Value::as_u64) {
        Some(429) => ErrorKind::RateLimited,
        Some(401 | 403) => ErrorKind::Auth,
        Some(404) => ErrorKind::NotFound,
        Some(500..=599) => ErrorKind::Server,
        _ => ErrorKind::BadRequest,
    };
    CallError::new(kind, format!("the server reported an error: {message}"))
}
