//! The hop-queue evaluator (MMInA §3): N hop conditions, then END.
//!
//! Events from every tab of a session are fed in order. Only the head of the queue is
//! checked, so hops complete strictly in order; a completed hop is never undone. One
//! event completes one hop, unless that hop passes its event on to the next (MMInA's
//! Wikipedia hop, completed by arriving at the next hop's site). The same evaluator
//! scores agents and people. It is plain data (serde), so a service worker can persist
//! it after each event and resume after being stopped.

#[cfg(test)]
mod pass_on_tests;
mod progress;
#[cfg(test)]
mod tests;

pub use progress::{HopState, HopStatus, Progress, Verdict};

use crate::condition::AnswerCheck;
use crate::event::{Event, EventBody};
use crate::judge::{Judge, JudgeError, JudgeRequest, Judgement, MapJudge};
use crate::task::{FinalAnswer, Hop, Task};
use serde::{Deserialize, Serialize};

/// The event that completed a hop, and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopCompletion {
    pub hop: usize,
    pub event: Event,
}

/// The last answer given and how it scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AnswerRecord {
    pub text: String,
    pub step: u32,
    pub time_ms: u64,
    /// `None` when the task has no final-answer condition.
    pub check: Option<AnswerCheck>,
    /// The judge's verdicts the answer was scored with (fuzzy references only): who
    /// decided, its reply, or why it could not.
    #[serde(default)]
    pub judgements: Vec<Judgement>,
}

/// What one event did to the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    /// Index of the last hop this event completed, if any.
    pub completed_hop: Option<usize>,
    /// Every hop this event completed, in order: more than one only when a completed
    /// hop passes its event on (`Hop::pass_event_on`) and the next hop holds too.
    #[serde(default)]
    pub completed_hops: Vec<usize>,
    /// Whether the event was an answer that was scored.
    pub answer_scored: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopQueue {
    hops: Vec<Hop>,
    #[serde(default)]
    final_answer: Option<FinalAnswer>,
    completions: Vec<HopCompletion>,
    answer: Option<AnswerRecord>,
}

impl HopQueue {
    pub fn new(task: &Task) -> Self {
        HopQueue {
            hops: task.hops.clone(),
            final_answer: task.final_answer.clone(),
            completions: Vec::new(),
            answer: None,
        }
    }

    pub fn hops_total(&self) -> usize {
        self.hops.len()
    }

    pub fn hops_done(&self) -> usize {
        self.completions.len()
    }

    /// True when the head of the queue is END.
    pub fn at_end(&self) -> bool {
        self.completions.len() >= self.hops.len()
    }

    pub fn completions(&self) -> &[HopCompletion] {
        &self.completions
    }

    pub fn answer(&self) -> Option<&AnswerRecord> {
        self.answer.as_ref()
    }

    /// Judge questions that consuming `event` could ask, so an asynchronous caller can
    /// collect verdicts before calling [`HopQueue::consume`] with a map-backed judge.
    pub fn judge_requests(&self, event: &Event) -> Vec<JudgeRequest> {
        let EventBody::Answer { text } = &event.body else {
            return Vec::new();
        };
        let mut requests: Vec<JudgeRequest> = Vec::new();
        if let Some(fa) = &self.final_answer {
            requests.extend(fa.condition.judge_requests(text));
        }
        // The head, and the hops after it that an event passed on could reach.
        for hop in self.hops.iter().skip(self.completions.len()) {
            collect_answer_requests(&hop.condition, text, &mut requests);
            if !hop.pass_event_on {
                break;
            }
        }
        requests.sort();
        requests.dedup();
        requests
    }

    /// Feeds one event. On a judge error nothing changes, so the caller may retry.
    pub fn consume(&mut self, event: &Event, judge: &mut dyn Judge) -> Result<Outcome, JudgeError> {
        // Compute everything first, then commit, so an error leaves no partial update.
        let answer = match &event.body {
            EventBody::Answer { text } => {
                let check = match &self.final_answer {
                    Some(fa) => Some(fa.condition.check(text, judge)?),
                    None => None,
                };
                Some(AnswerRecord {
                    text: text.clone(),
                    step: event.step,
                    time_ms: event.time_ms,
                    check,
                    judgements: Vec::new(),
                })
            }
            _ => None,
        };
        let completed_hops = self.hops_completed_by(event, judge)?;
        let answer_scored = answer.is_some();
        if let Some(record) = answer {
            self.answer = Some(record);
        }
        for &hop in &completed_hops {
            self.completions.push(HopCompletion {
                hop,
                event: event.clone(),
            });
        }
        Ok(Outcome {
            completed_hop: completed_hops.last().copied(),
            completed_hops,
            answer_scored,
        })
    }

    /// The hops `event` completes, from the head on, without changing the queue.
    ///
    /// The head is checked first. Only when a hop it completes passes its event on is
    /// the next hop checked with the same event, and so on; otherwise one event
    /// completes at most one hop. A chain is checked within this one call only: the
    /// same event delivered again is refused by `same_as_last_credit`, so a duplicate
    /// never completes anything.
    fn hops_completed_by(
        &self,
        event: &Event,
        judge: &mut dyn Judge,
    ) -> Result<Vec<usize>, JudgeError> {
        let mut completed = Vec::new();
        if self.same_as_last_credit(event) {
            return Ok(completed);
        }
        let mut index = self.completions.len();
        while let Some(hop) = self.hops.get(index) {
            if !(hop.condition.is_triggered_by(event) && hop.condition.holds(event, judge)?) {
                break;
            }
            completed.push(index);
            if !hop.pass_event_on {
                break;
            }
            index += 1;
        }
        Ok(completed)
    }

    /// Feeds an answer scored with verdicts gathered beforehand (see
    /// [`HopQueue::judge_requests`]), and keeps them with the answer. A judgement
    /// without a verdict fails the check it belongs to, saying why.
    pub fn consume_judged(
        &mut self,
        event: &Event,
        judgements: Vec<Judgement>,
    ) -> Result<Outcome, JudgeError> {
        let outcome = self.consume(event, &mut MapJudge::from_judgements(&judgements))?;
        if outcome.answer_scored {
            if let Some(answer) = self.answer.as_mut() {
                answer.judgements = judgements;
            }
        }
        Ok(outcome)
    }

    /// One observation may credit one hop only: the event that completed the previous
    /// hop (same tab, URL, text or answer, whatever its step) cannot complete the next
    /// in a later call, even when that hop passed its event on (the chain was checked
    /// then). This also makes duplicate deliveries of an event harmless.
    fn same_as_last_credit(&self, event: &Event) -> bool {
        self.completions
            .last()
            .is_some_and(|c| c.event.body == event.body)
    }
}

fn collect_answer_requests(
    condition: &crate::condition::Condition,
    answer: &str,
    out: &mut Vec<JudgeRequest>,
) {
    use crate::condition::Condition;
    match condition {
        Condition::Answer(c) => out.extend(c.judge_requests(answer)),
        Condition::All { of } | Condition::Any { of } => {
            for c in of {
                collect_answer_requests(c, answer, out);
            }
        }
        Condition::Not(c) => collect_answer_requests(&c.condition, answer, out),
        Condition::Url(_) | Condition::PageText(_) => {}
    }
}
