//! Parse errors for the action language.
//!
//! Every message names what is wrong, where (1-based byte column in the text
//! given to the parser, plus the offending token), and the expected format, because
//! the message is fed back to the model so it can correct itself.

use thiserror::Error;

use super::types::{all_usages, ActionKind};

/// Why a piece of text is not a valid action: what is wrong and the 1-based byte
/// column it points at (none for an empty text).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", .kind.message(*.column))]
pub struct ActionParseError {
    pub(crate) column: Option<usize>,
    pub kind: ParseErrorKind,
}

impl ActionParseError {
    /// The 1-based byte column the error points at, if it points anywhere.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// Moves the column right by `by` bytes; used when a sub-parser (the key
    /// combination) reports columns relative to its own slice.
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        self.column = self.column.map(|c| c + by);
        self
    }
}

/// What is wrong with an action's text. Each message names the offending token and the
/// expected format; the column comes from `ActionParseError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    Empty,
    ExpectedActionName {
        found: String,
    },
    UnknownAction {
        name: String,
        suggestion: Option<&'static str>,
    },
    MissingArgument {
        kind: ActionKind,
        argument: &'static str,
    },
    ExpectedBracket {
        kind: ActionKind,
        argument: &'static str,
        found: String,
    },
    UnbalancedBracket {
        kind: ActionKind,
    },
    InvalidId {
        kind: ActionKind,
        token: String,
    },
    InvalidTabIndex {
        token: String,
    },
    InvalidScrollDirection {
        token: String,
    },
    InvalidEnterFlag {
        token: String,
    },
    UnknownKey {
        key: String,
        suggestion: Option<&'static str>,
    },
    MalformedKeyCombo {
        combo: String,
        problem: String,
    },
    UnexpectedText {
        kind: ActionKind,
        text: String,
    },
}

impl ParseErrorKind {
    /// The message, pointing at `column` (every kind but `Empty` has one).
    fn message(&self, column: Option<usize>) -> String {
        let column = column.unwrap_or(1);
        match self {
            ParseErrorKind::Empty => format!("empty action (expected one of: {})", all_usages()),
            ParseErrorKind::ExpectedActionName { found } => format!("expected an action name at column {column}, found `{found}` (expected one of: {})", all_usages()),
            ParseErrorKind::UnknownAction { name, suggestion } => format!("unknown action `{name}` at column {column}{} (expected one of: {})", did_you_mean(*suggestion), all_usages()),
            ParseErrorKind::MissingArgument { kind, argument } => format!("missing {argument} for `{}` at column {column} (expected `{}`)", kind.name(), kind.usage()),
            ParseErrorKind::ExpectedBracket { kind, argument, found } => format!("expected `[` to open the {argument} of `{}` at column {column}, found `{found}` (expected `{}`)", kind.name(), kind.usage()),
            ParseErrorKind::UnbalancedBracket { kind } => format!("unbalanced bracket in `{}`: `[` at column {column} is never closed by `]` (expected `{}`)", kind.name(), kind.usage()),
            ParseErrorKind::InvalidId { kind, token } => format!("id `{token}` at column {column} is not a number: element ids are whole numbers such as 42 (expected `{}`)", kind.usage()),
            ParseErrorKind::InvalidTabIndex { token } => format!("tab index `{token}` at column {column} is not a non-negative whole number (expected `tab_focus [index]`, e.g. `tab_focus [0]`)"),
            ParseErrorKind::InvalidScrollDirection { token } => format!("bad scroll direction `{token}` at column {column}: expected up or down (expected `scroll [up|down]`, e.g. `scroll [down]`)"),
            ParseErrorKind::InvalidEnterFlag { token } => format!("enter flag `{token}` at column {column} must be 1 (press Enter after typing) or 0 (do not) (expected `type [id] [text] [1|0]`)"),
            ParseErrorKind::UnknownKey { key, suggestion } => format!("unknown key `{key}` in `press` at column {column}{} (expected `press [key_comb]`: {KEY_HELP})", did_you_mean(*suggestion)),
            ParseErrorKind::MalformedKeyCombo { combo, problem } => format!("bad key combination `{combo}` in `press` at column {column}: {problem} (expected `press [key_comb]`: {KEY_HELP})"),
            ParseErrorKind::UnexpectedText { kind, text } => format!("unexpected text `{text}` after the `{}` action at column {column} (expected `{}`)", kind.name(), kind.usage()),
        }
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
