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
//! (d) Otherwise the LAST `single-backtick` span that parses: models that drop the
//!     summary phrase still quote their action, as MMInA's parser expects ("The page
//!     shows a search box. `click [21]`"). When none parses, the error quotes the span
//!     that came closest (the last one that starts like an action, else the last one),
//!     so the model sees what it wrote.
//!
//! Any candidate in which several lines each parse as an action is refused
//! (`SeveralActions`): free text runs to the last `]`, so `stop [a]\nstop [b]`
//! would otherwise read as one answer.
//!
//! The messages are sent back to the model, so their examples never hold a number a
//! model could take for an element of the page and copy back: the id is written `ID`.

use thiserror::Error;

use super::error::{ActionParseError, ParseErrorKind};
use super::types::{all_usages, Action};

const PHRASE: &str = "the next action i will perform is";
const FENCE: &str = "```";
/// The action format with a placeholder id, for the messages.
const EXAMPLE: &str = "```click [ID]```";
/// What the placeholder stands for.
const ID_MEANS: &str = "ID being the number in brackets before an element of the observation";
/// Longest span quoted back in a message: a reply may put a whole paragraph in backticks.
const MAX_QUOTE_CHARS: usize = 80;

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

    #[error("the fenced block with the action is empty; put exactly one action inside it, e.g. {EXAMPLE}")]
    EmptyFence,

    #[error("the action `{raw}` does not parse: {source}")]
    Unparseable {
        raw: String,
        #[source]
        source: ActionParseError,
    },

    #[error(
        "the reply holds {count} actions, one per line; give exactly one action per step, e.g. {EXAMPLE}"
    )]
    SeveralActions { count: usize },

    /// Rule (d) found text in backticks, none of it an action or anything like one.
    #[error("{}", not_an_action_message(.span))]
    NotAnAction {
        /// The last backtick span, as written (shortened when long).
        span: String,
    },
}

/// One grammar listing per message: a parse error already shows the expected format.
fn no_action_message(parse_error: &Option<ActionParseError>) -> String {
    let advice = advice();
    match parse_error {
        Some(e) => format!("no action found in the reply: {e}; {advice}"),
        None => format!(
            "no action found in the reply; {advice}; valid actions: {}",
            all_usages()
        ),
    }
}

fn not_an_action_message(span: &str) -> String {
    format!(
        "no action found in the reply: the text in backticks, `{span}`, is not an action; {}; \
         valid actions: {}",
        advice(),
        all_usages()
    )
}

fn advice() -> String {
    format!(
        "end the reply with exactly one action in a fenced block, e.g. In summary, the \
         next action I will perform is {EXAMPLE}, {ID_MEANS}"
    )
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
    let whole_error = match parse_one(whole) {
        Ok(found) => return Ok(found),
        Err(error) => error,
    };
    if let Some(found) = in_backticks(whole) {
        return found;
    }
    match whole_error {
        // A one-line reply that starts like an action gets the parser's explanation;
        // for plain prose ("I am not sure") that explanation would only confuse.
        ExtractError::Unparseable { source, .. }
            if !whole.contains('\n') && looks_like_an_attempt(whole, &source) =>
        {
            Err(ExtractError::NoAction {
                parse_error: Some(source),
            })
        }
        ExtractError::SeveralActions { count } => Err(ExtractError::SeveralActions { count }),
        _ => Err(ExtractError::NoAction { parse_error: None }),
    }
}

/// Rule (d): the last backtick span that parses; without one, the error about the
/// span that came closest; `None` when the reply has no span at all.
fn in_backticks(reply: &str) -> Option<Result<ExtractedAction, ExtractError>> {
    let spans = backtick_spans(reply);
    let last = *spans.last()?;
    if let Some(found) = spans.iter().rev().find_map(|span| parse_one(span).ok()) {
        return Some(Ok(found));
    }
    // Spans lie within one line, so the only error left is that a span does not parse.
    let attempt = spans.iter().rev().find_map(|span| match parse_one(span) {
        Err(ExtractError::Unparseable { raw, source }) if looks_like_an_attempt(&raw, &source) => {
            Some(ExtractError::Unparseable { raw, source })
        }
        _ => None,
    });
    Some(Err(attempt.unwrap_or_else(|| ExtractError::NotAnAction {
        span: shorten(last.trim()),
    })))
}

/// True when the text begins with an action name, or with a near miss of one that
/// is used like one (`clik [3]`, `scrol`): a sentence that starts with a word close to
/// an action name ("The page ...", close to `type`) is prose, not an attempt.
fn looks_like_an_attempt(text: &str, error: &ActionParseError) -> bool {
    match &error.kind {
        ParseErrorKind::UnknownAction {
            name,
            suggestion: Some(_),
        } => {
            let after = error
                .column()
                .and_then(|column| text.get(column - 1 + name.len()..))
                .unwrap_or_default()
                .trim_start();
            after.is_empty() || after.starts_with('[')
        }
        ParseErrorKind::UnknownAction { .. }
        | ParseErrorKind::Empty
        | ParseErrorKind::ExpectedActionName { .. } => false,
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

/// Every non-blank `single-backtick` span, in order. Spans are paired within a line,
/// so a stray backtick on one line cannot shift the pairs of the lines after it.
fn backtick_spans(text: &str) -> Vec<&str> {
    text.lines()
        .flat_map(|line| {
            let pieces: Vec<&str> = line.split('`').collect();
            // Odd pieces sit between two backticks, unless the line's last one is unclosed.
            let closed = pieces.len().saturating_sub(1) / 2 * 2;
            pieces
                .into_iter()
                .take(closed + 1)
                .skip(1)
                .step_by(2)
                .filter(|span| !span.trim().is_empty())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_QUOTE_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_QUOTE_CHARS).collect();
    format!("{cut}…")
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
