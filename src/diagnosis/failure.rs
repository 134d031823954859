//! The multihop failure mode of a failed run (MMInA §4.3 and stage-diagnostics.md),
//! read from its steps and hop log. One mode per run, the first that applies in this
//! order, so the modes of a suite add up to its failures:
//!
//! 1. step error: the run broke (verdict ERROR), or its last three steps got no reply
//!    from the model;
//! 2. unparseable output: the last three replies held no action, or half the steps;
//! 3. loop: the last three actions are the same, the same `type` was issued three
//!    times, or the last six actions alternate between two;
//! 4. wandered to another site: while stuck on a hop, the agent went to a site that
//!    is neither where the hop began nor one the hop's conditions name (when they name
//!    none, to two or more other sites);
//! 5. missed a finished hop: after completing a hop the agent never left the site it
//!    completed it on (two steps or more), though the next hop is elsewhere (or its
//!    site is unknown); or every hop was done and no answer was given;
//! 6. failed early hop: stuck on a hop in the first half of the task;
//! 7. other: none of these (a wrong final answer, a late hop failed on its own site).

use serde::{Deserialize, Serialize};

use crate::memory::site_of;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureMode {
    FailedEarlyHop,
    Wandered,
    MissedFinishedHop,
    Loop,
    UnparseableOutput,
    StepError,
    Other,
}

impl FailureMode {
    pub const ALL: [FailureMode; 7] = [
        FailureMode::FailedEarlyHop,
        FailureMode::Wandered,
        FailureMode::MissedFinishedHop,
        FailureMode::Loop,
        FailureMode::UnparseableOutput,
        FailureMode::StepError,
        FailureMode::Other,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FailureMode::FailedEarlyHop => "failed early hop",
            FailureMode::Wandered => "wandered to another site",
            FailureMode::MissedFinishedHop => "missed a finished hop",
            FailureMode::Loop => "loop",
            FailureMode::UnparseableOutput => "unparseable output",
            FailureMode::StepError => "step error",
            FailureMode::Other => "other",
        }
    }
}

/// One step as the classifier sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceStep {
    /// The page the step observed.
    pub url: Option<String>,
    /// The action taken (canonical text); `None` for a step without one.
    pub action: Option<String>,
    /// The model call failed (no reply at all).
    pub model_failed: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunTrace {
    /// The run broke (verdict ERROR).
    pub error: bool,
    pub passed: bool,
    pub hops_total: usize,
    /// The step at which each hop completed, `None` for hops not completed.
    pub hop_steps: Vec<Option<u32>>,
    /// The agent gave an answer (`stop [...]`).
    pub answered: bool,
    /// Step k is `steps[k - 1]`.
    pub steps: Vec<TraceStep>,
    /// Per hop, the sites (`host[:port]`) its conditions name; empty when unknown.
    pub hop_sites: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub mode: FailureMode,
    /// What in the run made it this mode, for people.
    pub why: String,
}

fn failure(mode: FailureMode, why: impl Into<String>) -> Option<Failure> {
    Some(Failure {
        mode,
        why: why.into(),
    })
}

/// The failure mode of a run that did not pass; `None` for a pass.
pub fn classify(run: &RunTrace) -> Option<Failure> {
    if run.passed && !run.error {
        return None;
    }
    if run.error {
        return failure(FailureMode::StepError, "the run broke (verdict ERROR)");
    }
    let last3 = run.steps.iter().rev().take(3).collect::<Vec<_>>();
    if last3.len() == 3 && last3.iter().all(|s| s.action.is_none() && s.model_failed) {
        return failure(
            FailureMode::StepError,
            "the model call failed at each of the last 3 steps",
        );
    }
    if let Some(found) = unparseable(run, &last3) {
        return Some(found);
    }
    if let Some(found) = looped(run) {
        return Some(found);
    }
    hop_failure(run)
}

fn unparseable(run: &RunTrace, last3: &[&TraceStep]) -> Option<Failure> {
    let no_action = |s: &&TraceStep| s.action.is_none() && !s.model_failed;
    if last3.len() == 3 && last3.iter().all(no_action) {
        return failure(
            FailureMode::UnparseableOutput,
            "the last 3 replies held no action",
        );
    }
    let count = run.steps.iter().filter(|s| no_action(s)).count();
    if count >= 2 && count * 2 >= run.steps.len() {
        return failure(
            FailureMode::UnparseableOutput,
            format!("{count} of {} replies held no action", run.steps.len()),
        );
    }
    None
}

fn looped(run: &RunTrace) -> Option<Failure> {
    let actions: Vec<&str> = run
        .steps
        .iter()
        .filter_map(|s| s.action.as_deref())
        .collect();
    if let [.., a, b, c] = actions.as_slice() {
        if a == b && b == c {
            return failure(FailureMode::Loop, format!("`{c}` three times in a row"));
        }
    }
    for (i, a) in actions.iter().enumerate() {
        let repeats = actions[i..].iter().filter(|b| *b == a).count();
        if a.starts_with("type ") && repeats >= 3 && actions[..i].iter().all(|b| b != a) {
            return failure(FailureMode::Loop, format!("`{a}` three times"));
        }
    }
    if let [.., a, b, c, d, e, f] = actions.as_slice() {
        if a != b && a == c && c == e && b == d && d == f {
            return failure(
                FailureMode::Loop,
                format!("`{a}` and `{b}` in turn, three times"),
            );
        }
    }
    None
}

fn hop_failure(run: &RunTrace) -> Option<Failure> {
    let done: Vec<u32> = run.hop_steps.iter().flatten().copied().collect();
    let total = run.hops_total.max(run.hop_steps.len());
    let last_done = done.last().copied();
    // The steps since the last completed hop: the first of them observed the page the
    // completing action led to.
    let window: Vec<Option<String>> = run
        .steps
        .iter()
        .enumerate()
        .filter(|(i, _)| last_done.is_none_or(|d| *i as u32 + 1 > d))
        .map(|(_, s)| s.url.as_deref().and_then(site_of))
        .collect();
    let home = window.iter().flatten().next().cloned();
    if done.len() >= total {
        return if run.answered {
            failure(
                FailureMode::Other,
                "every hop was done; the answer failed its check",
            )
        } else {
            failure(
                FailureMode::MissedFinishedHop,
                "every hop was done, but the agent never answered",
            )
        };
    }
    let head = done.len();
    let head_sites = run.hop_sites.get(head).cloned().unwrap_or_default();
    let mut others: Vec<&String> = Vec::new();
    for site in window.iter().flatten() {
        if Some(site) != home.as_ref() && !head_sites.contains(site) && !others.contains(&site) {
            others.push(site);
        }
    }
    let wandered = if head_sites.is_empty() {
        others.len() >= 2
    } else {
        !others.is_empty()
    };
    if wandered {
        let names: Vec<&str> = others.iter().map(|s| s.as_str()).collect();
        return failure(
            FailureMode::Wandered,
            format!(
                "stuck on hop {} of {total}, went to {}",
                head + 1,
                names.join(", ")
            ),
        );
    }
    if let (Some(_), Some(home)) = (last_done, &home) {
        let stayed = window.len() >= 2 && window.iter().flatten().all(|s| s == home);
        if stayed && !head_sites.contains(home) {
            return failure(
                FailureMode::MissedFinishedHop,
                format!(
                    "completed hop {} and stayed on {home} for the {} steps after",
                    done.len(),
                    window.len()
                ),
            );
        }
    }
    if head < total.div_ceil(2) {
        return failure(
            FailureMode::FailedEarlyHop,
            format!("stuck on hop {} of {total}", head + 1),
        );
    }
    failure(
        FailureMode::Other,
        format!("stuck on hop {} of {total}, a late hop", head + 1),
    )
}
