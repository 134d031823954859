//! The JSON path of a serde_json error (`hops[2].condition`), found from the error's
//! line and column by walking the text, for the task files' and import configs'
//! error messages.
//!
//! Why not `serde_path_to_error`: it wraps the deserializer and every visitor, so
//! every type read through it was compiled a second time around serde_json's code
//! (about 55 KiB of the wasm). A task is now read with plain serde_json, and only when
//! that fails is the path worked out here, from where serde_json stopped.
//!
//! The path is the one `serde_path_to_error` gave, in the same format: map keys
//! joined by `.`, array indices as `[i]`, `.` for the top level. Its rules, mirrored:
//! a key belongs to the path once its `:` is read and an index once the element's
//! first character is seen; an error raised while reading a key, a `:`, a `,` or a
//! closing bracket belongs to the enclosing object or array; an error about a value
//! (wrong type, missing field, unknown variant) is reported by serde_json just after
//! the value, or at its opening bracket for a wrong type, and belongs to the value.
//! The equivalence test (`tests` below) compares both on many damaged task files.

use serde_json::error::Category;

/// The path of the value `error` (from reading `text` with serde_json) is about.
///
/// `reread` reads a text as the caller did and returns its error: an error raised
/// after a value was read (an internally tagged enum's, from serde's buffer) carries
/// no position of its own, so serde_json reports it at the end of the enclosing
/// object, where an error of that object is reported too. Reading the text again
/// with a `,` after the last value tells them apart (see `Walker::close`).
pub(crate) fn error_path(
    text: &str,
    error: &serde_json::Error,
    reread: &dyn Fn(&str) -> Option<serde_json::Error>,
) -> String {
    let offset = offset_of(text, error.line(), error.column());
    let (mode, at) = match error.classify() {
        Category::Data => (Mode::Data, offset),
        // serde_json reports syntax errors just after the offending character.
        Category::Syntax => (Mode::Syntax, offset.saturating_sub(1)),
        Category::Eof | Category::Io => (Mode::Syntax, text.len()),
    };
    let mut walker = Walker {
        bytes: text.as_bytes(),
        text,
        i: 0,
        at,
        mode,
        duplicate: error.to_string().starts_with("duplicate field `"),
        reread,
        path: Vec::new(),
    };
    // Whether found or not (then the path where the walk ended), the path is the
    // walker's.
    let _ = walker.value();
    let mut path = walker.path;
    if mode == Mode::Syntax {
        path.truncate(read_depth(text, &path, reread));
    }
    display(&path)
}

/// How many of `path`'s segments the reader tracked: none below a value it skipped.
/// serde_json skips a value the type does not read (an unknown field) without
/// looking inside beyond its syntax, so a syntax error in it belongs to the skipped
/// value. Read again with the text cut at a value and `1e400` put there, a value the
/// type reads fails on the number (out of range); a skipped one does not (serde_json
/// only checks a skipped number's syntax), and the read then fails at the text's end.
fn read_depth(
    text: &str,
    path: &[Segment],
    reread: &dyn Fn(&str) -> Option<serde_json::Error>,
) -> usize {
    for (depth, segment) in path.iter().enumerate() {
        let start = match segment {
            Segment::Key(_, start) | Segment::Index(_, start) => *start,
            Segment::Unknown => continue,
        };
        let probe = format!("{}1e400", &text[..start]);
        if reread(&probe).is_some_and(|e| e.classify() == Category::Eof) {
            return depth + 1;
        }
    }
    path.len()
}

/// `serde_path_to_error`'s format: `a.b[2].c`, `.` for the top level.
fn display(path: &[Segment]) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let mut out = String::new();
    for (n, segment) in path.iter().enumerate() {
        let name = match segment {
            Segment::Index(index, _) => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
                continue;
            }
            Segment::Key(key, _) => key.as_str(),
            Segment::Unknown => "?",
        };
        if n > 0 {
            out.push('.');
        }
        out.push_str(name);
    }
    out
}

/// The byte offset of serde_json's 1-based line and 0-based byte column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = text
        .match_indices('\n')
        .nth(line.saturating_sub(2))
        .map_or(0, |(i, _)| i + 1);
    let start = if line <= 1 { 0 } else { start };
    (start + column).min(text.len())
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `at` is where serde_json was when a value's reader failed.
    Data,
    /// `at` is the offending character (or the text's length, for an early end).
    Syntax,
}

/// A key or an index, with where its value starts in the text.
enum Segment {
    Key(String, usize),
    Index(usize, usize),
    /// An object's key not read yet (or unreadable): `?`.
    Unknown,
}

/// Stops the walk with the path where the error was raised.
struct Found;

type Walk = Result<(), Found>;

struct Walker<'a> {
    bytes: &'a [u8],
    text: &'a str,
    i: usize,
    at: usize,
    mode: Mode,
    /// The error is serde's "duplicate field", raised by the object's reader.
    duplicate: bool,
    reread: &'a dyn Fn(&str) -> Option<serde_json::Error>,
    path: Vec<Segment>,
}

impl Walker<'_> {
    fn here(&self) -> Found {
        Found
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }

    /// A syntax error at the character about to be read belongs to the current path.
    fn syntax_here(&self) -> Walk {
        match self.mode == Mode::Syntax && self.i >= self.at {
            true => Err(self.here()),
            false => Ok(()),
        }
    }

    /// One value; its segment (if any) is already on the path.
    fn value(&mut self) -> Walk {
        self.skip_space();
        let start = self.i;
        // A wrong type is reported at a value's opening bracket, a syntax error at
        // its first character.
        if start >= self.at {
            return Err(self.here());
        }
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(_) => {
                let end = self.scalar_end(start);
                let hit = match self.mode {
                    Mode::Data => end == self.at,
                    Mode::Syntax => self.at < end,
                };
                if hit {
                    return Err(self.here());
                }
                self.i = end;
                Ok(())
            }
            None => Err(self.here()),
        }
    }

    /// Where the string, number or literal at `start` ends; one past a character (or
    /// the end of the text) that makes it invalid, so that character counts as
    /// inside it, as serde_json reports it while reading the value.
    fn scalar_end(&self, start: usize) -> usize {
        let b = self.bytes;
        let at = |i: usize| b.get(i).copied();
        let bad = |i: usize| i + 1;
        match b[start] {
            b'"' => string_end(b, start),
            b't' | b'f' | b'n' => {
                let word: &[u8] = match b[start] {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                for (k, &want) in word.iter().enumerate() {
                    if at(start + k) != Some(want) {
                        return bad(start + k);
                    }
                }
                start + word.len()
            }
            b'-' | b'0'..=b'9' => {
                let digit = |i: usize| matches!(at(i), Some(b'0'..=b'9'));
                let mut i = start;
                if at(i) == Some(b'-') {
                    i += 1;
                }
                if at(i) == Some(b'0') {
                    i += 1;
                    if digit(i) {
                        return bad(i);
                    }
                } else if digit(i) {
                    while digit(i) {
                        i += 1;
                    }
                } else {
                    return bad(i);
                }
                if at(i) == Some(b'.') {
                    i += 1;
                    if !digit(i) {
                        return bad(i);
                    }
                    while digit(i) {
                        i += 1;
                    }
                }
                if matches!(at(i), Some(b'e' | b'E')) {
                    i += 1;
                    if matches!(at(i), Some(b'+' | b'-')) {
                        i += 1;
                    }
                    if !digit(i) {
                        return bad(i);
                    }
                    while digit(i) {
                        i += 1;
                    }
                }
                i
            }
            _ => bad(start),
        }
    }

    /// The path of an error met while looking for an object's next key: the key is
    /// not known yet, so it is `?`.
    fn unknown_key(&mut self) -> Found {
        self.path.push(Segment::Unknown);
        self.here()
    }

    fn object(&mut self) -> Walk {
        self.i += 1;
        let mut first = true;
        loop {
            self.skip_space();
            if self.syntax_here().is_err() {
                return Err(self.unknown_key());
            }
            match self.peek() {
                Some(b'}') => break,
                Some(b',') if !first => {
                    self.i += 1;
                    self.skip_space();
                    if self.syntax_here().is_err() {
                        return Err(self.unknown_key());
                    }
                }
                _ if !first => return Err(self.unknown_key()),
                _ => {}
            }
            if self.peek() != Some(b'"') {
                return Err(self.unknown_key());
            }
            let key_start = self.i;
            let key_end = string_end(self.bytes, key_start);
            if self.mode == Mode::Syntax && self.at < key_end {
                return Err(self.unknown_key());
            }
            let raw = &self.text[key_start..key_end.min(self.text.len())];
            let key = crate::json_read::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string());
            self.i = key_end;
            self.skip_space();
            // A key's own error (an unknown field) is reported just after it and
            // names it; a duplicate field is the object's (the derive raises it after
            // the key was read).
            // (serde_json then takes a `}` that follows as the object's end.)
            let reported_at = match self.peek() {
                Some(b'}') => self.i + 1,
                _ => self.i,
            };
            if self.mode == Mode::Data
                && ((key_end..=self.i).contains(&self.at) || self.at == reported_at)
            {
                if !self.duplicate {
                    self.path.push(Segment::Key(key, key_end));
                }
                return Err(self.here());
            }
            // A missing `:` is the object's.
            if self.syntax_here().is_err() || self.peek() != Some(b':') {
                return Err(self.here());
            }
            self.i += 1;
            self.path.push(Segment::Key(key, self.i));
            self.value()?;
            let value_end = self.i;
            self.skip_space();
            // A value's error without a position, with more after it: reported where
            // serde_json stopped, at the `,` (or whatever else follows the value).
            if self.mode == Mode::Data && self.i == self.at {
                return Err(self.here());
            }
            let last = self.path.pop();
            first = false;
            if self.peek() == Some(b'}') && self.mode == Mode::Data && self.i + 1 == self.at {
                return Err(self.last_or_object(value_end, last));
            }
        }
        self.close()
    }

    /// An error reported just after an object's `}` is the object's (a missing field)
    /// or its last value's (one without a position). Read again with a `,` after that
    /// value, the last value's error is reported at the `,`; the object's is not.
    fn last_or_object(&mut self, value_end: usize, last: Option<Segment>) -> Found {
        let probe = format!("{},{}", &self.text[..value_end], &self.text[value_end..]);
        let at_comma = (self.reread)(&probe).is_some_and(|e| {
            e.classify() == Category::Data && offset_of(&probe, e.line(), e.column()) == value_end
        });
        if let (true, Some(last)) = (at_comma, last) {
            self.path.push(last);
        }
        self.here()
    }

    fn array(&mut self) -> Walk {
        self.i += 1;
        let mut index = 0;
        loop {
            self.skip_space();
            if index > 0 {
                self.syntax_here()?;
                match self.peek() {
                    Some(b']') => break,
                    Some(b',') => self.i += 1,
                    _ => return Err(self.here()),
                }
                self.skip_space();
            }
            match self.peek() {
                // `[]`, or a trailing comma (the array's error).
                Some(b']') if index == 0 => break,
                Some(b']') | None => return Err(self.here()),
                Some(_) => {}
            }
            self.path.push(Segment::Index(index, self.i));
            self.value()?;
            self.path.pop();
            index += 1;
        }
        self.close()
    }

    /// The closing bracket: a value error reported just after it is the container's.
    fn close(&mut self) -> Walk {
        self.i += 1;
        match self.mode == Mode::Data && self.i == self.at {
            true => Err(self.here()),
            false => Ok(()),
        }
    }
}

/// One past the closing quote of the string at `start`, or one past the text's end
/// when it is not closed.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            // serde_json takes the four characters after `\u` as the escape's
            // digits (a `"` among them does not end the string).
            b'\\' if bytes.get(i + 1) == Some(&b'u') => i += 6,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    bytes.len() + 1
}

#[cfg(test)]
mod tests {
    use super::error_path;
    use crate::import::raw::RawConfig;
    use crate::task::Task;
    use serde::Deserialize;

    /// What `serde_path_to_error` said, in the format the task errors use.
    fn tracked<T: for<'de> Deserialize<'de>>(text: &str) -> Option<(String, String)> {
        let de = &mut serde_json::Deserializer::from_str(text);
        match serde_path_to_error::deserialize::<_, T>(de) {
            Ok(_) => None,
            Err(e) => Some((e.path().to_string(), e.into_inner().to_string())),
        }
    }

    fn walked<T: for<'de> Deserialize<'de>>(text: &str) -> Option<(String, String)> {
        let read = |text: &str| T::deserialize(&mut serde_json::Deserializer::from_str(text));
        match read(text) {
            Ok(_) => None,
            Err(e) => Some((error_path(text, &e, &|t| read(t).err()), e.to_string())),
        }
    }

    /// The lines around the error, for a failure's message.
    fn context(text: &str, want: Option<&(String, String)>) -> String {
        let line = want
            .and_then(|(_, m)| m.rsplit("at line ").next())
            .and_then(|m| m.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1);
        let lines: Vec<&str> = text.lines().collect();
        let from = line.saturating_sub(4);
        lines[from.min(lines.len())..(line + 1).min(lines.len())].join("\n")
    }

    fn fixtures() -> Vec<String> {
        let mut texts = Vec::new();
        for dir in ["tasks", "tests/fixtures"] {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            let mut stack = vec![root];
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|e| e == "json") {
                        if let Ok(text) = std::fs::read_to_string(&path) {
                            texts.push(text);
                        }
                    }
                }
            }
        }
        texts.sort();
        texts
    }

    /// Damages each task file many ways (a character dropped, doubled or replaced,
    /// a value swapped for one of another type) and checks the path found from the
    /// error's position is the one `serde_path_to_error` tracked while reading.
    #[test]
    fn paths_match_serde_path_to_error() {
        let texts = fixtures();
        assert!(!texts.is_empty());
        let replacements = [
            "",
            "x",
            "1",
            "\"",
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "null",
            "[]",
            "{}",
            "\"k\": 1,",
            "true",
            "-",
            "0.",
            "01",
            "1e",
            "\\",
            " ",
            "\"s\"",
            "\"\\u12\"",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = 0;
        for text in &texts {
            let cuts: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            for _ in 0..400 {
                let at = cuts[(next() % cuts.len() as u64) as usize];
                let len = (next() % 4) as usize;
                let end = cuts
                    .iter()
                    .copied()
                    .find(|&c| c >= at + len)
                    .unwrap_or(text.len());
                let with = replacements[(next() % replacements.len() as u64) as usize];
                let damaged = format!("{}{}{}", &text[..at], with, &text[end..]);
                for candidate in [
                    damaged.clone(),
                    damaged[..at.min(damaged.len())].to_string(),
                ] {
                    let want = tracked::<Task>(&candidate);
                    let context = || context(&candidate, want.as_ref());
                    assert_eq!(walked::<Task>(&candidate), want, "{}", context());
                    compared += usize::from(want.is_some());
                    let want = tracked::<RawConfig>(&candidate);
                    assert_eq!(walked::<RawConfig>(&candidate), want, "{}", context());
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn named_cases() {
        let task = r#"{"id": "x", "intent": "y", "start_urls": "http://x", "hops": [{"a": 1}]}"#;
        assert_eq!(walked::<Task>(task), tracked::<Task>(task));
        for text in [
            "{\n  \"id\": \"x\",\n  \"intent\": }",
            "[",
            "{\"id\": [1, 2,]}",
            "{\"id\": ",
        ] {
            assert_eq!(walked::<Task>(text), tracked::<Task>(text), "{text}");
        }
    }
}
