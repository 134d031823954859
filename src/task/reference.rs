//! Steps of a task's `reference_trajectory`: action text whose element is written
//! `{role 'name'}` instead of `[id]`, because ids only exist once a page is observed.
//!
//! Only the element argument of `click`, `hover` and `type` may be a target, and it
//! must come right after the action name: free-text arguments (typed text, answers)
//! may contain braces of their own, so braces anywhere else are left alone.
//! The name is quoted the way the observation prints names (Python's `repr`), so a
//! name can be copied from an observation line as it is: `'Tokyo'`, `"Rock 'n' roll"`.

use std::fmt;

use crate::action::{Action, ActionKind, ActionParseError};
use crate::observation::py_repr;

/// An element named by role and accessible name, e.g. `{link 'Tokyo'}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementTarget {
    pub role: String,
    pub name: String,
}

impl fmt::Display for ElementTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{} {}}}", self.role, py_repr(&self.name))
    }
}

/// One reference step split around its element target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceStep {
    /// The text before the target (the action name), or the whole step without one.
    before: String,
    target: Option<ElementTarget>,
    /// The text after the target's closing brace.
    after: String,
    kind: ActionKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error(
        "the element at column {column} is not closed by `}}`; write it as {{role 'name'}}, \
         e.g. click {{link 'Tokyo'}}"
    )]
    Unclosed { column: usize },
    #[error(
        "the element at column {column} must be a role, a space and the quoted name, \
         e.g. {{link 'Tokyo'}}: {problem}"
    )]
    BadTarget {
        column: usize,
        problem: &'static str,
    },
    #[error(
        "`{kind}` needs its element written as {{role 'name'}} (e.g. {kind} {{link 'Tokyo'}}), \
         not an [id]: ids are only known once the page is observed"
    )]
    IdInsteadOfTarget { kind: &'static str },
    #[error("`{kind}` takes no element; only click, hover and type do")]
    TargetNotAllowed { kind: &'static str },
    #[error("once its element is replaced by an id, the action does not parse: {0}")]
    Action(#[from] ActionParseError),
}

/// The id used to check that a step parses; any id would do.
const PLACEHOLDER_ID: u32 = 1;

impl ReferenceStep {
    /// Splits `text` around its target and checks that the result is a valid action
    /// once the target is replaced by an id (so a bad step is caught when the task is
    /// loaded, not in the middle of a replay).
    pub fn parse(text: &str) -> Result<ReferenceStep, ReferenceError> {
        let text = text.trim();
        let name_end = text
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
            .map_or(text.len(), |(i, _)| i);
        let after_name = &text[name_end..];
        let brace = name_end + (after_name.len() - after_name.trim_start().len());
        let step = if text[brace..].starts_with('{') {
            let (target, end) = parse_target(text, brace)?;
            ReferenceStep {
                before: text[..brace].to_string(),
                target: Some(target),
                after: text[end..].to_string(),
                kind: ActionKind::Stop,
            }
        } else {
            ReferenceStep {
                before: text.to_string(),
                target: None,
                after: String::new(),
                kind: ActionKind::Stop,
            }
        };
        // The kind is only known once the text parses; the placeholder above is
        // overwritten before the step leaves this function.
        let kind = step.action(PLACEHOLDER_ID)?.kind();
        let step = ReferenceStep { kind, ..step };
        let takes_element = matches!(
            kind,
            ActionKind::Click | ActionKind::Hover | ActionKind::Type
        );
        match (&step.target, takes_element) {
            (None, true) => Err(ReferenceError::IdInsteadOfTarget { kind: kind.name() }),
            (Some(_), false) => Err(ReferenceError::TargetNotAllowed { kind: kind.name() }),
            _ => Ok(step),
        }
    }

    pub fn kind(&self) -> ActionKind {
        self.kind
    }

    pub fn target(&self) -> Option<&ElementTarget> {
        self.target.as_ref()
    }

    /// The action text with the target replaced by `[id]` (unchanged without a target).
    pub fn with_id(&self, id: u32) -> String {
        match self.target {
            Some(_) => format!("{}[{id}]{}", self.before, self.after),
            None => self.before.clone(),
        }
    }

    /// The action with the target replaced by `id`.
    pub fn action(&self, id: u32) -> Result<Action, ActionParseError> {
        Action::parse(&self.with_id(id))
    }
}

/// Reads `{role 'name'}` starting at the `{` at byte `open`; returns the target and
/// the byte just after the closing `}`.
fn parse_target(text: &str, open: usize) -> Result<(ElementTarget, usize), ReferenceError> {
    let column = open + 1;
    let bad = |problem| ReferenceError::BadTarget { column, problem };
    let inner = &text[open + 1..];
    let role_start = inner.len() - inner.trim_start().len();
    let role_len = inner[role_start..]
        .find(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '}'))
        .unwrap_or(inner.len() - role_start);
    if role_len == 0 {
        return Err(bad("the role is missing"));
    }
    let role = &inner[role_start..role_start + role_len];
    let rest = &inner[role_start + role_len..];
    let quoted = rest.trim_start();
    let Some(quote) = quoted.chars().next().filter(|c| matches!(c, '\'' | '"')) else {
        return match quoted.is_empty() {
            true => Err(ReferenceError::Unclosed { column }),
            false => Err(bad("the name must be in quotes")),
        };
    };
    let (name, used) = unquote(&quoted[1..], quote).map_err(|problem| match problem {
        Unquote::Unclosed => ReferenceError::Unclosed { column },
        Unquote::BadEscape => {
            bad("the name has a `\\x`, `\\u` or `\\U` escape without valid hex digits")
        }
    })?;
    let tail = &quoted[1 + used..];
    let close = tail.len() - tail.trim_start().len();
    if !tail[close..].starts_with('}') {
        return match tail.trim().is_empty() {
            true => Err(ReferenceError::Unclosed { column }),
            false => Err(bad(
                "only the role and one quoted name go inside the braces",
            )),
        };
    }
    let end = text.len() - tail.len() + close + 1;
    let target = ElementTarget {
        role: role.to_string(),
        name,
    };
    Ok((target, end))
}

/// Reads a Python-style quoted string body up to its closing `quote`, undoing the
/// escapes `repr` writes. Returns the text and the bytes used, closing quote included.
fn unquote(body: &str, quote: char) -> Result<(String, usize), Unquote> {
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c == quote => return Ok((out, i + c.len_utf8())),
            '\\' => {
                let (_, escaped) = chars.next().ok_or(Unquote::Unclosed)?;
                match escaped {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'x' | 'u' | 'U' => {
                        let digits = match escaped {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = chars.by_ref().take(digits).map(|(_, c)| c).collect();
                        let code = u32::from_str_radix(&hex, 16).map_err(|_| Unquote::BadEscape)?;
                        out.push(char::from_u32(code).ok_or(Unquote::BadEscape)?);
                    }
                    // `\\`, `\'` and `\"` stand for the character itself; Python keeps
                    // the backslash of any other escape, and so do we.
                    '\\' | '\'' | '"' => out.push(escaped),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            c => out.push(c),
        }
    }
    Err(Unquote::Unclosed)
}

enum Unquote {
    Unclosed,
    BadEscape,
}

#[cfg(test)]
#[path = "reference_tests.rs"]
mod tests;
