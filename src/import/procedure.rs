//! MMInA's `procedure` (ordered URL checkpoints ending in `end`) turned into hops that
//! count as MMInA's released loop counts, without its bugs (docs/mmina-mapping.md):
//!
//! - a checkpoint's page: the URL contains the checkpoint and its tokens
//!   (`checkpoints.json` says which task field supplies them);
//! - the Wikipedia (`kiwix`) checkpoint: completed by leaving Kiwix for the next
//!   checkpoint's site, and that page is checked against the next hop too;
//! - the last hop: also completed by a page whose URL contains every `must_include`
//!   reference answer.

use super::checkpoints::{Checkpoint, Table};
use super::raw::RawConfig;
use crate::condition::{AnswerCondition, Condition, FieldError, NotCondition, UrlCondition};
use crate::task::Hop;

/// The marker that closes a procedure (the END of the paper's queue).
const END: &str = "end";

/// One hop per checkpoint before `end`, in order. `answer` is the task's string check
/// (`string_match`), if listed. Problems go to `errors`.
pub(crate) fn procedure_hops(
    raw: &RawConfig,
    procedure: &[String],
    answer: Option<&AnswerCondition>,
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
    let keywords: Vec<String> = checkpoints
        .iter()
        .map(|c| c.trim().to_lowercase())
        .collect();
    let references = ReferencesInUrl::of(answer);
    let last = keywords.len().saturating_sub(1);
    let mut hops = Vec::new();
    for (i, keyword) in keywords.iter().enumerate() {
        if keyword.is_empty() {
            errors.push(FieldError::new(
                format!("procedure[{i}]"),
                "empty checkpoint: it would match every URL",
            ));
            continue;
        }
        let at = Place {
            index: i,
            keyword,
            checkpoint: table.lookup(keyword),
        };
        let hop = match (at.checkpoint.leaves, keywords.get(i + 1)) {
            (Some(leaves), Some(next)) => leaving_hop(&at, leaves, next, notes, errors),
            (Some(_), None) => last_leaving_hop(&at, answer, &references, notes, errors),
            (None, _) => {
                site_hop(&at, raw, notes, errors).map(|hop| match (i == last, &references) {
                    (true, Some(refs)) => refs.added_to(hop, i + 1, notes),
                    _ => hop,
                })
            }
        };
        hops.extend(hop);
    }
    hops
}

/// A checkpoint, where it stands in the procedure and what the table says about it.
struct Place<'a> {
    index: usize,
    keyword: &'a str,
    checkpoint: Checkpoint<'a>,
}

impl Place<'_> {
    fn number(&self) -> usize {
        self.index + 1
    }

    fn path(&self) -> String {
        format!("procedure[{}]", self.index)
    }
}

/// The checkpoint's page: the whole URL contains the checkpoint and every word of the
/// token field. An empty field gives no token (never an empty one), with a note.
fn site_hop(
    at: &Place<'_>,
    raw: &RawConfig,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> Option<Hop> {
    let (n, keyword, site) = (at.number(), at.keyword, at.checkpoint.site);
    let value = match at.checkpoint.token_field {
        None => "",
        Some(name) => match raw.token_field(name) {
            Some(v) => v.trim(),
            None => {
                errors.push(FieldError::new(
                    at.path(),
                    format!("internal error: the checkpoint table names an unknown field {name:?}"),
                ));
                return None;
            }
        },
    };
    // Words are separate tokens: sites write "san francisco" as san-francisco,
    // San+Francisco or San%20Francisco, and all of them hold every word. MMInA's loop
    // also checks each word of a two-word city on its own.
    let tokens: Vec<String> = value.split_whitespace().map(String::from).collect();
    let mut description = format!("Hop {n}: reach a page whose URL contains {keyword:?}");
    match at.checkpoint.token_field {
        Some(name) if value.is_empty() => notes.push(format!(
            "hop {n} ({keyword:?}, {site}) checks the site only: the task's `{name}` \
             is empty, so no {name} token is required"
        )),
        Some(_) => description.push_str(&format!(" and mentions {value:?}")),
        None => {}
    }
    Some(Hop::new(
        Some(description),
        Condition::Url(UrlCondition::contains(keyword, tokens)),
    ))
}

/// MMInA credits the Wikipedia hop when the agent is on a page whose URL does not
/// contain `kiwix` but contains the next checkpoint: it left Kiwix for the next site.
/// Being on Kiwix, the start page included, never completes it. The next checkpoint is
/// required as a keyword only, as MMInA checks it; its own tokens are the next hop's
/// business, which the same page is then checked against (`pass_event_on`).
fn leaving_hop(
    at: &Place<'_>,
    leaves: &str,
    next: &str,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> Option<Hop> {
    let (n, keyword, site) = (at.number(), at.keyword, at.checkpoint.site);
    if next.is_empty() {
        return None; // reported at the next checkpoint's own index
    }
    if next.contains(leaves) {
        errors.push(FieldError::new(
            at.path(),
            format!(
                "{keyword:?} is followed by {next:?}: this hop completes on a page whose URL \
                 contains the next checkpoint but not {leaves:?}, which no URL can do"
            ),
        ));
        return None;
    }
    notes.push(format!(
        "hop {n} ({keyword:?}, {site}) completes on the first page whose URL contains \
         {next:?} (hop {}'s checkpoint) and not {leaves:?}, i.e. on leaving for the next \
         site, as MMInA counts it; that page is also checked against hop {}, so one jump \
         can complete both",
        n + 1,
        n + 1
    ));
    let condition = Condition::All {
        of: vec![
            Condition::Not(NotCondition::new(Condition::Url(UrlCondition::contains(
                leaves,
                Vec::new(),
            )))),
            Condition::Url(UrlCondition::contains(next, Vec::new())),
        ],
    };
    Some(Hop {
        description: Some(format!(
            "Hop {n}: leave {site} for the next site (a page whose URL contains {next:?}, \
             not {leaves:?})"
        )),
        condition,
        pass_event_on: true,
    })
}

/// A Wikipedia checkpoint that is last has no next site to leave for. MMInA scores its
/// 1-hop Wikipedia tasks by the answer, so the hop is the task's string check, or the
/// last-hop rule (every `must_include` reference in the URL).
fn last_leaving_hop(
    at: &Place<'_>,
    answer: Option<&AnswerCondition>,
    references: &Option<ReferencesInUrl>,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> Option<Hop> {
    let (n, keyword, site) = (at.number(), at.keyword, at.checkpoint.site);
    let Some(answer) = answer else {
        errors.push(FieldError::new(
            at.path(),
            format!(
                "{keyword:?} is the last checkpoint, so there is no next site to leave {site} \
                 for, and without a string_match reference answer nothing could complete the \
                 hop: list string_match in eval.eval_types with reference_answers"
            ),
        ));
        return None;
    };
    let condition = Condition::Answer(answer.clone());
    let mut description = format!("Hop {n}: give an {}", condition.describe());
    let mut of = vec![condition];
    if let Some(refs) = references {
        of.push(refs.condition());
        description.push_str(&format!(", or {}", refs.describe()));
    }
    notes.push(format!(
        "hop {n} ({keyword:?}, {site}) is the last checkpoint, so there is no next site to \
         leave for: it is completed by the answer check{}, as MMInA scores its 1-hop \
         Wikipedia tasks by the answer",
        if references.is_some() {
            " or by a page whose URL contains every must_include reference"
        } else {
            ""
        }
    ));
    let condition = if of.len() == 1 {
        of.remove(0)
    } else {
        Condition::Any { of }
    };
    Some(Hop::new(Some(description), condition))
}

/// MMInA's last-hop rule: the last hop is also credited on a page whose URL contains
/// every `must_include` reference answer (the intent asks agents to answer with the
/// final URL). Items are whole strings, as MMInA compares them, case-insensitive.
struct ReferencesInUrl(Vec<String>);

impl ReferencesInUrl {
    /// `None` without references, or when one is blank: an empty token would match
    /// every URL, and the blank reference already fails the task's validation.
    fn of(answer: Option<&AnswerCondition>) -> Option<ReferencesInUrl> {
        let items = &answer?.must_include;
        if items.is_empty() || items.iter().any(|s| s.trim().is_empty()) {
            return None;
        }
        Some(ReferencesInUrl(items.clone()))
    }

    fn condition(&self) -> Condition {
        Condition::Url(UrlCondition {
            op: None,
            value: None,
            ..UrlCondition::contains("", self.0.clone())
        })
    }

    fn quoted(&self) -> String {
        let quoted: Vec<String> = self.0.iter().map(|s| format!("{s:?}")).collect();
        quoted.join(", ")
    }

    fn describe(&self) -> String {
        format!(
            "reach a page whose URL contains every reference answer ({})",
            self.quoted()
        )
    }

    /// The last hop: its own page, or any page with every reference in its URL.
    fn added_to(&self, hop: Hop, n: usize, notes: &mut Vec<String>) -> Hop {
        notes.push(format!(
            "the last hop (hop {n}) also completes on a page whose URL contains every \
             must_include reference ({}), as in MMInA",
            self.quoted()
        ));
        Hop::new(
            hop.description
                .map(|d| format!("{d}, or {}", self.describe())),
            Condition::Any {
                of: vec![hop.condition, self.condition()],
            },
        )
    }
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
