//! Text pieces of the benchmark format, spelled as WebArena/MMInA print them.
//!
//! Their observation is built in Python: the name is `repr(name)` and a property is
//! `f"{name}: {value}"`, so booleans read `True`/`False`. Models prompted with the
//! published examples have seen exactly this spelling, so we keep it.

use super::input::{AxScalar, TabInfo};
use std::fmt::Write;

/// `Tab 0 (current): title | Tab 1: title`.
pub fn tabs_line(tabs: &[TabInfo]) -> String {
    let mut line = String::new();
    for (i, tab) in tabs.iter().enumerate() {
        if i > 0 {
            line.push_str(" | ");
        }
        let current = if tab.current { " (current)" } else { "" };
        // Writing to a String cannot fail.
        let _ = write!(line, "Tab {i}{current}: {}", tab.title);
    }
    line
}

/// Python's `repr()` of a string as a new `String` (see [`push_py_repr`]).
pub fn py_repr(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_py_repr(&mut out, text);
    out
}

/// Python's `repr()` of a string: single quotes unless the text contains a single
/// quote and no double quote; backslash, quote and non-printable characters escaped.
pub fn push_py_repr(out: &mut String, text: &str) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..=0xa0).contains(&(c as u32)) || c == '\u{ad}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unprintable_unicode(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// The separators and format characters Python's `str.isprintable()` rejects that
/// actually occur in web text (zero-width spaces, bidi marks, odd spaces).
fn is_unprintable_unicode(c: char) -> bool {
    matches!(c as u32, 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064 | 0x3000 | 0xfeff)
}

/// A property value as Python would print it; `None` for values WebArena skipped.
pub fn push_scalar(out: &mut String, value: &AxScalar) -> bool {
    match value {
        AxScalar::Bool(true) => out.push_str("True"),
        AxScalar::Bool(false) => out.push_str("False"),
        AxScalar::Number(n) => push_number(out, *n),
        AxScalar::Text(s) => out.push_str(s),
        AxScalar::Other => return false,
    }
    true
}

fn push_number(out: &mut String, n: f64) {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        // Whole numbers arrive as JSON integers; Python prints them without ".0".
        let _ = write!(out, "{}", n as i64);
    } else {
        let _ = write!(out, "{n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(text: &str) -> String {
        let mut out = String::new();
        push_py_repr(&mut out, text);
        out
    }

    #[test]
    fn repr_follows_python() {
        assert_eq!(repr("Tokyo"), "'Tokyo'");
        assert_eq!(repr(""), "''");
        assert_eq!(repr("Rock 'n' roll"), "\"Rock 'n' roll\"");
        assert_eq!(repr("say \"hi\" it's"), "'say \"hi\" it\\'s'");
        assert_eq!(repr("a\nb\\c\td"), "'a\\nb\\\\c\\td'");
        assert_eq!(repr("x\u{a0}y\u{200b}"), "'x\\xa0y\\u200b'");
        assert_eq!(repr("Zürich 東京"), "'Zürich 東京'");
    }

    #[test]
    fn scalars_print_like_python() {
        let print = |v: AxScalar| {
            let mut out = String::new();
            let printed = push_scalar(&mut out, &v);
            (printed, out)
        };
        assert_eq!(print(AxScalar::Bool(true)), (true, "True".into()));
        assert_eq!(print(AxScalar::Bool(false)), (true, "False".into()));
        assert_eq!(print(AxScalar::Number(3.0)), (true, "3".into()));
        assert_eq!(print(AxScalar::Number(0.5)), (true, "0.5".into()));
        assert_eq!(print(AxScalar::Text("menu".into())), (true, "menu".into()));
        assert_eq!(print(AxScalar::Other), (false, String::new()));
    }

    #[test]
    fn tabs_line_marks_the_current_tab() {
        let tabs = [
            TabInfo {
                title: "Tokyo - Wikipedia".into(),
                current: false,
            },
            TabInfo {
                title: "Events".into(),
                current: true,
            },
        ];
        assert_eq!(
            tabs_line(&tabs),
            "Tab 0: Tokyo - Wikipedia | Tab 1 (current): Events"
        );
        assert_eq!(tabs_line(&[]), "");
    }
}
