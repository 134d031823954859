//! Semantic checks of a whole task; every problem is reported with its JSON path.

use super::{ReferenceStep, Task};
use crate::action::ActionKind;
use crate::condition::{Condition, FieldError};

impl Task {
    /// All problems found, empty when the task is usable.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.id.trim().is_empty() {
            errors.push(FieldError::new("id", "empty"));
        }
        if self.intent.trim().is_empty() {
            errors.push(FieldError::new(
                "intent",
                "empty: the agent would have nothing to do",
            ));
        }
        if self.start_urls.is_empty() {
            errors.push(FieldError::new("start_urls", "needs at least one URL"));
        }
        for (i, url) in self.start_urls.iter().enumerate() {
            check_http(url, &format!("start_urls[{i}]"), &mut errors);
        }
        for (i, site) in self.reference_sites.iter().enumerate() {
            if site.label.trim().is_empty() {
                errors.push(FieldError::new(
                    format!("reference_sites[{i}].label"),
                    "empty",
                ));
            }
            check_http(&site.url, &format!("reference_sites[{i}].url"), &mut errors);
        }
        if self.hops.is_empty() {
            errors.push(FieldError::new("hops", "needs at least one hop"));
        }
        for (i, hop) in self.hops.iter().enumerate() {
            hop.condition
                .validate(&format!("hops[{i}].condition"), &mut errors);
        }
        if self.hops.last().is_some_and(|h| h.pass_event_on) {
            errors.push(FieldError::new(
                format!("hops[{}].pass_event_on", self.hops.len() - 1),
                "the last hop has no next hop to pass its event on to; remove the field",
            ));
        }
        if let Some(answer) = &self.final_answer {
            Condition::Answer(answer.condition.clone())
                .validate("final_answer.condition", &mut errors);
        }
        check_reference_trajectory(
            "reference_trajectory",
            &self.reference_trajectory,
            &mut errors,
        );
        for (i, steps) in self.alternative_trajectories.iter().enumerate() {
            check_reference_trajectory(
                &format!("alternative_trajectories[{i}]"),
                steps,
                &mut errors,
            );
        }
        errors
    }
}

/// Each step must be an action once its `{role 'name'}` becomes an id, and nothing may
/// follow a `stop`, since the replay ends there and the later steps would never run.
fn check_reference_trajectory(field: &str, steps: &[String], errors: &mut Vec<FieldError>) {
    let mut stopped_at = None;
    for (i, text) in steps.iter().enumerate() {
        let path = format!("{field}[{i}]");
        if let Some(stop) = stopped_at {
            errors.push(FieldError::new(
                path,
                format!("comes after the stop in {field}[{stop}]; a replay ends at stop"),
            ));
            continue;
        }
        match ReferenceStep::parse(text) {
            Ok(step) => {
                if step.kind() == ActionKind::Stop {
                    stopped_at = Some(i);
                }
            }
            Err(e) => errors.push(FieldError::new(path, format!("{text:?}: {e}"))),
        }
    }
}

fn check_http(url: &str, path: &str, errors: &mut Vec<FieldError>) {
    let lower = url.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"));
    if rest.is_none_or(|r| r.is_empty() || r.starts_with('/')) {
        errors.push(FieldError::new(
            path,
            format!("{url:?} is not an http(s) URL"),
        ));
    }
}
