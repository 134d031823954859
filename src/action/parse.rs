//! Reading action text (`click [12]`, `type [5] [a [b] c] [0]`, ...) into an [`Action`].
//!
//! Arguments are bracketed. Ids, indices, directions and flags are short, so their
//! bracket closes at the first `]`. Free text (`type` text, `press` key, `goto` url,
//! `stop` answer) may itself contain brackets, so it runs from its `[` to the LAST
//! `]` of the input; for `type`, a trailing `[0]`/`[1]` is split off first as the
//! enter flag. Columns in errors are 1-based byte offsets into the given text.

use std::str::FromStr;

use super::error::{ActionParseError, ParseErrorKind};
use super::key::KeyCombo;
use super::suggest::closest;
use super::types::{Action, ActionKind, ScrollDirection};

impl Action {
    /// Parses one action. Tolerates surrounding and inner whitespace and any case
    /// of the action name; see the module docs for how bracketed text is split.
    pub fn parse(input: &str) -> Result<Action, ActionParseError> {
        let end = input.trim_end().len();
        let start = end - input[..end].trim_start().len();
        if start == end {
            return Err(ActionParseError {
                column: None,
                kind: ParseErrorKind::Empty,
            });
        }
        let body = &input[..end];
        let name_len = body[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(end - start);
        if name_len == 0 {
            return Err(ActionParseError {
                column: Some(start + 1),
                kind: ParseErrorKind::ExpectedActionName {
                    found: token_at(body, start),
                },
            });
        }
        let name = &body[start..start + name_len];
        let Some(kind) = ActionKind::from_name(&name.to_ascii_lowercase()) else {
            return Err(ActionParseError {
                column: Some(start + 1),
                kind: ParseErrorKind::UnknownAction {
                    name: name.to_string(),
                    suggestion: closest(name, ActionKind::ALL.map(ActionKind::name)),
                },
            });
        };
        let mut args = Args {
            text: body,
            pos: start + name_len,
            kind,
        };
        let action = match kind {
            ActionKind::Click => Action::Click { id: args.id("id")? },
            ActionKind::Hover => Action::Hover { id: args.id("id")? },
            ActionKind::Type => return args.type_action(),
            ActionKind::Press => {
                let (combo, at) = args.free_text("key combination")?;
                if combo.trim().is_empty() {
                    return Err(args.missing("key combination", at));
                }
                let key_comb = KeyCombo::parse(combo).map_err(|e| e.shifted(at))?;
                Action::Press { key_comb }
            }
            ActionKind::Scroll => Action::Scroll {
                direction: args.direction()?,
            },
            ActionKind::TabFocus => Action::TabFocus {
                index: args.tab_index()?,
            },
            ActionKind::Goto => {
                let (url, at) = args.free_text("url")?;
                if url.trim().is_empty() {
                    return Err(args.missing("url", at));
                }
                Action::Goto {
                    url: url.trim().to_string(),
                }
            }
            ActionKind::Stop => {
                let (answer, _) = args.free_text("answer")?;
                Action::Stop {
                    answer: answer.trim().to_string(),
                }
            }
            ActionKind::NewTab => Action::NewTab,
            ActionKind::CloseTab => Action::CloseTab,
            ActionKind::GoBack => Action::GoBack,
            ActionKind::GoForward => Action::GoForward,
        };
        if matches!(
            kind,
            ActionKind::NewTab | ActionKind::CloseTab | ActionKind::GoBack | ActionKind::GoForward
        ) {
            // Models sometimes write `go_back []`; one empty pair carries no meaning, so allow it.
            args.optional_empty_brackets();
        }
        args.finish()?;
        Ok(action)
    }
}

impl FromStr for Action {
    type Err = ActionParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::parse(s)
    }
}

/// The whitespace-free run of text at `at`, shortened, for "found `...`" messages.
fn token_at(text: &str, at: usize) -> String {
    let rest = &text[at..];
    let token_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    shorten(&rest[..token_end])
}

/// Keeps messages readable when the model pasted a long tail.
fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() <= MAX_CHARS {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX_CHARS).collect();
        s.push('…');
        s
    }
}

/// Cursor over the argument part of one action (`text` is already trimmed at the end).
struct Args<'a> {
    text: &'a str,
    pos: usize,
    kind: ActionKind,
}

impl<'a> Args<'a> {
    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn missing(&self, argument: &'static str, at: usize) -> ActionParseError {
        ActionParseError {
            column: Some(at + 1),
            kind: ParseErrorKind::MissingArgument {
                kind: self.kind,
                argument,
            },
        }
    }

    /// Moves past the `[` that must open the next argument; returns its offset.
    fn open(&mut self, argument: &'static str) -> Result<usize, ActionParseError> {
        self.skip_ws();
        match self.text[self.pos..].chars().next() {
            None => Err(self.missing(argument, self.pos)),
            Some('[') => {
                self.pos += 1;
                Ok(self.pos - 1)
            }
            Some(_) => Err(ActionParseError {
                column: Some(self.pos + 1),
                kind: ParseErrorKind::ExpectedBracket {
                    kind: self.kind,
                    argument,
                    found: token_at(self.text, self.pos),
                },
            }),
        }
    }

    /// A short argument: up to the first `]`. Returns the content and its offset.
    fn short(&mut self, argument: &'static str) -> Result<(&'a str, usize), ActionParseError> {
        let open = self.open(argument)?;
        let Some(len) = self.text[self.pos..].find(']') else {
            return Err(self.unbalanced(open));
        };
        let content = &self.text[self.pos..self.pos + len];
        let at = self.pos;
        self.pos += len + 1;
        Ok((content, at))
    }

    /// A free-text argument: up to the last `]` of the input.
    fn free_text(&mut self, argument: &'static str) -> Result<(&'a str, usize), ActionParseError> {
        let open = self.open(argument)?;
        let Some(close) = self.text.rfind(']').filter(|c| *c >= self.pos) else {
            return Err(self.unbalanced(open));
        };
        let content = &self.text[self.pos..close];
        let at = self.pos;
        self.pos = close + 1;
        Ok((content, at))
    }

    fn unbalanced(&self, open: usize) -> ActionParseError {
        ActionParseError {
            column: Some(open + 1),
            kind: ParseErrorKind::UnbalancedBracket { kind: self.kind },
        }
    }

    /// Trims a short argument, returning it with the offset of its first non-space byte.
    fn trimmed(content: &'a str, at: usize) -> (&'a str, usize) {
        let lead = content.len() - content.trim_start().len();
        (content.trim(), at + lead)
    }

    fn id(&mut self, argument: &'static str) -> Result<u32, ActionParseError> {
        let (content, at) = self.short(argument)?;
        let (token, at) = Self::trimmed(content, at);
        if token.is_empty() {
            return Err(self.missing(argument, at));
        }
        parse_digits(token).ok_or_else(|| ActionParseError {
            column: Some(at + 1),
            kind: ParseErrorKind::InvalidId {
                kind: self.kind,
                token: shorten(token),
            },
        })
    }

    fn tab_index(&mut self) -> Result<u32, ActionParseError> {
        let (content, at) = self.short("index")?;
        let (token, at) = Self::trimmed(content, at);
        if token.is_empty() {
            return Err(self.missing("index", at));
        }
        parse_digits(token).ok_or_else(|| ActionParseError {
            column: Some(at + 1),
            kind: ParseErrorKind::InvalidTabIndex {
                token: shorten(token),
            },
        })
    }

    fn direction(&mut self) -> Result<ScrollDirection, ActionParseError> {
        let (content, at) = self.short("direction")?;
        let (token, at) = Self::trimmed(content, at);
        if token.is_empty() {
            return Err(self.missing("direction", at));
        }
        let lower = token.to_ascii_lowercase();
        // WebArena's own prompt spells it `scroll [direction=down]`.
        let word = match lower.strip_prefix("direction") {
            Some(rest) => rest.trim_start().strip_prefix('=').unwrap_or(rest).trim(),
            None => lower.as_str(),
        };
        match word {
            "up" => Ok(ScrollDirection::Up),
            "down" => Ok(ScrollDirection::Down),
            _ => Err(ActionParseError {
                column: Some(at + 1),
                kind: ParseErrorKind::InvalidScrollDirection {
                    token: shorten(token),
                },
            }),
        }
    }

    fn type_action(&mut self) -> Result<Action, ActionParseError> {
        let id = self.id("id")?;
        let (region, at) = self.free_text("text")?;
        self.finish()?;
        // `region` is everything between the text's `[` and the final `]`. If it ends
        // in `] [d]` (digits, spaces allowed), that last pair is the enter flag.
        let (text, press_enter) = match split_flag(region) {
            Some((text, flag, flag_at)) => match flag {
                "1" => (text, true),
                "0" => (text, false),
                _ => {
                    return Err(ActionParseError {
                        column: Some(at + flag_at + 1),
                        kind: ParseErrorKind::InvalidEnterFlag {
                            token: shorten(flag),
                        },
                    })
                }
            },
            None => (region, true),
        };
        Ok(Action::Type {
            id,
            text: text.to_string(),
            press_enter,
        })
    }

    /// Skips one `[]` (spaces inside allowed) if that is what comes next.
    fn optional_empty_brackets(&mut self) {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        if let Some(inner) = rest.strip_prefix('[') {
            if let Some(after) = inner.trim_start().strip_prefix(']') {
                self.pos = self.text.len() - after.len();
            }
        }
    }

    fn finish(&mut self) -> Result<(), ActionParseError> {
        self.skip_ws();
        if self.pos >= self.text.len() {
            return Ok(());
        }
        Err(ActionParseError {
            column: Some(self.pos + 1),
            kind: ParseErrorKind::UnexpectedText {
                kind: self.kind,
                text: shorten(&self.text[self.pos..]),
            },
        })
    }
}

/// Splits `text] [flag` (the inside of `[text] [flag]`) into text, flag and the
/// flag's offset, when the last bracket pair holds only digits. The flag must be
/// preceded by a closed text bracket, so `type [5] [1]` is the text `1`.
fn split_flag(region: &str) -> Option<(&str, &str, usize)> {
    let open = region.rfind('[')?;
    let flag_raw = &region[open + 1..];
    let flag = flag_raw.trim();
    if flag.is_empty() || !flag.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let text = region[..open].trim_end().strip_suffix(']')?;
    let flag_at = open + 1 + (flag_raw.len() - flag_raw.trim_start().len());
    Some((text, flag, flag_at))
}

/// Digits only: `u32::from_str` would also take a leading `+`, which is no valid id.
fn parse_digits(token: &str) -> Option<u32> {
    if token.bytes().all(|b| b.is_ascii_digit()) {
        token.parse().ok()
    } else {
        None
    }
}
