//! A session's hop tracker: the imported task plus its hop queue, as one serialisable
//! value the extension persists between events (its service worker may be stopped at
//! any moment, so nothing may live only in memory).
//!
//! The browser glue feeds it committed navigations and answers; this module only
//! decides, it never touches the browser.

#[cfg(test)]
mod tests;

use crate::evaluator::{HopQueue, Outcome, Progress, Verdict};
use crate::event::Event;
use crate::import::{import_str, ImportError};
use crate::judge::{JudgeError, JudgeRequest, Judgement, NoJudge};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrackerError {
    #[error("the task could not be read: {0}")]
    Import(#[from] ImportError),
    #[error("the task has no start URL; add at least one to `start_urls`")]
    NoStartUrl,
    #[error("the stored hop state is unreadable ({0}); start the session again")]
    State(String),
    #[error("the answer could not be scored: {0}")]
    Judge(#[from] JudgeError),
}

/// What a session needs to know about its task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TaskSummary {
    pub id: String,
    pub intent: String,
    pub start_urls: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tracker {
    pub task: TaskSummary,
    pub queue: HopQueue,
}

impl Tracker {
    /// Reads a task in any supported format. `file_name` names it in errors and, for
    /// MMInA files, carries the subset folder (`normal/3.json`) the importer needs.
    pub fn from_task_text(text: &str, file_name: &str) -> Result<Tracker, TrackerError> {
        let task = import_str(text, Path::new(file_name)).outcome?;
        if task.start_urls.is_empty() {
            return Err(TrackerError::NoStartUrl);
        }
        Ok(Tracker {
            task: TaskSummary {
                id: task.id.clone(),
                intent: task.intent.clone(),
                start_urls: task.start_urls.clone(),
            },
            queue: HopQueue::new(&task),
        })
    }

    pub fn from_json(state: &str) -> Result<Tracker, TrackerError> {
        crate::json_read::from_str(state).map_err(|e| TrackerError::State(e.to_string()))
    }

    pub fn to_json(&self) -> Result<String, TrackerError> {
        serde_json::to_string(self).map_err(|e| TrackerError::State(e.to_string()))
    }

    /// A main-frame navigation committed in session tab `tab`.
    pub fn navigation(
        &mut self,
        step: u32,
        time_ms: u64,
        tab: u32,
        url: &str,
    ) -> Result<Outcome, TrackerError> {
        // URL conditions never ask a judge, so NoJudge cannot be reached here; an error
        // would still be reported rather than ignored.
        Ok(self
            .queue
            .consume(&Event::navigation(step, time_ms, tab, url), &mut NoJudge)?)
    }

    /// The judge questions the answer `text` raises now (fuzzy references of the
    /// final answer and of the current hop), to be asked before [`Tracker::answer`].
    pub fn judge_requests(&self, text: &str) -> Vec<JudgeRequest> {
        self.queue.judge_requests(&Event::answer(0, 0, text))
    }

    /// The answer of `stop [answer]`, scored with the `judgements` gathered for the
    /// questions of [`Tracker::judge_requests`]. A question left unasked is an error
    /// that changes nothing; one the judge could not decide fails its check, saying why.
    pub fn answer(
        &mut self,
        step: u32,
        time_ms: u64,
        text: &str,
        judgements: Vec<Judgement>,
    ) -> Result<Outcome, TrackerError> {
        Ok(self
            .queue
            .consume_judged(&Event::answer(step, time_ms, text), judgements)?)
    }

    pub fn progress(&self) -> Progress {
        self.queue.progress()
    }

    pub fn verdict(&self) -> Verdict {
        self.queue.verdict()
    }
}
