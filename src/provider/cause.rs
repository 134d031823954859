//! Failures whose cause the server names in its own words, whatever HTTP status it
//! sends them with: llama-server answers images sent to a text-only model with a 500,
//! OpenRouter with a 404, OpenAI with a 400. The status alone would call the first a
//! passing server fault and the second a wrong URL; the words say what to change.
//!
//! Every phrase here is one a real server sends (sources in
//! `tests/provider_replies/README.md`, one fixture each). Matching is on the error's
//! message written as a string and its `code` / `type` fields, never on the whole
//! body, so a server that echoes the request back cannot trigger a match with words
//! from the page.

use super::error_body::ErrorBody;

/// What the server's words say went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The model cannot take the images that were sent.
    UnsupportedInput,
    /// The prompt does not fit the model's context; the sizes when the words give them.
    ContextOverflow {
        prompt_tokens: Option<u64>,
        context_tokens: Option<u64>,
    },
}

/// Phrases of servers refusing image parts, lower-cased.
const IMAGES_REFUSED: &[&str] = &[
    // llama.cpp's llama-server without a multimodal projector (HTTP 500).
    "image input is not supported",
    // OpenAI, for a model without vision (HTTP 400).
    "image_url is only supported by certain models",
    // vLLM serving a text-only model (HTTP 400).
    "is not a multimodal model",
    // Ollama, for a model without a vision part.
    "missing data required for image input",
    // LM Studio (`{"error": "..."}`).
    "model does not support images",
    // OpenRouter when no provider of the model reads images (HTTP 404).
    "no endpoints found that support image input",
];

/// Phrases of servers refusing a prompt longer than the context, lower-cased.
const CONTEXT_EXCEEDED: &[&str] = &[
    // llama-server: "request (N tokens) exceeds the available context size (M tokens)".
    "exceeds the available context size",
    // OpenAI, vLLM (all versions), DeepSeek, OpenRouter: "... maximum context length is M tokens ...".
    "maximum context length is",
    // vLLM's newest wording: "However, the model's context length is only M tokens".
    "context length is only",
    // Anthropic: "prompt is too long: N tokens > M maximum".
    "prompt is too long:",
    // Gemini: "The input token count (N) exceeds the maximum number of tokens allowed (M)."
    "exceeds the maximum number of tokens allowed",
    // LM Studio: "... the model is loaded with context length of only M tokens, which is not enough."
    "loaded with context length of only",
];

/// Where the prompt's size follows (`after`) or precedes (`before`) in the wordings above.
const PROMPT_AFTER: &[&str] = &[
    "request (",                 // llama-server
    "resulted in ",              // OpenAI: "your messages resulted in N tokens"
    "your request has ",         // vLLM 0.10 to 0.17
    "prompt contains at least ", // vLLM 0.18 on, when it stopped counting
    "prompt contains ",          // vLLM 0.18 on
    "you passed ",               // vLLM's newest
    "prompt is too long: ",      // Anthropic
    "input token count (",       // Gemini
];
/// Sizes written just before these: "(N in the messages, M in the completion)" and
/// "you requested N tokens in the messages" (OpenAI's older wording and vLLM's).
const PROMPT_BEFORE: &[&str] = &[" in the messages", " tokens in the messages"];
const CONTEXT_AFTER: &[&str] = &[
    "available context size (",           // llama-server
    "maximum context length is ",         // OpenAI, vLLM
    "context length is only ",            // vLLM's newest
    "context length of only ",            // LM Studio
    "tokens > ",                          // Anthropic
    "maximum number of tokens allowed (", // Gemini
];

/// The cause the body names, if it names one.
pub fn recognise(body: &ErrorBody) -> Option<Cause> {
    let text = body
        .words
        .as_deref()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let says = |phrases: &[&str]| phrases.iter().any(|p| text.contains(p));
    if says(IMAGES_REFUSED) {
        return Some(Cause::UnsupportedInput);
    }
    let overflow = body.kind.as_deref() == Some("exceed_context_size_error")
        || body.code.as_deref() == Some("context_length_exceeded")
        || says(CONTEXT_EXCEEDED);
    overflow.then(|| Cause::ContextOverflow {
        prompt_tokens: body.prompt_tokens.or_else(|| prompt_size(&text)),
        context_tokens: body.context_tokens.or_else(|| context_size(&text)),
    })
}

/// The sizes as a sentence for the error's message, or `None` when none is known.
/// A prompt smaller than the context still overflows when the reply's allowance (max
/// tokens) is added; the sentence says so rather than look like a contradiction.
pub fn sizes_sentence(prompt_tokens: Option<u64>, context_tokens: Option<u64>) -> Option<String> {
    Some(match (prompt_tokens, context_tokens) {
        (Some(prompt), Some(context)) if prompt < context => format!(
            "The prompt is {prompt} tokens and the model's context holds {context}, which \
             leaves too little room for the reply (max tokens)."
        ),
        (Some(prompt), Some(context)) => {
            format!("The prompt is {prompt} tokens; the model's context holds {context}.")
        }
        (Some(prompt), None) => {
            format!("The prompt is {prompt} tokens, more than the model's context.")
        }
        (None, Some(context)) => format!("The model's context holds {context} tokens."),
        (None, None) => return None,
    })
}

fn prompt_size(text: &str) -> Option<u64> {
    PROMPT_AFTER
        .iter()
        .find_map(|marker| number_after(text, marker))
        .or_else(|| {
            PROMPT_BEFORE
                .iter()
                .find_map(|marker| number_before(text, marker))
        })
}

fn context_size(text: &str) -> Option<u64> {
    CONTEXT_AFTER
        .iter()
        .find_map(|marker| number_after(text, marker))
}

/// The whole number that starts right after `marker`.
fn number_after(text: &str, marker: &str) -> Option<u64> {
    let at = text.find(marker)? + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The whole number that ends right before `marker`.
fn number_before(text: &str, marker: &str) -> Option<u64> {
    let head = &text[..text.find(marker)?];
    let start = head
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    head[start..].parse().ok()
}
