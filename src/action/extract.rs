//! Finding the one action in a model's free-form reply.
//!
//! Rules, first match wins:
//! (a) If the reply says "the next action I will perform is" (any case), the action is
//!     the first ```fenced``` block after the last such phrase. Without a fence there,
//!     a `single-backtick` span after the phrase is used, then the rest of that line
//!     if it parses; if none of these exists, rules (b) and (c) apply.
//! (b) Otherwise the LAST fenced block whose content parses, because models often put
//!     other code (HTML, JSON) in earlier fences. If none parses, the last block's error.
//! (c) Without any fence, the whole reply, trimmed, if it is exactly one action.
//!
//! Any candidate in which several lines each parse as an action is refused
//! (`SeveralActions`): free text runs to the last `]`, so `stop [a]\nstop [b]`
//! would otherwise read as one answer.

use thiserror::Error;

use super::error::{ActionParseError, ParseErrorKind};
use super::types::{all_usages, Action};

const PHRASE: &str = "the next action i will perform is";
const FENCE: &str = "```";

/// An action found in a reply, with the text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedAction {
    /// The action text as found (trimmed), e.g. `click [3]`.
    pub raw: String,
    pub action: Action,
}

/// Why no action could be taken from a reply. The messages are written to be sent
/// back to the model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExtractError {
    #[error("{}", no_action_message(.parse_error))]
    NoAction {
        /// Why the reply, when it is a single line without fences, did not read as an action.
        parse_error: Option<ActionParseError>,
    },

    #[error(
        "the fenced block with the action is empty; put exactly one action inside it, e.g. ```click [1234]```"
    )]
    EmptyFence,

    #[error("the action `{raw}` does not parse: {source}")]
    Unparseable {
        raw: String,
        #[source]
        source: ActionParseError,
    },

    #[error(
        "the reply holds {count} actions, one per line; give exactly one action per step, e.g. ```click [1234]```"
    )]
    SeveralActions { count: usize },
}

/// One grammar listing per message: a parse error already shows the expected format.
fn no_action_message(parse_error: &Option<ActionParseError>) -> String {
    let advice = "end the reply with exactly one action in a fenced block, e.g. \
                  In summary, the next action I will perform is ```click [1234]```";
    match parse_error {
        Some(e) => format!("no action found in the reply: {e}; {advice}"),
        None => format!(
            "no action found in the reply; {advice}; valid actions: {}",
            all_usages()
        ),
    }
}

/// Takes the single action out of a model reply; see the module docs for the rules.
pub fn extract_action(reply: &str) -> Result<ExtractedAction, ExtractError> {
    // ASCII lower-casing keeps byte offsets, so positions found here index `reply`.
    let lower = reply.to_ascii_lowercase();
    if let Some(at) = lower.rfind(PHRASE) {
        if let Some(found) = after_phrase(&reply[at + PHRASE.len()..]) {
            return found;
        }
    }
    let blocks = fenced_blocks(reply);
    if let Some(last) = blocks.last() {
        for block in blocks.iter().rev() {
            if let Ok(found) = parse_one(block) {
                return Ok(found);
            }
        }
        return parse_one(last);
    }
    let whole = reply.trim();
    match parse_one(whole) {
        Ok(found) => Ok(found),
        // A one-line reply that starts like an action gets the parser's explanation;
        // for plain prose ("I am not sure") that explanation would only confuse.
        Err(ExtractError::Unparseable { source, .. })
            if !whole.contains('\n') && looks_like_an_attempt(&source) =>
        {
            Err(ExtractError::NoAction {
                parse_error: Some(source),
            })
        }
        Err(ExtractError::SeveralActions { count }) => Err(ExtractError::SeveralActions { count }),
        Err(_) => Err(ExtractError::NoAction { parse_error: None }),
    }
}

/// True unless the text did not even begin with (something close to) an action name.
fn looks_like_an_attempt(error: &ActionParseError) -> bool {
    match &error.kind {
        ParseErrorKind::UnknownAction { suggestion, .. } => suggestion.is_some(),
        ParseErrorKind::Empty | ParseErrorKind::ExpectedActionName { .. } => false,
        _ => true,
    }
}

/// Rule (a): what follows the summary phrase. `None` when nothing there looks like an action.
fn after_phrase(tail: &str) -> Option<Result<ExtractedAction, ExtractError>> {
    if let Some(block) = fenced_blocks(tail).first() {
        return Some(parse_one(block));
    }
    if let Some(span) = backtick_span(tail) {
        return Some(parse_one(span));
    }
    // Plain prose: "... the next action I will perform is click [3]." Only accepted
    // if it parses, since the sentence may go on in words.
    let line = tail.lines().next().unwrap_or("").trim();
    let line = line.strip_prefix(':').unwrap_or(line);
    let line = line.strip_suffix('.').unwrap_or(line).trim();
    parse_one(line).ok().map(Ok)
}

/// The content of each ```fenced``` block, in order. A language tag on the opening
/// line (```text) is dropped. An unclosed last fence runs to the end of the reply,
/// since replies are sometimes cut off by a stop sequence.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(FENCE) {
        let after = &rest[open + FENCE.len()..];
        let (content, next) = match after.find(FENCE) {
            Some(close) => (&after[..close], &after[close + FENCE.len()..]),
            None => (after, ""),
        };
        blocks.push(drop_language_tag(content));
        rest = next;
    }
    blocks
}

/// ```text\nclick [3]\n``` holds `click [3]`; ```go_back``` holds `go_back`.
/// The first line is a tag only if it is one word and more lines follow.
fn drop_language_tag(content: &str) -> &str {
    if let Some((first, rest)) = content.split_once('\n') {
        let first = first.trim();
        let is_tag = !first.is_empty()
            && first
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '.'));
        if is_tag && !rest.trim().is_empty() {
            return rest;
        }
    }
    content
}

/// The first `single-backtick` span.
fn backtick_span(text: &str) -> Option<&str> {
    let open = text.find('`')?;
    let after = &text[open + 1..];
    let close = after.find('`')?;
    Some(&after[..close])
}

/// Parses one candidate text as exactly one action.
fn parse_one(candidate: &str) -> Result<ExtractedAction, ExtractError> {
    let raw = candidate.trim();
    if raw.is_empty() {
        return Err(ExtractError::EmptyFence);
    }
    // Free-text arguments run to the last `]`, so `stop [a]\nstop [b]` would read as
    // one answer; refuse text in which several lines are each an action.
    if raw.contains('\n') {
        let count = raw
            .lines()
            .filter(|l| !l.trim().is_empty() && Action::parse(l).is_ok())
            .count();
        if count > 1 {
            return Err(ExtractError::SeveralActions { count });
        }
    }
    match Action::parse(raw) {
        Ok(action) => Ok(ExtractedAction {
            raw: raw.to_string(),
            action,
        }),
        Err(source) => Err(ExtractError::Unparseable {
            raw: raw.to_string(),
            source,
        }),
    }
}
