//! WebArena's `eval` block (which MMInA reuses) turned into conditions.
//!
//! `string_match` becomes an answer condition; `url_match` and each `program_html`
//! entry become a "page check": a condition on a page the session reached or showed.
//! How these become hops depends on whether the task has an MMInA `procedure`
//! (see `config.rs`); docs/mmina-mapping.md explains every choice.

use super::raw::{RawAnswers, RawEval, RawFuzzy, RawProgramHtml};
use crate::condition::{
    AnswerCondition, Condition, FieldError, MatchOp, PageTextCondition, UrlCondition, UrlPart,
};

pub(crate) const EVAL_TYPES: [&str; 3] = ["string_match", "url_match", "program_html"];

/// WebArena's separator of alternatives, in `reference_url` and in page contents.
const OR: &str = " |OR| ";

/// Which page a page check is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// WebArena's "the page the agent ended on" (`url_match`, `program_html` url `last`).
    LastPage,
    /// A page at this URL (`program_html` with an explicit url).
    Url(String),
}

#[derive(Debug, Clone)]
pub(crate) struct PageCheck {
    pub target: Target,
    pub condition: Condition,
}

/// Everything the eval block asks, before it is arranged into hops.
#[derive(Debug, Default)]
pub(crate) struct EvalChecks {
    pub answer: Option<AnswerCondition>,
    /// `url_match` first (if listed), then `program_html` entries in file order.
    pub pages: Vec<PageCheck>,
}

/// Reads the eval block; problems go to `errors` with their JSON path.
pub(crate) fn read_eval(
    eval: &RawEval,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> EvalChecks {
    let mut listed = [false; 3];
    for (i, kind) in eval.eval_types.iter().enumerate() {
        match EVAL_TYPES.iter().position(|k| k == kind) {
            Some(k) => listed[k] = true,
            None => errors.push(FieldError::new(
                format!("eval.eval_types[{i}]"),
                format!(
                    "unknown eval type {kind:?} (expected string_match, url_match or program_html)"
                ),
            )),
        }
    }
    let [string_match, url_match, program_html] = listed;
    let mut checks = EvalChecks::default();

    let raw_answers = eval.reference_answers.as_ref();
    if string_match {
        let answer = raw_answers
            .map(|a| answer_condition(a, "eval.reference_answers", notes, errors))
            .unwrap_or_default();
        if answer.is_empty() {
            errors.push(FieldError::new(
                "eval.reference_answers",
                "string_match is listed but there is no must_include, exact_match or fuzzy_match",
            ));
        }
        checks.answer = Some(answer);
    } else if raw_answers.is_some_and(has_answers) {
        notes.push(
            "eval.reference_answers is set but string_match is not in eval_types: \
             it is not scored (as in WebArena)"
                .to_string(),
        );
    }

    let reference_url = eval.reference_url.as_deref().unwrap_or("").trim();
    if url_match {
        if let Some(check) = url_match_check(eval, errors) {
            checks.pages.push(check);
        }
    } else if !reference_url.is_empty() {
        notes.push(format!(
            "eval.reference_url {reference_url:?} is set but url_match is not in eval_types: \
             it is not scored (as in WebArena)"
        ));
    }

    let entries = eval.program_html.as_deref().unwrap_or(&[]);
    if program_html {
        if entries.is_empty() {
            errors.push(FieldError::new(
                "eval.program_html",
                "program_html is listed but has no entries",
            ));
        }
        for (i, entry) in entries.iter().enumerate() {
            if let Some(check) = program_html_check(i, entry, notes, errors) {
                checks.pages.push(check);
            }
        }
    } else if !entries.is_empty() {
        notes.push(
            "eval.program_html has entries but program_html is not in eval_types: \
             they are not scored (as in WebArena)"
                .to_string(),
        );
    }
    checks
}

fn has_answers(a: &RawAnswers) -> bool {
    a.must_include.as_ref().is_some_and(|m| !m.is_empty())
        || a.exact_match.is_some()
        || match &a.fuzzy_match {
            Some(RawFuzzy::List(l)) => !l.is_empty(),
            Some(RawFuzzy::Text(_)) => true,
            None => false,
        }
}

fn answer_condition(
    raw: &RawAnswers,
    path: &str,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> AnswerCondition {
    let mut answer = AnswerCondition {
        must_include: raw.must_include.clone().unwrap_or_default(),
        exact_match: raw.exact_match.clone(),
        fuzzy_match: Vec::new(),
    };
    match &raw.fuzzy_match {
        None => {}
        Some(RawFuzzy::List(list)) => answer.fuzzy_match = list.clone(),
        // WebArena's marker for "the expected answer is N/A" (an unachievable task):
        // asking a judge whether "N/A" can be inferred would be meaningless.
        Some(RawFuzzy::Text(text)) if text.trim().eq_ignore_ascii_case("n/a") => {
            match &answer.exact_match {
                Some(other) if !other.trim().eq_ignore_ascii_case("n/a") => {
                    errors.push(FieldError::new(
                        format!("{path}.fuzzy_match"),
                        format!(
                            "\"N/A\" means the answer must be exactly N/A, \
                             but exact_match is {other:?}"
                        ),
                    ));
                }
                _ => {
                    answer.exact_match = Some(text.trim().to_string());
                    notes.push(format!(
                        "{path}.fuzzy_match is the string {text:?} (WebArena's marker for an \
                         unachievable task): checked as exact_match \"N/A\""
                    ));
                }
            }
        }
        Some(RawFuzzy::Text(text)) => {
            answer.fuzzy_match = vec![text.clone()];
            notes.push(format!(
                "{path}.fuzzy_match is a string, not a list: used as one reference"
            ));
        }
    }
    answer
}

fn url_match_check(eval: &RawEval, errors: &mut Vec<FieldError>) -> Option<PageCheck> {
    let references: Vec<&str> = eval
        .reference_url
        .as_deref()
        .unwrap_or("")
        .split(OR)
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if references.is_empty() {
        errors.push(FieldError::new(
            "eval.reference_url",
            "url_match is listed but reference_url is empty",
        ));
    }
    let op = match eval.url_note.as_deref().map(str::trim) {
        None | Some("") | Some("EXACT") => MatchOp::Equals,
        Some("GOLD in PRED") => MatchOp::Contains,
        Some(other) => {
            errors.push(FieldError::new(
                "eval.url_note",
                format!("unknown url_note {other:?} (expected EXACT or GOLD in PRED)"),
            ));
            return None;
        }
    };
    let mut alternatives: Vec<Condition> = references
        .iter()
        .map(|r| Condition::Url(url_condition(op, r)))
        .collect();
    let condition = match alternatives.len() {
        0 => return None,
        1 => alternatives.remove(0),
        _ => Condition::Any { of: alternatives },
    };
    Some(PageCheck {
        target: Target::LastPage,
        condition,
    })
}

fn url_condition(op: MatchOp, value: &str) -> UrlCondition {
    UrlCondition {
        part: UrlPart::Url,
        param: None,
        op: Some(op),
        value: Some(value.to_string()),
        tokens: Vec::new(),
        case_sensitive: false,
    }
}

fn program_html_check(
    i: usize,
    entry: &RawProgramHtml,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> Option<PageCheck> {
    let path = format!("eval.program_html[{i}]");
    let url = entry.url.trim();
    let target = if url.is_empty() || url == "last" {
        Target::LastPage
    } else if url.starts_with("func:") {
        notes.push(format!(
            "{path}.url {url:?} is a WebArena helper function, not evaluated: \
             the text is looked for on any page"
        ));
        Target::LastPage
    } else {
        Target::Url(url.to_string())
    };
    if !entry.locator.trim().is_empty() {
        notes.push(format!(
            "{path}.locator is JavaScript and is not evaluated: the whole page text is checked"
        ));
    }
    let contents = &entry.required_contents;
    let mut plain: Vec<String> = Vec::new();
    let mut alternatives: Vec<Condition> = Vec::new();
    for item in contents.must_include.as_deref().unwrap_or(&[]) {
        let options: Vec<&str> = item.split(OR).map(str::trim).collect();
        if options.len() == 1 {
            plain.push(item.clone());
        } else {
            alternatives.push(Condition::Any {
                of: options.iter().map(|o| page_text(vec![o])).collect(),
            });
        }
    }
    if let Some(exact) = &contents.exact_match {
        plain.push(exact.clone());
        notes.push(format!(
            "{path}.required_contents.exact_match is checked as text present on the page \
             (without the locator there is no single element to compare exactly)"
        ));
    }
    if contents.fuzzy_match.is_some() {
        errors.push(FieldError::new(
            format!("{path}.required_contents.fuzzy_match"),
            "not supported in program_html (WebArena has must_include and exact_match only)",
        ));
    }
    if plain.is_empty() && alternatives.is_empty() {
        errors.push(FieldError::new(
            format!("{path}.required_contents"),
            "needs must_include or exact_match",
        ));
        return None;
    }
    // In file order: the page, then the plain strings, then the "A |OR| B" items.
    let mut parts: Vec<Condition> = Vec::new();
    if let Target::Url(u) = &target {
        parts.push(Condition::Url(url_condition(MatchOp::Equals, u)));
    }
    if !plain.is_empty() {
        parts.push(Condition::PageText(PageTextCondition {
            contains: plain,
            case_sensitive: false,
        }));
    }
    parts.extend(alternatives);
    let condition = if parts.len() == 1 {
        parts.remove(0)
    } else {
        Condition::All { of: parts }
    };
    Some(PageCheck { target, condition })
}

fn page_text(contains: Vec<&str>) -> Condition {
    Condition::PageText(PageTextCondition {
        contains: contains.into_iter().map(String::from).collect(),
        case_sensitive: false,
    })
}

/// Arranges page checks into hop conditions. Checks about the same page become one hop
/// (they must hold on the same page, as WebArena checks them on one final state);
/// checks about different pages cannot hold on one page, so each page gets its own
/// hop, in the order the file lists them.
pub(crate) fn page_hops(pages: Vec<PageCheck>, notes: &mut Vec<String>) -> Vec<Condition> {
    let mut groups: Vec<(Target, Vec<Condition>)> = Vec::new();
    for check in pages {
        match groups.iter_mut().find(|(t, _)| *t == check.target) {
            Some((_, conditions)) => conditions.push(check.condition),
            None => groups.push((check.target, vec![check.condition])),
        }
    }
    if groups.len() > 1 {
        notes.push(format!(
            "the eval checks {} different pages: WebArena checks them together at the end; \
             here each page is one hop, in the order listed",
            groups.len()
        ));
    }
    groups
        .into_iter()
        .map(|(_, mut conditions)| {
            if conditions.len() == 1 {
                conditions.remove(0)
            } else {
                Condition::All { of: conditions }
            }
        })
        .collect()
}
