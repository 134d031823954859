//! Chat Completions (`POST {base}/chat/completions`), the API OpenAI-compatible
//! servers share. Images go as `image_url` parts holding a `data:` URL, the form
//! every compatible server with vision accepts.

use super::config::ProviderConfig;
use super::error::{CallError, ErrorKind};
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
        json!({
            "model": config.model.trim(),
            "messages": messages,
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        })
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
        Ok(ModelReply {
            text,
            usage: Usage {
                input_tokens: usage.prompt_tokens.unwrap_or(0),
                output_tokens: usage.completion_tokens.unwrap_or(0),
            },
        })
    }
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

/// An error object in a 200 reply; its numeric `code` (when it is an HTTP status)
/// picks the kind, so a 429 reported this way is still retried.
fn error_in_success(error: &Value) -> CallError {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| error.to_string());
    let kind = match error.get("code").and_then(Value::as_u64) {
        Some(429) => ErrorKind::RateLimited,
        Some(401 | 403) => ErrorKind::Auth,
        Some(404) => ErrorKind::NotFound,
        Some(500..=599) => ErrorKind::Server,
        _ => ErrorKind::BadRequest,
    };
    CallError::new(kind, format!("the server reported an error: {message}"))
}
