//! The per-task input record and the checks that make it safe to aggregate.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What the evaluator recorded for one task run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRecord {
    pub task_id: String,
    /// Number of hops the task defines (N).
    pub hops_total: usize,
    /// Hops the agent completed, in order, before it stopped or failed.
    pub hops_completed: usize,
    /// Carried explicitly rather than derived from the hop counts, because a
    /// task may also require a correct final answer after its last hop.
    pub passed: bool,
}

/// A record that cannot be aggregated. Each variant names the task so a user
/// can find the bad line in a results file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MetricsError {
    #[error("task `{task_id}`: hops_total is 0; a task has at least one hop")]
    NoHops { task_id: String },
    #[error(
        "task `{task_id}`: hops_completed ({hops_completed}) exceeds hops_total ({hops_total})"
    )]
    CompletedExceedsTotal {
        task_id: String,
        hops_completed: usize,
        hops_total: usize,
    },
    // Passing requires every hop to be done, so this record contradicts
    // itself; counting it would inflate task SR above what hop SR allows.
    #[error(
        "task `{task_id}`: marked passed with only {hops_completed} of {hops_total} hops completed"
    )]
    PassedWithoutAllHops {
        task_id: String,
        hops_completed: usize,
        hops_total: usize,
    },
}

impl TaskRecord {
    /// Checks the record is internally consistent.
    pub fn validate(&self) -> Result<(), MetricsError> {
        let task_id = || self.task_id.clone();
        if self.hops_total == 0 {
            return Err(MetricsError::NoHops { task_id: task_id() });
        }
        if self.hops_completed > self.hops_total {
            return Err(MetricsError::CompletedExceedsTotal {
                task_id: task_id(),
                hops_completed: self.hops_completed,
                hops_total: self.hops_total,
            });
        }
        if self.passed && self.hops_completed < self.hops_total {
            return Err(MetricsError::PassedWithoutAllHops {
                task_id: task_id(),
                hops_completed: self.hops_completed,
                hops_total: self.hops_total,
            });
        }
        Ok(())
    }
}
