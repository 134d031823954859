//! The run's side of procedural memory: which records its prompt shows, and the
//! record it leaves once it has finished (see `crate::memory`).

use super::state::{Agent, Phase};
use crate::evaluator::Verdict;
use crate::memory::MemoryRecord;

impl Agent {
    /// The task ids of the memory records the prompt shows, in its order.
    pub fn memory_tasks(&self) -> &[String] {
        &self.memory_tasks
    }

    /// The memory section of the system prompt, if memory is on and found records.
    pub fn memory_section(&self) -> Option<&str> {
        self.memory.as_deref()
    }

    /// This run as a memory record, given the session tracker's verdict; `None` while
    /// the run goes on, and for endings that say nothing about the task (a person's
    /// Stop, an unusable model, a broken replay). Only the verdict's pass/fail and hop
    /// steps are read: its answer record would carry the reference answers' check.
    pub fn memory_record(&self, verdict: &Verdict) -> Option<MemoryRecord> {
        let Phase::Finished { cause, .. } = &self.phase else {
            return None;
        };
        MemoryRecord::of_run(
            &self.task,
            self.trail.clone(),
            *cause,
            verdict.passed,
            verdict.hop_steps.clone(),
        )
    }
}
