//! MMInA's `procedure` (ordered URL checkpoints ending in `end`) turned into hops.
//!
//! Which task field supplies a checkpoint's required tokens is data, in
//! `checkpoints.json`, not code: MMInA's released code hard-codes these site rules.

use super::raw::RawConfig;
use crate::condition::{Condition, FieldError, UrlCondition};
use crate::task::Hop;
use serde::Deserialize;

const TABLE_JSON: &str = include_str!("checkpoints.json");

/// The marker that closes a procedure (the END of the paper's queue).
const END: &str = "end";

#[derive(Debug, Deserialize)]
struct Table {
    rules: Vec<Rule>,
    default: DefaultRule,
}

#[derive(Debug, Deserialize)]
struct Rule {
    site: String,
    keywords: Vec<String>,
    token: Option<String>,
}

#[derive(Debug, Deserialize)]
struct DefaultRule {
    site: String,
    token: Option<String>,
}

impl Table {
    fn load() -> Result<Table, serde_json::Error> {
        serde_json::from_str(TABLE_JSON)
    }

    /// The site name and token field for a (lowercased) checkpoint.
    fn lookup(&self, checkpoint: &str) -> (&str, Option<&str>) {
        self.rules
            .iter()
            .find(|r| r.keywords.iter().any(|k| checkpoint.contains(k.as_str())))
            .map(|r| (r.site.as_str(), r.token.as_deref()))
            .unwrap_or((self.default.site.as_str(), self.default.token.as_deref()))
    }
}

/// One hop per checkpoint before `end`, in order. Problems go to `errors`.
pub(crate) fn procedure_hops(
    raw: &RawConfig,
    procedure: &[String],
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> Vec<Hop> {
    let Some(checkpoints) = checkpoints_before_end(procedure, errors) else {
        return Vec::new();
    };
    let table = match Table::load() {
        Ok(t) => t,
        Err(e) => {
            errors.push(FieldError::new(
                "procedure",
                format!("internal error: the checkpoint table does not parse: {e}"),
            ));
            return Vec::new();
        }
    };
    let mut hops = Vec::new();
    for (i, checkpoint) in checkpoints.iter().enumerate() {
        let keyword = checkpoint.trim().to_lowercase();
        if keyword.is_empty() {
            errors.push(FieldError::new(
                format!("procedure[{i}]"),
                "empty checkpoint: it would match every URL",
            ));
            continue;
        }
        let n = i + 1;
        let (site, field) = table.lookup(&keyword);
        let value = match field {
            None => "",
            Some(name) => {
                match raw.token_field(name) {
                    Some(v) => v.trim(),
                    None => {
                        errors.push(FieldError::new(
                        format!("procedure[{i}]"),
                        format!("internal error: the checkpoint table names an unknown field {name:?}"),
                    ));
                        continue;
                    }
                }
            }
        };
        // Words are separate tokens: sites write "san francisco" as san-francisco,
        // San+Francisco or San%20Francisco, and all of them hold every word.
        let tokens: Vec<String> = value.split_whitespace().map(String::from).collect();
        let mut description = format!("Hop {n}: reach a page whose URL contains {keyword:?}");
        if let (Some(name), true) = (field, value.is_empty()) {
            notes.push(format!(
                "hop {n} ({keyword:?}, {site}) checks the site only: the task's `{name}` \
                 is empty, so no {name} token is required"
            ));
        }
        if !value.is_empty() {
            description.push_str(&format!(" and mentions {value:?}"));
        }
        hops.push(Hop {
            description: Some(description),
            condition: Condition::Url(UrlCondition::contains(&keyword, tokens)),
        });
    }
    hops
}

/// The checkpoints, or `None` (with an error) when `end` is missing, not last, or
/// has nothing before it.
fn checkpoints_before_end<'a>(
    procedure: &'a [String],
    errors: &mut Vec<FieldError>,
) -> Option<&'a [String]> {
    let is_end = |s: &String| s.trim().eq_ignore_ascii_case(END);
    let Some(end) = procedure.iter().position(is_end) else {
        errors.push(FieldError::new(
            "procedure",
            format!(
                "the marker \"end\" is missing: a procedure lists its checkpoints and then \
                 \"end\" (e.g. [\"kiwix\", \"event\", \"end\"]); got {procedure:?}"
            ),
        ));
        return None;
    };
    let after = procedure.len() - end - 1;
    if after > 0 {
        let entries = if after == 1 {
            "entry follows"
        } else {
            "entries follow"
        };
        errors.push(FieldError::new(
            format!("procedure[{end}]"),
            format!("the marker \"end\" must be last, but {after} more {entries} it"),
        ));
        return None;
    }
    if end == 0 {
        errors.push(FieldError::new(
            "procedure",
            "no checkpoint before \"end\": the task would have no hop",
        ));
        return None;
    }
    Some(&procedure[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses_and_names_known_fields() {
        let table = Table::load().unwrap();
        let raw: RawConfig = serde_json::from_str(
            r#"{"task_id":1,"start_url":"","intent":"","eval":{"eval_types":[]}}"#,
        )
        .unwrap();
        for field in table
            .rules
            .iter()
            .map(|r| r.token.as_deref())
            .chain([table.default.token.as_deref()])
            .flatten()
        {
            assert!(raw.token_field(field).is_some(), "unknown field {field}");
        }
    }

    #[test]
    fn checkpoints_pick_their_token_field() {
        let table = Table::load().unwrap();
        assert_eq!(table.lookup("kiwix").1, None);
        assert_eq!(table.lookup("wikipedia").1, None);
        assert_eq!(table.lookup("momondo").1, Some("flight"));
        assert_eq!(table.lookup("flight").1, Some("flight"));
        assert_eq!(table.lookup("7770").1, Some("shop"));
        assert_eq!(table.lookup("shopping").1, Some("shop"));
        for other in [
            "event", "hotel", "car", "food", "travel", "exchange", "youtube", "twitter",
        ] {
            assert_eq!(table.lookup(other).1, Some("city"), "{other}");
        }
    }
}
