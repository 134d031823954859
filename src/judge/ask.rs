//! Asking a judge model: the request it gets and how its reply is read. Our own
//! wording: the reference and the answer on lines of their own (so neither can be
//! mistaken for the instructions), and a one-word reply.

use super::JudgeRequest;
use crate::model::{Message, ModelRequest, Part, Role};

/// The judge's instructions; also how a fake server in the tests recognises a judge call.
pub const JUDGE_SYSTEM_PROMPT: &str = "You grade the answers of a web-browsing agent. \
You get a reference and the agent's answer. Decide whether the answer states the reference \
or something that means the same: other wording, units written differently and extra detail \
are fine; a different value, a contradiction or a missing part is not. \
Reply with one word: yes or no.";

/// The model request for one question. `temperature` and `max_tokens` come from the
/// judge's settings (thinking models spend tokens before the first visible word, so
/// the limit is the person's to choose).
pub fn judge_request(request: &JudgeRequest, temperature: f32, max_tokens: u32) -> ModelRequest {
    let user = format!(
        "Reference:\n{reference}\n\nAnswer:\n{answer}\n\nDoes the answer state the reference? \
         Reply yes or no.",
        reference = one_block(&request.reference),
        answer = one_block(&request.answer),
    );
    ModelRequest {
        system: JUDGE_SYSTEM_PROMPT.to_string(),
        messages: vec![Message {
            role: Role::User,
            parts: vec![Part::text(user)],
        }],
        temperature,
        max_tokens,
        agent: None,
    }
}

/// Blank lines would let a text end its block early; an empty one is shown as such.
fn one_block(text: &str) -> String {
    let joined = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    if joined.is_empty() {
        "(empty)".to_string()
    } else {
        joined
    }
}

/// Reads a judge's reply: `yes` or `no` as its first word ("Yes.", "**No**", "yes,
/// because ..."), or else as its last ("The answer matches. Yes"). A reasoning block
/// (`<think>...</think>`, as some local models print) is skipped. Anything else is
/// an error quoting the reply: a guess would be a silent pass or fail.
pub fn read_verdict(reply: &str) -> Result<bool, String> {
    let visible = without_thinking(reply);
    let words: Vec<String> = visible
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let verdict = |word: Option<&String>| match word.map(String::as_str) {
        Some("yes") => Some(true),
        Some("no") => Some(false),
        _ => None,
    };
    if let Some(v) = verdict(words.first()).or_else(|| verdict(words.last())) {
        return Ok(v);
    }
    if words.is_empty() {
        return Err("the judge replied with no words".to_string());
    }
    Err(format!(
        "the judge's reply is neither yes nor no: {:?}",
        shorten(visible.trim(), 120)
    ))
}

/// The reply without `<think>...</think>` blocks (an unclosed one hides the rest).
fn without_thinking(reply: &str) -> String {
    let mut out = String::new();
    let mut rest = reply;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let cut: String = text.chars().take(max_chars).collect();
    format!("{cut}…")
}
