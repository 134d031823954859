//! Views of a hop queue for a UI and for the final verdict.

use super::{AnswerRecord, HopQueue};
use crate::serde_flat::need;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum HopState {
    Done { step: u32, time_ms: u64 },
    Current,
    Waiting,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// Read through one flat struct (`crate::serde_flat`): progress is in every stored run.
#[serde(try_from = "HopStatusFields")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HopStatus {
    pub index: usize,
    pub description: String,
    #[serde(flatten)]
    pub state: HopState,
}

enum HopStateName {
    Done,
    Current,
    Waiting,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(HopStateName, "HopStateName", {
    Done = "done",
    Current = "current",
    Waiting = "waiting",
});

/// A `HopStatus` object as written: `state` names the variant, `step` and `time_ms`
/// belong to `done`.
#[derive(Deserialize)]
struct HopStatusFields {
    index: usize,
    description: String,
    state: HopStateName,
    step: Option<u32>,
    time_ms: Option<u64>,
}

impl TryFrom<HopStatusFields> for HopStatus {
    type Error = String;

    fn try_from(f: HopStatusFields) -> Result<HopStatus, String> {
        let state = match f.state {
            HopStateName::Done => HopState::Done {
                step: need(f.step, "step")?,
                time_ms: need(f.time_ms, "time_ms")?,
            },
            HopStateName::Current => HopState::Current,
            HopStateName::Waiting => HopState::Waiting,
        };
        Ok(HopStatus {
            index: f.index,
            description: f.description,
            state,
        })
    }
}

/// "k of N hops done", what is being worked on, and each hop's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub at_end: bool,
    /// Description of the head of the queue; `None` at END.
    pub current: Option<String>,
    pub hops: Vec<HopStatus>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Verdict {
    pub passed: bool,
    pub hops_done: usize,
    pub hops_total: usize,
    /// The step at which each completed hop was completed, in hop order.
    pub hop_steps: Vec<u32>,
    pub answer: Option<AnswerRecord>,
    /// Why the task failed, or "all hops completed".
    pub reason: String,
}

impl HopQueue {
    /// Why the judge gave no verdict on the last answer, if it did not.
    fn judge_failure(&self) -> Option<&str> {
        self.answer
            .as_ref()?
            .judgements
            .iter()
            .find_map(|j| j.error.as_deref())
    }

    pub fn progress(&self) -> Progress {
        let done = self.completions.len();
        let hops = self
            .hops
            .iter()
            .enumerate()
            .map(|(index, hop)| {
                let state = match self.completions.get(index) {
                    Some(c) => HopState::Done {
                        step: c.event.step,
                        time_ms: c.event.time_ms,
                    },
                    None if index == done => HopState::Current,
                    None => HopState::Waiting,
                };
                HopStatus {
                    index,
                    description: hop.label(),
                    state,
                }
            })
            .collect();
        Progress {
            done,
            total: self.hops.len(),
            at_end: self.at_end(),
            current: self.hops.get(done).map(|h| h.label()),
            hops,
        }
    }

    /// The verdict if the run ended now.
    pub fn verdict(&self) -> Verdict {
        let hops_done = self.completions.len();
        let answer_required = self.final_answer.as_ref().is_some_and(|fa| fa.required);
        let answer_ok = self
            .answer
            .as_ref()
            .and_then(|a| a.check.as_ref())
            .is_some_and(|c| c.passed);
        let reason = if !self.at_end() {
            let head = self
                .hops
                .get(hops_done)
                .map(|h| h.label())
                .unwrap_or_default();
            let stopped = format!(
                "stopped at hop {} of {}: {}",
                hops_done + 1,
                self.hops.len(),
                head
            );
            // An answer hop the judge could not decide is otherwise just "not done".
            match self.judge_failure() {
                Some(why) => format!("{stopped} (the judge gave no verdict on the answer: {why})"),
                None => stopped,
            }
        } else if answer_required && self.answer.is_none() {
            "all hops completed, but no answer was given".to_string()
        } else if answer_required && !answer_ok {
            let notes = self
                .answer
                .as_ref()
                .and_then(|a| a.check.as_ref())
                .map(|c| c.notes.join("; "));
            format!(
                "all hops completed, but the answer failed: {}",
                notes.unwrap_or_default()
            )
        } else {
            "all hops completed".to_string()
        };
        Verdict {
            passed: self.at_end() && (!answer_required || answer_ok),
            hops_done,
            hops_total: self.hops.len(),
            hop_steps: self.completions.iter().map(|c| c.event.step).collect(),
            answer: self.answer.clone(),
            reason,
        }
    }
}
