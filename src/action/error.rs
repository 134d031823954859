//! Parse errors for the action language.
//!
//! Every message names what is wrong, where (1-based byte column in the text
//! given to the parser, plus the offending token), and the expected format, because
//! the message is fed back to the model so it can correct itself.

use thiserror::Error;

use super::types::{all_usages, ActionKind};

/// Why a piece of text is not a valid action. Columns are 1-based byte offsets.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionParseError {
    #[error("empty action (expected one of: {})", all_usages())]
    Empty,

    #[error(
        "expected an action name at column {column}, found `{found}` (expected one of: {})",
        all_usages()
    )]
    ExpectedActionName { found: String, column: usize },

    #[error(
        "unknown action `{name}` at column {column}{} (expected one of: {})",
        did_you_mean(*.suggestion),
        all_usages()
    )]
    UnknownAction {
        name: String,
        column: usize,
        suggestion: Option<&'static str>,
    },

    #[error(
        "missing {argument} for `{}` at column {column} (expected `{}`)",
        .kind.name(),
        .kind.usage()
    )]
    MissingArgument {
        kind: ActionKind,
        argument: &'static str,
        column: usize,
    },

    #[error(
        "expected `[` to open the {argument} of `{}` at column {column}, found `{found}` (expected `{}`)",
        .kind.name(),
        .kind.usage()
    )]
    ExpectedBracket {
        kind: ActionKind,
        argument: &'static str,
        found: String,
        column: usize,
    },

    #[error(
        "unbalanced bracket in `{}`: `[` at column {column} is never closed by `]` (expected `{}`)",
        .kind.name(),
        .kind.usage()
    )]
    UnbalancedBracket { kind: ActionKind, column: usize },

    #[error(
        "id `{token}` at column {column} is not a number: element ids are whole numbers such as 42 (expected `{}`)",
        .kind.usage()
    )]
    InvalidId {
        kind: ActionKind,
        token: String,
        column: usize,
    },

    #[error(
        "tab index `{token}` at column {column} is not a non-negative whole number (expected `tab_focus [index]`, e.g. `tab_focus [0]`)"
    )]
    InvalidTabIndex { token: String, column: usize },

    #[error(
        "bad scroll direction `{token}` at column {column}: expected up or down (expected `scroll [up|down]`, e.g. `scroll [down]`)"
    )]
    InvalidScrollDirection { token: String, column: usize },

    #[error(
        "enter flag `{token}` at column {column} must be 1 (press Enter after typing) or 0 (do not) (expected `type [id] [text] [1|0]`)"
    )]
    InvalidEnterFlag { token: String, column: usize },

    #[error(
        "unknown key `{key}` in `press` at column {column}{} (expected `press [key_comb]`: {KEY_HELP})",
        did_you_mean(*.suggestion)
    )]
    UnknownKey {
        key: String,
        column: usize,
        suggestion: Option<&'static str>,
    },

    #[error(
        "bad key combination `{combo}` in `press` at column {column}: {problem} (expected `press [key_comb]`: {KEY_HELP})"
    )]
    MalformedKeyCombo {
        combo: String,
        problem: String,
        column: usize,
    },

    #[error(
        "unexpected text `{text}` after the `{}` action at column {column} (expected `{}`)",
        .kind.name(),
        .kind.usage()
    )]
    UnexpectedText {
        kind: ActionKind,
        text: String,
        column: usize,
    },
}

impl ActionParseError {
    /// The 1-based byte column the error points at, if it points anywhere.
    pub fn column(&self) -> Option<usize> {
        match self {
            ActionParseError::Empty => None,
            ActionParseError::ExpectedActionName { column, .. }
            | ActionParseError::UnknownAction { column, .. }
            | ActionParseError::MissingArgument { column, .. }
            | ActionParseError::ExpectedBracket { column, .. }
            | ActionParseError::UnbalancedBracket { column, .. }
            | ActionParseError::InvalidId { column, .. }
            | ActionParseError::InvalidTabIndex { column, .. }
            | ActionParseError::InvalidScrollDirection { column, .. }
            | ActionParseError::InvalidEnterFlag { column, .. }
            | ActionParseError::UnknownKey { column, .. }
            | ActionParseError::MalformedKeyCombo { column, .. }
            | ActionParseError::UnexpectedText { column, .. } => Some(*column),
        }
    }

    /// Moves every column right by `by` bytes; used when a sub-parser (the key
    /// combination) reports columns relative to its own slice.
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        match &mut self {
            ActionParseError::Empty => {}
            ActionParseError::ExpectedActionName { column, .. }
            | ActionParseError::UnknownAction { column, .. }
            | ActionParseError::MissingArgument { column, .. }
            | ActionParseError::ExpectedBracket { column, .. }
            | ActionParseError::UnbalancedBracket { column, .. }
            | ActionParseError::InvalidId { column, .. }
            | ActionParseError::InvalidTabIndex { column, .. }
            | ActionParseError::InvalidScrollDirection { column, .. }
            | ActionParseError::InvalidEnterFlag { column, .. }
            | ActionParseError::UnknownKey { column, .. }
            | ActionParseError::MalformedKeyCombo { column, .. }
            | ActionParseError::UnexpectedText { column, .. } => *column += by,
        }
        self
    }
}

const KEY_HELP: &str = "modifiers Control, Shift, Alt, Meta joined with `+`, ending in one key: \
a single character or Enter, Tab, Escape, Backspace, Delete, ArrowUp, ArrowDown, ArrowLeft, \
ArrowRight, Home, End, PageUp, PageDown, Space, Insert, F1-F12; e.g. `press [Control+v]`";

fn did_you_mean(suggestion: Option<&'static str>) -> String {
    match suggestion {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    }
}
