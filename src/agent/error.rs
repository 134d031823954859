//! Why a run could not start or a stored state could not be used.

use crate::import::ImportError;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgentError {
    #[error("the task could not be read: {0}")]
    Import(#[from] ImportError),
    #[error("the agent settings are not valid: {0}")]
    Config(String),
    #[error("task {task_id} has no reference_trajectory; replay needs one")]
    NoReferenceTrajectory { task_id: String },
    #[error("the stored agent state is unreadable ({0}); start the run again")]
    State(String),
    #[error("the event is not valid: {0}")]
    Event(String),
}
