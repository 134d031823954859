//! The human part of an error body, and the few fields beside it that name a cause.
//! The three APIs send `{"error": {"message": ..}}`; OpenAI-compatible servers vary:
//! Ollama and LM Studio send `{"error": "text"}`, FastAPI-based servers (older vLLM)
//! `{"detail": ...}` or a flat `{"message": ...}`, others plain text or nothing at all.

use serde_json::Value;

/// Longest detail kept in a message: error bodies can be whole HTML pages.
const MAX_DETAIL_CHARS: usize = 300;

/// What an error body says, read once for the message and for [`super::cause`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ErrorBody {
    /// The server's own words on one line, whole (not shortened); `None` when empty.
    /// A structured `detail` (FastAPI's list of field errors) is written as JSON.
    pub text: Option<String>,
    /// The message when the server wrote it as a string, the only text a cause is
    /// read from: structured details and plain-text bodies may quote the request, and
    /// with it the page's own words.
    pub words: Option<String>,
    /// A string `code` of the error object (OpenAI's `context_length_exceeded`).
    /// Numeric codes are HTTP statuses and say nothing the status does not.
    pub code: Option<String>,
    /// The error object's `type` (llama.cpp's `exceed_context_size_error`).
    pub kind: Option<String>,
    /// llama.cpp's `n_prompt_tokens` beside a context overflow.
    pub prompt_tokens: Option<u64>,
    /// llama.cpp's `n_ctx` beside a context overflow.
    pub context_tokens: Option<u64>,
}

impl ErrorBody {
    /// The words shortened for a one-line message.
    pub fn detail(&self) -> Option<String> {
        self.text.as_deref().map(shorten)
    }
}

/// Reads a non-2xx body.
pub fn read(body: &str) -> ErrorBody {
    match crate::json_read::from_str::<Value>(body) {
        Ok(json) => {
            let mut read = from_json(&json);
            if read.text.is_none() {
                read.text = one_line(body);
            }
            read
        }
        Err(_) => ErrorBody {
            text: one_line(body),
            ..ErrorBody::default()
        },
    }
}

/// Reads an error object found inside a 2xx reply (some gateways send one).
pub fn from_error_object(error: &Value) -> ErrorBody {
    from_json(&serde_json::json!({ "error": error }))
}

fn from_json(json: &Value) -> ErrorBody {
    // Gemini and some gateways wrap the body in a one-element array.
    let json = match json {
        Value::Array(items) => match items.first() {
            Some(first) => first,
            None => return ErrorBody::default(),
        },
        other => other,
    };
    let error = json.get("error");
    let object = error.filter(|e| e.is_object());
    let field = |name: &str| object.and_then(|e| e.get(name));
    let message = field("message")
        .or(error.filter(|e| e.is_string()))
        .or_else(|| json.get("message"))
        .or_else(|| json.get("detail"));
    let words = message.and_then(Value::as_str).and_then(one_line);
    let text = message.and_then(|message| {
        let text = match message {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        // Gemini's reason (e.g. API_KEY_INVALID) says more than its status text.
        let reason = field("details")
            .and_then(Value::as_array)
            .and_then(|details| details.iter().find_map(|d| d.get("reason")?.as_str()));
        let text = match reason {
            Some(reason) if !text.contains(reason) => format!("{text} ({reason})"),
            _ => text,
        };
        one_line(&text)
    });
    ErrorBody {
        text,
        words,
        code: field("code").and_then(Value::as_str).map(str::to_string),
        kind: field("type").and_then(Value::as_str).map(str::to_string),
        prompt_tokens: field("n_prompt_tokens").and_then(Value::as_u64),
        context_tokens: field("n_ctx").and_then(Value::as_u64),
    }
}

fn one_line(text: &str) -> Option<String> {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!line.is_empty()).then_some(line)
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_DETAIL_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_DETAIL_CHARS).collect();
    format!("{cut}…")
}
