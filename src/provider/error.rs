//! What can go wrong with a model call, as data: a kind the retry rules and hints
//! key on, a message for people, the wait the server asked for and, for a prompt
//! too long for the model, the sizes it stated.

use super::cause::{self, Cause};
use super::config::ProviderConfig;
use super::error_body::{self, ErrorBody};
use super::http::HttpReply;
use super::http_date::parse_retry_after;
use super::url;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ErrorKind {
    /// HTTP 429.
    RateLimited,
    /// HTTP 5xx (and Anthropic's 529 "overloaded") that names no cause below.
    Server,
    /// No complete reply within the per-try timeout (or HTTP 408).
    Timeout,
    /// fetch failed: DNS, refused connection, TLS, CORS.
    Network,
    /// HTTP 401, a 403 from a remote service, or a key the server calls invalid.
    Auth,
    /// HTTP 404: wrong base URL or model name.
    NotFound,
    /// Other 4xx: the server refused what was sent.
    BadRequest,
    /// The model cannot take the images sent (a text-only model, or llama-server
    /// started without the model's multimodal projector). Recognised by the server's
    /// words whatever its status: llama-server says it with a 500.
    UnsupportedInput,
    /// The prompt is longer than the model's context. The sizes, when the server
    /// gave them, are in [`CallError::prompt_tokens`] / [`CallError::context_tokens`].
    ContextOverflow,
    /// HTTP 403 from a server on this machine or network: it checks the Origin header
    /// (Ollama, LM Studio) and does not accept `chrome-extension://`.
    OriginRejected,
    /// A 2xx reply that is not the JSON this API sends.
    Malformed,
    /// A well-formed reply without any text.
    Empty,
    /// The caller aborted (Stop).
    Cancelled,
    /// The settings cannot work (no model, no key, bad URL); nothing was sent.
    Config,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(ErrorKind, "ErrorKind", {
    RateLimited = "rate_limited",
    Server = "server",
    Timeout = "timeout",
    Network = "network",
    Auth = "auth",
    NotFound = "not_found",
    BadRequest = "bad_request",
    UnsupportedInput = "unsupported_input",
    ContextOverflow = "context_overflow",
    OriginRejected = "origin_rejected",
    Malformed = "malformed",
    Empty = "empty",
    Cancelled = "cancelled",
    Config = "config",
});

crate::variants::every_variant!(ErrorKind {
    RateLimited,
    Server,
    Timeout,
    Network,
    Auth,
    NotFound,
    BadRequest,
    UnsupportedInput,
    ContextOverflow,
    OriginRejected,
    Malformed,
    Empty,
    Cancelled,
    Config,
});

impl ErrorKind {
    /// Failures that may pass by themselves; only these are tried again. A 5xx that
    /// names its cause (unsupported input) is not one: the same request meets the
    /// same refusal.
    pub fn is_transient(self) -> bool {
        matches!(
            self,
            ErrorKind::RateLimited | ErrorKind::Server | ErrorKind::Timeout | ErrorKind::Network
        )
    }

    /// Failures the next call would meet again, whatever it asks: they come from the
    /// settings or the server, not from one request. An agent run cannot go on after
    /// one (a network failure counts once its retries are spent: the server is not
    /// there). A plain 400 may be about one request, so it is not one.
    ///
    /// Unsupported input is a setting (the observation mode sends images every
    /// step). A context overflow is about one request in principle, but every later
    /// prompt carries the same system prompt and a page of like size, so the steps
    /// left would fail the same way as no-ops; ending at once with the sizes tells the
    /// person what to cut.
    pub fn ends_run(self) -> bool {
        matches!(
            self,
            ErrorKind::Network
                | ErrorKind::Auth
                | ErrorKind::NotFound
                | ErrorKind::OriginRejected
                | ErrorKind::Config
                | ErrorKind::UnsupportedInput
                | ErrorKind::ContextOverflow
        )
    }

    /// The kind named `name` in its JSON spelling (`rate_limited`, ...).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        crate::json_read::from_value(serde_json::Value::String(name.to_string())).ok()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct CallError {
    pub kind: ErrorKind,
    /// One line for people; never contains the key.
    pub message: String,
    /// The wait the server asked for (Retry-After), in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// For a context overflow: the prompt's size as the server counted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// For a context overflow: the model's context as the server has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<u64>,
}

impl CallError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        CallError {
            kind,
            message: message.into(),
            retry_after_ms: None,
            prompt_tokens: None,
            context_tokens: None,
        }
    }

    /// The error a body's words name ([`cause::recognise`]), with `message` (what was
    /// called and what came back) and the sizes said after it; `None` when the words
    /// name no cause.
    pub(super) fn from_cause(body: &ErrorBody, message: String) -> Option<Self> {
        Some(match cause::recognise(body)? {
            Cause::UnsupportedInput => Self::new(ErrorKind::UnsupportedInput, message),
            Cause::ContextOverflow {
                prompt_tokens,
                context_tokens,
            } => {
                let message = match cause::sizes_sentence(prompt_tokens, context_tokens) {
                    // Most servers end their words with a full stop already.
                    Some(sizes) if message.ends_with('.') => format!("{message} {sizes}"),
                    Some(sizes) => format!("{message}. {sizes}"),
                    None => message,
                };
                CallError {
                    prompt_tokens,
                    context_tokens,
                    ..Self::new(ErrorKind::ContextOverflow, message)
                }
            }
        })
    }

    pub fn config(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Config, message)
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed, message)
    }

    pub fn empty(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Empty, message)
    }

    /// The same error with every occurrence of `key` in its message replaced.
    pub fn redacted(mut self, key: &str) -> Self {
        self.message = redact(&self.message, key);
        self
    }
}

/// `text` with every occurrence of `key` replaced by `[API key]`. Keys shorter than 8
/// characters are not real keys, and replacing them would garble ordinary words.
pub fn redact(text: &str, key: &str) -> String {
    if key.len() >= 8 && text.contains(key) {
        text.replace(key, "[API key]")
    } else {
        text.to_string()
    }
}

/// The error a non-2xx reply stands for. `url` is the endpoint that was called (it
/// never carries the key: all three APIs take it in a header).
pub fn from_status(config: &ProviderConfig, url: &str, reply: &HttpReply) -> CallError {
    let body = error_body::read(&reply.body);
    let detail = body.detail();
    let what = match &detail {
        Some(detail) => format!(": {detail}"),
        None => String::new(),
    };
    let message = format!(
        "{} answered HTTP {} for {url}{what}",
        config.provider.label(),
        reply.status
    );
    // The server's words, when they name a cause, say more than its status.
    if let Some(error) = CallError::from_cause(&body, message.clone()) {
        return error;
    }
    let kind = classify(config, reply.status, detail.as_deref().unwrap_or_default());
    let mut error = CallError::new(kind, message);
    if matches!(kind, ErrorKind::RateLimited | ErrorKind::Server) {
        error.retry_after_ms = reply
            .retry_after
            .as_deref()
            .and_then(|value| parse_retry_after(value, reply.now_ms));
    }
    error
}

fn classify(config: &ProviderConfig, status: u16, detail: &str) -> ErrorKind {
    match status {
        401 => ErrorKind::Auth,
        403 if url::is_local(config.base()) || mentions_origin(detail) => ErrorKind::OriginRejected,
        403 => ErrorKind::Auth,
        404 => ErrorKind::NotFound,
        408 => ErrorKind::Timeout,
        429 => ErrorKind::RateLimited,
        // Gemini answers a wrong key with 400 INVALID_ARGUMENT "API key not valid".
        400 if says_key_invalid(detail) => ErrorKind::Auth,
        500..=599 => ErrorKind::Server,
        _ => ErrorKind::BadRequest,
    }
}

fn mentions_origin(detail: &str) -> bool {
    let lower = detail.to_ascii_lowercase();
    lower.contains("origin") || lower.contains("cors")
}

fn says_key_invalid(detail: &str) -> bool {
    let lower = detail.to_ascii_lowercase();
    lower.contains("api_key_invalid") || lower.contains("api key not valid")
}
