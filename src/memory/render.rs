//! The prompt section that shows the chosen records. Our wording; the paper only says
//! the trajectories of past tasks are appended to the prompt.

use std::fmt::Write;

use super::record::{MemoryRecord, MemoryVerdict};
use super::select::MemoryPolicy;
use crate::agent::FinishCause;

/// The section's first line; tests and the trajectory checks look for it.
pub const MEMORY_HEADING: &str = "PAST TASKS (procedural memory)";

/// A long run would push the page out of the prompt; its first steps show how the
/// sites work, which is what memory is for.
const MAX_STEPS_SHOWN: usize = 30;
/// Typed text can be long (a pasted paragraph); memory needs its gist.
const MAX_ACTION_CHARS: usize = 200;

/// The section for `records`, or `None` when there are none.
pub fn memory_section(records: &[&MemoryRecord], policy: MemoryPolicy) -> Option<String> {
    if records.is_empty() {
        return None;
    }
    let order = match policy {
        MemoryPolicy::Recent => "in the order they were done",
        MemoryPolicy::Similar => "the most similar first",
    };
    let mut text = format!(
        "{MEMORY_HEADING}\n\
         Below are {} earlier tasks and what was done in them, {order}. They are other \
         tasks, not the current one: use them to learn how the websites behave and which \
         steps led somewhere, not as answers. Elements are written {{role 'name'}} as the \
         pages showed them; ids change from visit to visit, so act only on the ids of the \
         current observation.",
        records.len()
    );
    for (i, record) in records.iter().enumerate() {
        let _ = write!(text, "\n\n{}", past_task(i + 1, record));
    }
    Some(text)
}

fn past_task(number: usize, record: &MemoryRecord) -> String {
    let mut text = format!("Past task {number}:\nINTENT: {}", one_block(&record.intent));
    if !record.sites.is_empty() {
        let _ = write!(text, "\nSITES: {}", record.sites.join(", "));
    }
    text.push_str("\nACTIONS:");
    if record.steps.is_empty() {
        text.push_str(" none");
    }
    for (i, step) in record.steps.iter().take(MAX_STEPS_SHOWN).enumerate() {
        let action = step
            .action
            .as_deref()
            .map_or_else(|| "(no action)".to_string(), shorten);
        let site = step
            .site
            .as_deref()
            .map_or_else(String::new, |s| format!(" (on {s})"));
        let _ = write!(text, "\n{}. {action}{site}", i + 1);
    }
    if record.steps.len() > MAX_STEPS_SHOWN {
        let _ = write!(
            text,
            "\n... {} more steps",
            record.steps.len() - MAX_STEPS_SHOWN
        );
    }
    let _ = write!(text, "\nOUTCOME: {}", outcome(record));
    text
}

/// The intent on lines of its own, without blank lines, so it cannot look like the
/// end of the past task's block.
fn one_block(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn shorten(action: &str) -> String {
    let line = action.replace(['\n', '\r'], " ");
    if line.chars().count() <= MAX_ACTION_CHARS {
        return line;
    }
    let cut: String = line.chars().take(MAX_ACTION_CHARS).collect();
    format!("{cut}…")
}

fn outcome(record: &MemoryRecord) -> String {
    let done = record.hop_steps.len();
    let hops = if record.hop_steps.is_empty() {
        format!("0 of {} hops completed", record.hops_total)
    } else {
        let at: Vec<String> = record
            .hop_steps
            .iter()
            .enumerate()
            .map(|(i, step)| format!("hop {} at step {step}", i + 1))
            .collect();
        format!(
            "{done} of {} hops completed ({})",
            record.hops_total,
            at.join(", ")
        )
    };
    let ended = match record.ended {
        FinishCause::Answered if record.by_person => "a person did it and gave an answer",
        FinishCause::Answered => "the agent stopped with an answer",
        FinishCause::AllHopsDone => "every hop was completed",
        FinishCause::EarlyStop => "an early-stop rule ended it (step limit, repeats or no action)",
        FinishCause::ReplayEnded => "the reference steps ran out",
        FinishCause::ReplayFailed
        | FinishCause::Stopped
        | FinishCause::Interrupted
        | FinishCause::ModelUnavailable
        | FinishCause::ContextOverflow
        | FinishCause::UnsupportedInput => "it was cut short",
    };
    let verdict = match record.verdict {
        MemoryVerdict::Pass => "the task was solved",
        MemoryVerdict::Fail => "the task was not solved",
    };
    format!("{}: {verdict}; {hops}; {ended}.", record.verdict.as_str())
}
