//! The site fence of a run: the origins an agent may open in the person's browser.
//!
//! Allowed are the origins the task names ([`task_sites`]), the forms those sites
//! commonly redirect to on the first request ([`Origin::twins`]), and the origins the
//! person adds in Settings; the person's deny list removes origins from all of these.
//! The extension blocks every top-level navigation of the run's tabs to any other
//! origin before the request leaves the browser (docs/security.md).

mod origin;
mod task_sites;

#[cfg(test)]
mod tests;

pub use origin::{Origin, OriginError, Scheme};
pub use task_sites::{condition_origins, task_origins};

use crate::condition::FieldError;
use crate::task::Task;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The person's additions and exclusions (Settings → Sites), one entry per line:
/// `https://host`, `http://host:port`, or a bare `host[:port]` for both schemes.
/// Blank lines and lines starting with `#` are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct SiteLists {
    pub allow: Vec<String>,
    pub deny: Vec<String>,
}

/// One allowed origin and why it is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AllowedOrigin {
    /// As `new URL(u).origin` prints it: `https://example.com`, `http://127.0.0.1:8600`.
    pub origin: String,
    pub reasons: Vec<String>,
}

/// The fence of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SiteFence {
    /// Sorted by origin.
    pub origins: Vec<AllowedOrigin>,
    /// Origins the task (or its twins) named that the deny list removed, so the
    /// person can see that their list took effect.
    pub denied: Vec<String>,
}

impl SiteFence {
    /// Whether `url`'s origin is inside the fence (non-http(s) URLs never are).
    pub fn allows(&self, url: &str) -> bool {
        Origin::of_url(url).is_ok_and(|o| {
            let text = o.to_string();
            self.origins.iter().any(|a| a.origin == text)
        })
    }
}

/// Every problem of the lists, located as `sites.allow` / `sites.deny` with the line.
pub fn list_problems(lists: &SiteLists) -> Vec<FieldError> {
    let mut problems = Vec::new();
    for (field, lines) in [("sites.allow", &lists.allow), ("sites.deny", &lists.deny)] {
        for (i, line) in lines.iter().enumerate() {
            if let Err(error) = parse_entry(line) {
                problems.push(FieldError::new(field, format!("line {}: {error}", i + 1)));
            }
        }
    }
    problems
}

/// The origins one list line stands for; an ignorable line gives none.
fn parse_entry(line: &str) -> Result<Vec<Origin>, OriginError> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(Vec::new());
    }
    if text.contains("://") {
        Origin::of_url(text).map(|o| vec![o])
    } else {
        Origin::of_bare_host(text).map(Vec::from)
    }
}

/// The fence for `task` with the person's lists; the lists' problems if any.
pub fn fence_for(task: &Task, lists: &SiteLists) -> Result<SiteFence, Vec<FieldError>> {
    let problems = list_problems(lists);
    if !problems.is_empty() {
        return Err(problems);
    }
    let parse_all = |lines: &[String]| -> Vec<Origin> {
        lines
            .iter()
            .flat_map(|l| parse_entry(l).unwrap_or_default())
            .collect()
    };
    let mut allowed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |origin: &Origin, reason: String| {
        let reasons = allowed.entry(origin.to_string()).or_default();
        if !reasons.contains(&reason) {
            reasons.push(reason);
        }
    };
    for (origin, reason) in task_origins(task) {
        for twin in origin.twins() {
            add(&twin, format!("redirect form of {origin}"));
        }
        add(&origin, reason);
    }
    for origin in parse_all(&lists.allow) {
        add(&origin, "added in Settings".to_owned());
    }
    let mut denied = Vec::new();
    for origin in parse_all(&lists.deny) {
        let text = origin.to_string();
        if allowed.remove(&text).is_some() {
            denied.push(text);
        }
    }
    denied.sort();
    denied.dedup();
    Ok(SiteFence {
        origins: allowed
            .into_iter()
            .map(|(origin, reasons)| AllowedOrigin { origin, reasons })
            .collect(),
        denied,
    })
}
