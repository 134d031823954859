//! MMInA task files and WebArena config files (the same shape) mapped to our `Task`.

use super::eval::{page_hops, read_eval, EvalChecks};
use super::intent::reference_sites;
use super::procedure::procedure_hops;
use super::raw::RawConfig;
use super::{Format, ImportError};
use crate::condition::{Condition, FieldError};
use crate::event::Event;
use crate::judge::NoJudge;
use crate::task::{read_json, FinalAnswer, Hop, Task, TaskSource};
use std::path::Path;

/// MMInA's subset folders (`mmina/<domain>/<i>.json`).
pub(crate) const MMINA_DOMAINS: [&str; 6] = [
    "shopping",
    "wikipedia",
    "normal",
    "compare",
    "multi567",
    "multipro",
];

/// WebArena and MMInA open one tab per URL joined by this separator.
const AND: &str = " |AND| ";

pub(crate) fn import_config(text: &str, file: &Path, format: Format) -> Result<Task, ImportError> {
    let raw: RawConfig = read_json(text).map_err(|e| ImportError::from_task_error(file, e))?;
    let mut notes = Vec::new();
    let mut errors = Vec::new();
    check_placeholders(&raw, &mut errors);
    let checks = read_eval(&raw.eval, &mut notes, &mut errors);
    let (hops, final_answer) = match (&raw.procedure, format) {
        (Some(procedure), Format::Mmina) => {
            let answer = checks.answer.as_ref();
            let hops = procedure_hops(&raw, procedure, answer, &mut notes, &mut errors);
            check_cnt_hop(raw.cnt_hop, hops.len(), true, &mut notes);
            (hops, procedure_answer(checks, &mut notes))
        }
        _ => {
            let (hops, answer) = eval_hops(checks, &mut notes, &mut errors);
            if format == Format::Mmina {
                check_cnt_hop(raw.cnt_hop, hops.len(), false, &mut notes);
            }
            (hops, answer)
        }
    };
    if !errors.is_empty() {
        return Err(ImportError::Fields {
            file: file.to_path_buf(),
            errors,
        });
    }
    let start_urls: Vec<String> = raw
        .start_url
        .split(AND)
        .map(|u| u.trim().to_string())
        .collect();
    note_start_satisfies_first_hop(&start_urls, &hops, &mut notes);
    let id = match format {
        Format::Mmina => mmina_id(file, raw.task_id, &mut notes),
        _ => format!("webarena/{}", raw.task_id),
    };
    let task = Task {
        schema: None,
        id,
        reference_sites: match format {
            Format::Mmina => reference_sites(&raw.intent),
            _ => Vec::new(),
        },
        intent: raw.intent,
        start_urls,
        hops,
        final_answer,
        reference_trajectory: Vec::new(),
        alternative_trajectories: Vec::new(),
        source: Some(TaskSource {
            format: format.name().to_string(),
            file: Some(file.display().to_string()),
            notes,
        }),
    };
    let invalid = task.validate();
    if invalid.is_empty() {
        Ok(task)
    } else {
        Err(ImportError::Invalid {
            file: file.to_path_buf(),
            errors: invalid,
        })
    }
}

/// The paper scores multihop tasks by the hop queue; the answer check is reported
/// beside it, so it is not required for a PASS.
fn procedure_answer(checks: EvalChecks, notes: &mut Vec<String>) -> Option<FinalAnswer> {
    if !checks.pages.is_empty() {
        notes.push(
            "url_match/program_html in eval are not scored: a task with a procedure is \
             scored by its checkpoint hops (MMInA's protocol)"
                .to_string(),
        );
    }
    checks.answer.map(|condition| FinalAnswer {
        condition,
        required: false,
    })
}

/// A task without a procedure: its eval is the hop. When it also has a string check,
/// the page check(s) are the hop(s) and the answer is a required final answer, since
/// WebArena requires every listed check to pass.
fn eval_hops(
    checks: EvalChecks,
    notes: &mut Vec<String>,
    errors: &mut Vec<FieldError>,
) -> (Vec<Hop>, Option<FinalAnswer>) {
    let answer = checks.answer;
    if checks.pages.is_empty() {
        let Some(condition) = answer else {
            errors.push(FieldError::new(
                "eval.eval_types",
                "no check to build a hop from: list string_match, url_match or program_html",
            ));
            return (Vec::new(), None);
        };
        let hop = Hop::new(
            Some(format!("Hop 1: give an {}", condition.describe())),
            Condition::Answer(condition),
        );
        return (vec![hop], None);
    }
    let hops = page_hops(checks.pages, notes)
        .into_iter()
        .enumerate()
        .map(|(i, condition)| {
            Hop::new(
                Some(format!("Hop {}: {}", i + 1, condition.describe())),
                condition,
            )
        })
        .collect();
    let final_answer = answer.map(|condition| {
        notes.push(
            "eval has both a string check and a page check: the page check is the hop and \
             the string check is a required final answer"
                .to_string(),
        );
        FinalAnswer {
            condition,
            required: true,
        }
    });
    (hops, final_answer)
}

/// MMInA's `cnt_hop` counts the END marker (task 17: 2 checkpoints, cnt_hop 3).
/// For 1-hop tasks without a procedure we accept either convention.
fn check_cnt_hop(cnt_hop: Option<u64>, hops: usize, procedure: bool, notes: &mut Vec<String>) {
    let Some(declared) = cnt_hop else { return };
    let with_end = hops as u64 + 1;
    let ok = declared == with_end || (!procedure && declared == hops as u64);
    if !ok && hops > 0 {
        notes.push(format!(
            "cnt_hop is {declared}, but the task has {hops} hop{} (+ END = {with_end}); \
             the hops are taken from the {}",
            if hops == 1 { "" } else { "s" },
            if procedure { "procedure" } else { "eval" }
        ));
    }
}

fn note_start_satisfies_first_hop(start_urls: &[String], hops: &[Hop], notes: &mut Vec<String>) {
    let Some(first) = hops.first() else { return };
    let satisfied = start_urls.iter().any(|url| {
        let event = Event::navigation(0, 0, 0, url);
        first.condition.is_triggered_by(&event)
            && first.condition.holds(&event, &mut NoJudge).unwrap_or(false)
    });
    if satisfied {
        notes.push(
            "the start URL already satisfies hop 1, so hop 1 is credited as soon as the \
             task opens"
                .to_string(),
        );
    }
}

/// `mmina/<domain>/<task_id>` inside one of MMInA's subset folders, else
/// `mmina/<file stem>` (a lone file's task_id is only unique within its subset).
fn mmina_id(file: &Path, task_id: u64, notes: &mut Vec<String>) -> String {
    let domain = file
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .filter(|d| MMINA_DOMAINS.contains(d));
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match domain {
        Some(domain) => {
            if stem != task_id.to_string() {
                notes.push(format!(
                    "task_id {task_id} differs from the file name {stem:?}: the id uses task_id"
                ));
            }
            format!("mmina/{domain}/{task_id}")
        }
        None => format!("mmina/{stem}"),
    }
}

/// WebArena writes site addresses as placeholders (`__SHOPPING__`); they must be
/// replaced by the address where the user hosts that site before the task can run.
fn check_placeholders(raw: &RawConfig, errors: &mut Vec<FieldError>) {
    let mut fields: Vec<(String, &str)> = vec![("start_url".to_string(), raw.start_url.as_str())];
    if let Some(url) = &raw.eval.reference_url {
        fields.push(("eval.reference_url".to_string(), url));
    }
    for (i, entry) in raw.eval.program_html.iter().flatten().enumerate() {
        fields.push((format!("eval.program_html[{i}].url"), &entry.url));
    }
    for (path, value) in fields {
        for placeholder in placeholders(value) {
            errors.push(FieldError::new(
                path.clone(),
                format!(
                    "contains the placeholder {placeholder}: substitute the URL where you host \
                     that site (e.g. http://localhost:7770) before running the task"
                ),
            ));
        }
    }
}

/// `__NAME__` runs (uppercase letters, digits, underscores) in `s`, each once.
fn placeholders(s: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let Ok(re) = regex_lite::Regex::new(r"__[A-Z][A-Z0-9_]*?__") else {
        return found;
    };
    for m in re.find_iter(s) {
        let p = m.as_str().to_string();
        if !found.contains(&p) {
            found.push(p);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_webarena_placeholders() {
        assert_eq!(
            placeholders("__SHOPPING_ADMIN__/admin |AND| __MAP__/x __MAP__"),
            ["__SHOPPING_ADMIN__", "__MAP__"]
        );
        assert!(placeholders("https://www.eventbrite.com/d/japan--tokyo/").is_empty());
    }

    #[test]
    fn ids_use_the_subset_folder() {
        let mut notes = Vec::new();
        assert_eq!(
            mmina_id(Path::new("x/mmina/normal/17.json"), 17, &mut notes),
            "mmina/normal/17"
        );
        assert!(notes.is_empty());
        assert_eq!(
            mmina_id(Path::new("data/mmina-task-17.json"), 17, &mut notes),
            "mmina/mmina-task-17"
        );
        mmina_id(Path::new("mmina/compare/3.json"), 4, &mut notes);
        assert_eq!(notes.len(), 1);
    }
}
