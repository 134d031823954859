//! Semantic checks of a whole task; every problem is reported with its JSON path.

use super::Task;
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
        if let Some(answer) = &self.final_answer {
            Condition::Answer(answer.condition.clone())
                .validate("final_answer.condition", &mut errors);
        }
        errors
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
