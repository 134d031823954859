//! One finished run as memory keeps it. The JSON form is what the extension stores in
//! IndexedDB and the runner in `memory.jsonl` (one record a line); docs/agent-run.md
//! "Procedural memory" describes it.

use serde::{Deserialize, Serialize};

use super::element::memory_action_text;
use crate::action::Action;
use crate::agent::{FinishCause, RecordedStep};
use crate::condition::url_parts::UrlParts;
use crate::task::Task;

/// How the run was judged. Only runs that went their own way to an end are kept:
/// stopped or broken runs say nothing about the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MemoryVerdict {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(MemoryVerdict, "MemoryVerdict", {
    Pass = "PASS",
    Fail = "FAIL",
});

impl MemoryVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryVerdict::Pass => "PASS",
            MemoryVerdict::Fail => "FAIL",
        }
    }
}

/// One step: the action in memory form (`click {link 'Tokyo'}`; `None` for a step that
/// gave no action) and the site it was taken on (`host[:port]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MemoryStep {
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub site: Option<String>,
}

/// Unknown fields are ignored, so records written by a newer version still load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MemoryRecord {
    pub task_id: String,
    /// The task's subset: its id up to the last `/` (`mmina/shopping`), empty for ids
    /// without one. The `recent` policy stays inside a subset, as the paper did.
    #[serde(default)]
    pub subset: String,
    pub intent: String,
    /// `host[:port]` of the start URLs and reference websites, lower-case, each once.
    #[serde(default)]
    pub sites: Vec<String>,
    #[serde(default)]
    pub steps: Vec<MemoryStep>,
    pub hops_total: usize,
    /// The step at which each completed hop was completed, in hop order.
    #[serde(default)]
    pub hop_steps: Vec<u32>,
    pub verdict: MemoryVerdict,
    /// How the run ended (`answered`, `all_hops_done`, `early_stop`, `replay_ended`).
    pub ended: FinishCause,
    /// A person did this run (a human session's demonstration), not an agent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub by_person: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `mmina/shopping/12` → `mmina/shopping`; `sb-01` → empty.
pub fn subset_of(task_id: &str) -> &str {
    task_id.rsplit_once('/').map_or("", |(subset, _)| subset)
}

/// `host[:port]` of a URL, lower-case.
pub fn site_of(url: &str) -> Option<String> {
    let parts = UrlParts::parse(url)?;
    if parts.host.is_empty() {
        return None;
    }
    let host = parts.host.to_ascii_lowercase();
    Some(match parts.port {
        Some(port) => format!("{host}:{port}"),
        None => host,
    })
}

/// The sites of a task: start URLs first, then reference websites, each once.
pub(crate) fn task_sites(task: &Task) -> Vec<String> {
    let mut sites: Vec<String> = Vec::new();
    let urls = task
        .start_urls
        .iter()
        .chain(task.reference_sites.iter().map(|s| &s.url));
    for site in urls.filter_map(|u| site_of(u)) {
        if !sites.contains(&site) {
            sites.push(site);
        }
    }
    sites
}

impl MemoryRecord {
    /// The record of a run of `task` that took `steps` and ended with `cause`, with the
    /// tracker's result (`passed`, `hop_steps`). `None` for endings that say nothing
    /// about the task: a person's Stop, an interruption (a page that would not load, the
    /// browser's exit), an unusable model, a replay that broke.
    pub fn of_run(
        task: &Task,
        steps: Vec<MemoryStep>,
        cause: FinishCause,
        passed: bool,
        hop_steps: Vec<u32>,
    ) -> Option<MemoryRecord> {
        match cause {
            FinishCause::Answered
            | FinishCause::AllHopsDone
            | FinishCause::EarlyStop
            | FinishCause::ReplayEnded => {}
            FinishCause::Stopped
            | FinishCause::Interrupted
            | FinishCause::ModelUnavailable
            | FinishCause::ContextOverflow
            | FinishCause::UnsupportedInput
            | FinishCause::ReplayFailed => return None,
        }
        Some(Self::ended(task, steps, cause, passed, hop_steps))
    }

    fn ended(
        task: &Task,
        steps: Vec<MemoryStep>,
        cause: FinishCause,
        passed: bool,
        hop_steps: Vec<u32>,
    ) -> MemoryRecord {
        MemoryRecord {
            task_id: task.id.clone(),
            subset: subset_of(&task.id).to_string(),
            intent: task.intent.trim().to_string(),
            sites: task_sites(task),
            steps,
            hops_total: task.hops.len(),
            hop_steps,
            verdict: if passed {
                MemoryVerdict::Pass
            } else {
                MemoryVerdict::Fail
            },
            ended: cause,
            by_person: false,
        }
    }

    /// A person's demonstration of `task` (a human session that ended with their
    /// answer) as a record: each recorded step's action with the text of the element it
    /// touched and its site, the tracker's result (`passed`, `hop_steps`). Like an
    /// agent's record it keeps neither the answer nor the task's conditions. Steps
    /// whose action does not parse (there should be none: the recorder writes them)
    /// are kept as steps without an action.
    pub fn of_demonstration(
        task: &Task,
        steps: &[RecordedStep],
        passed: bool,
        hop_steps: Vec<u32>,
    ) -> MemoryRecord {
        let steps = steps
            .iter()
            .map(|step| MemoryStep {
                action: Action::parse(&step.action)
                    .ok()
                    .map(|a| memory_action_text(&a, &step.observation)),
                site: step.url.as_deref().and_then(site_of),
            })
            .collect();
        MemoryRecord {
            by_person: true,
            ..Self::ended(task, steps, FinishCause::Answered, passed, hop_steps)
        }
    }

    /// Reads a pool: a JSON array of records, or JSON Lines (one record a line, blank
    /// lines skipped). An unreadable record is an error naming its position, so a
    /// damaged memory file is noticed rather than silently shrunk.
    pub fn parse_pool(text: &str) -> Result<Vec<MemoryRecord>, String> {
        let trimmed = text.trim_start();
        if trimmed.is_empty() {
            return Ok(Vec::new());
        }
        if trimmed.starts_with('[') {
            return crate::json_read::from_str(trimmed).map_err(|e| format!("memory records: {e}"));
        }
        text.lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| {
                crate::json_read::from_str(line)
                    .map_err(|e| format!("memory record line {}: {e}", i + 1))
            })
            .collect()
    }
}
