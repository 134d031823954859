//! Gemini's `generateContent` (`POST {base}/models/{model}:generateContent`, base
//! `https://generativelanguage.googleapis.com/v1beta`). The key goes in the
//! `x-goog-api-key` header, never in the URL (the `?key=` form would put it in every
//! message that names the URL). The assistant role is called `model`; images are
//! `inlineData` parts.

use super::config::ProviderConfig;
use super::error::CallError;
use super::url;
use super::Api;
use crate::model::{Message, ModelReply, ModelRequest, Part, Role, Usage};
use serde::Deserialize;
use serde_json::{json, Value};

pub struct Gemini;

impl Api for Gemini {
    fn endpoint(&self, config: &ProviderConfig) -> String {
        // "models/gemini-2.5-flash" (as the API lists them) and "gemini-2.5-flash" both work.
        let model = config.model.trim();
        let model = model.strip_prefix("models/").unwrap_or(model);
        let path = format!("models/{}:generateContent", url::encode_path_segment(model));
        url::endpoint(config.base(), "v1beta", &path)
    }

    fn headers(&self, config: &ProviderConfig) -> Vec<(String, String)> {
        vec![("x-goog-api-key".to_string(), config.api_key.clone())]
    }

    fn body(&self, _config: &ProviderConfig, request: &ModelRequest) -> Value {
        let mut body = json!({
            "contents": request.messages.iter().map(content).collect::<Vec<_>>(),
            "generationConfig": {
                "temperature": request.temperature,
                "maxOutputTokens": request.max_tokens,
            },
        });
        // Nothing asks for caching here, so the prompt cache setting changes nothing:
        // Gemini 2.5 and later cache a prompt's prefix implicitly when it repeats an
        // earlier request's (the system instruction, the same at every step, comes
        // first), and a request cannot turn that off. A hit shows as
        // `cachedContentTokenCount`.
        if !request.system.is_empty() {
            body["systemInstruction"] = json!({ "parts": [{ "text": request.system }] });
        }
        body
    }

    fn parse_success(&self, body: &str) -> Result<ModelReply, CallError> {
        let reply: Reply = crate::json_read::from_str(body).map_err(|e| {
            CallError::malformed(format!(
                "the reply is not Gemini generateContent JSON ({e}); is the base URL Google's Generative Language API?"
            ))
        })?;
        if reply.candidates.is_none()
            && reply.prompt_feedback.is_none()
            && reply.usage_metadata.is_none()
        {
            return Err(CallError::malformed(
                "the reply is not Gemini generateContent JSON (no candidates, promptFeedback or usageMetadata); is the base URL Google's Generative Language API?",
            ));
        }
        let candidate = reply.candidates.unwrap_or_default().into_iter().next();
        let Some(candidate) = candidate else {
            let blocked = reply.prompt_feedback.and_then(|f| f.block_reason);
            return Err(CallError::empty(match blocked {
                Some(reason) => format!("the prompt was blocked (blockReason: {reason})"),
                None => "the reply has no candidates".to_string(),
            }));
        };
        let text: String = candidate
            .content
            .map(|c| c.parts)
            .unwrap_or_default()
            .iter()
            // Thought summaries (`thought: true`) are not the answer.
            .filter(|part| !part.thought.unwrap_or(false))
            .filter_map(|part| part.text.as_deref())
            .collect();
        if text.trim().is_empty() {
            return Err(CallError::empty(match candidate.finish_reason.as_deref() {
                Some("MAX_TOKENS") => {
                    "the model wrote no text before reaching max tokens (finishReason: MAX_TOKENS); thinking models spend tokens before answering".to_string()
                }
                Some(reason) => format!("the reply has no text (finishReason: {reason})"),
                None => "the reply has no text".to_string(),
            }));
        }
        let usage = reply.usage_metadata.unwrap_or_default();
        Ok(ModelReply {
            text,
            usage: Usage {
                input_tokens: usage.prompt_token_count,
                // Thinking tokens are billed as output.
                output_tokens: usage.candidates_token_count + usage.thoughts_token_count,
                // Part of `promptTokenCount`, which counts the whole prompt.
                cached_input_tokens: usage
                    .cached_content_token_count
                    .min(usage.prompt_token_count),
            },
            reasoning: None,
        })
    }
}

fn content(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "model",
    };
    let parts: Vec<Value> = message
        .parts
        .iter()
        .map(|part| match part {
            Part::Text { text } => json!({ "text": text }),
            Part::Image { mime, base64 } => {
                json!({ "inlineData": { "mimeType": mime, "data": base64 } })
            }
        })
        .collect();
    json!({ "role": role, "parts": parts })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reply {
    candidates: Option<Vec<Candidate>>,
    prompt_feedback: Option<PromptFeedback>,
    usage_metadata: Option<UsageMetadata>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    content: Option<Content>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Vec<ReplyPart>,
}

#[derive(Deserialize)]
struct ReplyPart {
    text: Option<String>,
    thought: Option<bool>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    block_reason: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct UsageMetadata {
    prompt_token_count: u64,
    candidates_token_count: u64,
    thoughts_token_count: u64,
    /// Prompt tokens served from a cache (implicit caching included).
    cached_content_token_count: u64,
}
