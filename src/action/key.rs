//! Key combinations for `press [key_comb]`: validated and printed canonically.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::error::{ActionParseError, ParseErrorKind};
use super::suggest::closest;

/// A modifier key held while the final key is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    Control,
    Shift,
    Alt,
    Meta,
}

impl Modifier {
    /// Canonical (Playwright) name.
    pub fn name(self) -> &'static str {
        match self {
            Modifier::Control => "Control",
            Modifier::Shift => "Shift",
            Modifier::Alt => "Alt",
            Modifier::Meta => "Meta",
        }
    }
}

/// Accepted spellings of modifiers; aliases map to the canonical name.
const MODIFIER_NAMES: [(&str, Modifier); 8] = [
    ("Control", Modifier::Control),
    ("Ctrl", Modifier::Control),
    ("Shift", Modifier::Shift),
    ("Alt", Modifier::Alt),
    ("Option", Modifier::Alt),
    ("Meta", Modifier::Meta),
    ("Cmd", Modifier::Meta),
    ("Command", Modifier::Meta),
];

/// Named keys, as Playwright spells them (the browser driver receives these names).
const NAMED_KEYS: [&str; 27] = [
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Space",
    "Insert",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// Common alternative spellings of named keys.
const KEY_ALIASES: [(&str, &str); 3] = [("Esc", "Escape"), ("Return", "Enter"), ("Del", "Delete")];

/// The final (non-modifier) key of a combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A single printable character, case kept (`v` and `V` differ for the page).
    Char(char),
    /// One of the named keys, canonical spelling (`Enter`, `ArrowLeft`, `F5`).
    Named(&'static str),
}

/// A validated key combination such as `Control+v` or `Meta+Shift+ArrowLeft`.
///
/// Modifiers keep the order they were written in; aliases (`Ctrl`, `Cmd`) become
/// canonical names. Serialised as its canonical string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "String"))]
pub struct KeyCombo {
    modifiers: Vec<Modifier>,
    key: Key,
}

impl KeyCombo {
    /// The modifiers, in written order.
    pub fn modifiers(&self) -> &[Modifier] {
        &self.modifiers
    }

    /// The final key.
    pub fn key(&self) -> Key {
        self.key
    }

    /// Parses a combination; error columns are relative to `text`.
    pub fn parse(text: &str) -> Result<KeyCombo, ActionParseError> {
        let parts = split_parts(text);
        let combo = || text.trim().to_string();
        let Some(((last, last_at), leading)) = parts.split_last() else {
            return Err(ActionParseError {
                column: Some(1),
                kind: ParseErrorKind::MalformedKeyCombo {
                    combo: combo(),
                    problem: "it is empty".to_string(),
                },
            });
        };
        let mut modifiers = Vec::with_capacity(leading.len());
        for (part, at) in leading {
            let Some(modifier) = find_modifier(part) else {
                return Err(unknown_key(part, *at));
            };
            if modifiers.contains(&modifier) {
                return Err(ActionParseError {
                    column: Some(at + 1),
                    kind: ParseErrorKind::MalformedKeyCombo {
                        combo: combo(),
                        problem: format!("the modifier {} appears twice", modifier.name()),
                    },
                });
            }
            modifiers.push(modifier);
        }
        if last.is_empty() {
            return Err(ActionParseError {
                column: Some(last_at + 1),
                kind: ParseErrorKind::MalformedKeyCombo {
                    combo: combo(),
                    problem: "it ends in `+` with no key after it".to_string(),
                },
            });
        }
        let key = match find_key(last) {
            Some(key) => key,
            None if find_modifier(last).is_some() => {
                return Err(ActionParseError {
                    column: Some(last_at + 1),
                    kind: ParseErrorKind::MalformedKeyCombo {
                        combo: combo(),
                        problem: format!("it ends in the modifier `{last}`; it must end in a key"),
                    },
                })
            }
            None => return Err(unknown_key(last, *last_at)),
        };
        Ok(KeyCombo { modifiers, key })
    }
}

/// Splits on `+`, skipping whitespace, and returns each part with its byte offset.
///
/// A `+` that starts a part is the plus key itself, not a separator (so `+` and
/// `Shift++` name the plus key), the same rule Playwright applies.
fn split_parts(text: &str) -> Vec<(String, usize)> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut current_at = text.len();
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        if c == '+' && !current.is_empty() {
            parts.push((std::mem::take(&mut current), current_at));
            current_at = text.len();
            continue;
        }
        if current.is_empty() {
            current_at = at;
        }
        current.push(c);
    }
    // A trailing separator leaves an empty last part, reported as "no key after `+`".
    if !current.is_empty() || !parts.is_empty() {
        parts.push((current, current_at));
    }
    parts
}

fn find_modifier(word: &str) -> Option<Modifier> {
    MODIFIER_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
        .map(|(_, m)| *m)
}

fn find_key(word: &str) -> Option<Key> {
    let mut chars = word.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return (!c.is_control()).then_some(Key::Char(c));
    }
    if let Some(name) = NAMED_KEYS.iter().find(|n| n.eq_ignore_ascii_case(word)) {
        return Some(Key::Named(name));
    }
    KEY_ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(word))
        .map(|(_, name)| Key::Named(name))
}

fn unknown_key(word: &str, at: usize) -> ActionParseError {
    let candidates = MODIFIER_NAMES
        .iter()
        .map(|(n, _)| *n)
        .chain(NAMED_KEYS)
        .chain(KEY_ALIASES.iter().map(|(a, _)| *a));
    // Suggest the canonical spelling even when the nearest match is an alias
    // (`Cntrl` is nearest to `Ctrl`, but `Control` is what we print).
    let suggestion = closest(word, candidates).and_then(|near| {
        find_modifier(near)
            .map(Modifier::name)
            .or(match find_key(near) {
                Some(Key::Named(name)) => Some(name),
                _ => None,
            })
    });
    ActionParseError {
        column: Some(at + 1),
        kind: ParseErrorKind::UnknownKey {
            key: word.to_string(),
            suggestion,
        },
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.modifiers {
            write!(f, "{}+", m.name())?;
        }
        match self.key {
            Key::Char(c) => write!(f, "{c}"),
            Key::Named(name) => f.write_str(name),
        }
    }
}

impl FromStr for KeyCombo {
    type Err = ActionParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KeyCombo::parse(s)
    }
}

impl TryFrom<String> for KeyCombo {
    type Error = ActionParseError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        KeyCombo::parse(&value)
    }
}

impl From<KeyCombo> for String {
    fn from(value: KeyCombo) -> Self {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        KeyCombo::parse(s).map(|k| k.to_string()).unwrap()
    }

    #[test]
    fn accepts_typical_combinations() {
        assert_eq!(canon("Enter"), "Enter");
        assert_eq!(canon("Control+v"), "Control+v");
        assert_eq!(canon("Meta+Shift+ArrowLeft"), "Meta+Shift+ArrowLeft");
        assert_eq!(canon("F12"), "F12");
        assert_eq!(canon("a"), "a");
    }

    #[test]
    fn canonicalises_aliases_case_and_spaces() {
        assert_eq!(canon("ctrl+V"), "Control+V");
        assert_eq!(canon("Cmd + Shift + arrowleft"), "Meta+Shift+ArrowLeft");
        assert_eq!(canon("esc"), "Escape");
        assert_eq!(canon("Option+return"), "Alt+Enter");
    }

    #[test]
    fn plus_key_itself() {
        assert_eq!(canon("+"), "+");
        assert_eq!(canon("Shift++"), "Shift++");
        assert_eq!(canon("Control + +"), "Control++");
    }

    #[test]
    fn rejects_unknown_modifier_with_suggestion_and_column() {
        let err = KeyCombo::parse("Cntrl+v").unwrap_err();
        assert_eq!(
            err,
            ActionParseError {
                column: Some(1),
                kind: ParseErrorKind::UnknownKey {
                    key: "Cntrl".into(),
                    suggestion: Some("Control")
                }
            }
        );
        let msg = err.to_string();
        assert!(msg.contains("unknown key `Cntrl`"), "{msg}");
        assert!(msg.contains("did you mean `Control`"), "{msg}");
        assert!(msg.contains("press [key_comb]"), "{msg}");
    }

    #[test]
    fn rejects_malformed_combinations() {
        let cases = [
            ("Control+", "no key after it", 9),
            ("Control+Shift", "ends in the modifier `Shift`", 9),
            ("Control+Ctrl+c", "Control appears twice", 9),
            ("", "empty", 1),
        ];
        for (input, needle, column) in cases {
            let err = KeyCombo::parse(input).unwrap_err();
            assert!(err.to_string().contains(needle), "{input}: {err}");
            assert_eq!(err.column(), Some(column), "{input}");
        }
        let err = KeyCombo::parse("Control+Entr").unwrap_err();
        assert!(err.to_string().contains("did you mean `Enter`"), "{err}");
        assert!(matches!(
            KeyCombo::parse("ab"),
            Err(ActionParseError {
                kind: ParseErrorKind::UnknownKey { .. },
                ..
            })
        ));
    }

    #[test]
    fn serde_uses_canonical_string_and_validates() {
        let combo = KeyCombo::parse("ctrl+a").unwrap();
        assert_eq!(serde_json::to_string(&combo).unwrap(), "\"Control+a\"");
        let back: KeyCombo = serde_json::from_str("\"Control+a\"").unwrap();
        assert_eq!(back, combo);
        assert!(serde_json::from_str::<KeyCombo>("\"Cntrl+a\"").is_err());
    }
}
