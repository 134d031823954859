//! The human part of an error body. The three APIs send `{"error": {"message": ..}}`;
//! OpenAI-compatible servers vary: Ollama sends `{"error": "text"}`, FastAPI-based
//! servers (vLLM) `{"detail": ...}`, others plain text or nothing at all.

use serde_json::Value;

/// Longest detail kept: error bodies can be whole HTML pages.
const MAX_DETAIL_CHARS: usize = 300;

/// The server's own words about the error, on one line, or `None` for an empty body.
pub fn detail(body: &str) -> Option<String> {
    let text = match crate::json_read::from_str::<Value>(body) {
        Ok(json) => from_json(&json).unwrap_or_else(|| body.to_string()),
        Err(_) => body.to_string(),
    };
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        return None;
    }
    Some(shorten(&one_line))
}

fn from_json(json: &Value) -> Option<String> {
    // Gemini and some gateways wrap the body in a one-element array.
    let json = match json {
        Value::Array(items) => items.first()?,
        other => other,
    };
    let error = json.get("error");
    let message = error
        .and_then(|e| e.get("message"))
        .or(error.filter(|e| e.is_string()))
        .or_else(|| json.get("message"))
        .or_else(|| json.get("detail"))?;
    let text = match message {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    // Gemini's reason (e.g. API_KEY_INVALID) says more than its status text.
    let reason = error
        .and_then(|e| e.get("details"))
        .and_then(Value::as_array)
        .and_then(|details| details.iter().find_map(|d| d.get("reason")?.as_str()));
    Some(match reason {
        Some(reason) if !text.contains(reason) => format!("{text} ({reason})"),
        _ => text,
    })
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_DETAIL_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_DETAIL_CHARS).collect();
    format!("{cut}…")
}
