//! Semantic checks of conditions beyond what deserialisation enforces.

use super::{AnswerCondition, Condition, MatchOp, PageTextCondition, UrlCondition, UrlPart};
use serde::Serialize;
use std::fmt;

/// One problem in a task, located by its JSON path (e.g. `hops[1].condition.tokens[0]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub path: String,
    pub message: String,
}

impl FieldError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Condition {
    /// Appends every problem found under `path` to `errors`.
    pub fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        match self {
            Condition::Url(c) => c.validate(path, errors),
            Condition::Answer(c) => c.validate(path, errors),
            Condition::PageText(c) => c.validate(path, errors),
            Condition::All { of } | Condition::Any { of } => {
                if of.is_empty() {
                    errors.push(FieldError::new(
                        format!("{path}.of"),
                        "needs at least one condition",
                    ));
                }
                for (i, c) in of.iter().enumerate() {
                    c.validate(&format!("{path}.of[{i}]"), errors);
                }
            }
            Condition::Not(c) => c.condition.validate(&format!("{path}.condition"), errors),
        }
    }
}

fn check_strings(items: &[String], path: &str, what: &str, errors: &mut Vec<FieldError>) {
    for (i, s) in items.iter().enumerate() {
        if s.trim().is_empty() {
            errors.push(FieldError::new(
                format!("{path}[{i}]"),
                format!("empty {what}: it would never match"),
            ));
        }
    }
}

impl UrlCondition {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        if self.op.is_none() && self.tokens.is_empty() {
            errors.push(FieldError::new(
                path,
                "a url condition needs `op` and `value`, or `tokens`, or both",
            ));
        }
        match (self.op, self.value.as_deref()) {
            (Some(_), None) => errors.push(FieldError::new(
                format!("{path}.value"),
                "missing: `op` needs a `value`",
            )),
            (None, Some(_)) => errors.push(FieldError::new(
                format!("{path}.op"),
                "missing: `value` needs an `op` (contains, equals, prefix or regex)",
            )),
            (Some(op), Some(v)) => {
                if v.is_empty() && op != MatchOp::Equals {
                    errors.push(FieldError::new(
                        format!("{path}.value"),
                        "empty: it would match every URL",
                    ));
                }
                if op == MatchOp::Regex {
                    if let Err(e) = regex_lite::Regex::new(v) {
                        errors.push(FieldError::new(
                            format!("{path}.value"),
                            format!("invalid regex: {e}"),
                        ));
                    }
                }
            }
            (None, None) => {}
        }
        match (self.part, self.param.as_deref()) {
            (UrlPart::Param, None) => errors.push(FieldError::new(
                format!("{path}.param"),
                "missing: `part: param` needs the parameter name",
            )),
            (UrlPart::Param, Some("")) => errors.push(FieldError::new(
                format!("{path}.param"),
                "empty parameter name",
            )),
            (part, Some(_)) if part != UrlPart::Param => errors.push(FieldError::new(
                format!("{path}.param"),
                "only allowed with `part: param`",
            )),
            _ => {}
        }
        check_strings(&self.tokens, &format!("{path}.tokens"), "token", errors);
    }
}

impl AnswerCondition {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        if self.is_empty() {
            errors.push(FieldError::new(
                path,
                "an answer condition needs must_include, exact_match or fuzzy_match",
            ));
        }
        check_strings(
            &self.must_include,
            &format!("{path}.must_include"),
            "keyword",
            errors,
        );
        check_strings(
            &self.fuzzy_match,
            &format!("{path}.fuzzy_match"),
            "reference",
            errors,
        );
        if self
            .exact_match
            .as_deref()
            .is_some_and(|s| s.trim().is_empty())
        {
            errors.push(FieldError::new(
                format!("{path}.exact_match"),
                "empty reference answer",
            ));
        }
    }
}

impl PageTextCondition {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        if self.contains.is_empty() {
            errors.push(FieldError::new(
                format!("{path}.contains"),
                "needs at least one string",
            ));
        }
        check_strings(
            &self.contains,
            &format!("{path}.contains"),
            "string",
            errors,
        );
    }
}
